package stepmap

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

const crossMap = `format: aep.driver-steps/1
id: demo/steps
workflow: demo/review/2
states:
  zeta: {}
  draft:
    steps:
      - kind: command
        run: [lint]
        evidence: {kind: diff, verifier: test-runner}
      - kind: command
        run: [approve]
        evidence: {kind: review_outcome, verifier: human-review, record: r.yaml}
      - kind: command
        run: [git, diff]
        evidence: {kind: diff, verifier: git}
      - kind: command
        run: [go, vet]
        evidence: {kind: static_analysis, verifier: compiler}
  alpha: {}
`

func loadString(t *testing.T, src string) *Map {
	t.Helper()
	m, diags := Load("m.yaml", []byte(src))
	if diags.HasErrors() {
		t.Fatal(render(diags))
	}
	return m
}

func TestCrossValidate(t *testing.T) {
	m := loadString(t, crossMap)
	got := renderPaths(m.crossValidate("demo/other", 2, nil))
	want := "m.yaml:3:11: the step map is pinned to `demo/review/2`, not to workflow `demo/other` [unknown_workflow] @ driver-steps[demo/steps].workflow\n"
	if got != want {
		t.Errorf("unknown workflow:\ngot  %s\nwant %s", got, want)
	}
	got = renderPaths(m.crossValidate("demo/review", 3, nil))
	want = "m.yaml:3:11: the step map is pinned to `demo/review/2`, but workflow `demo/review` is at version 3 [version_mismatch] @ driver-steps[demo/steps].workflow\n" +
		"  hint: a new major version of a workflow means the map is rewritten for it, not migrated\n"
	if got != want {
		t.Errorf("version mismatch:\ngot  %s\nwant %s", got, want)
	}
	got = renderPaths(m.crossValidate("demo/review", 2, []string{"draft", "done"}))
	want = "m.yaml:20:3: state `alpha` is not a state of workflow `demo/review` [unknown_state] @ driver-steps[demo/steps].states.alpha\n" +
		"  hint: the workflow's states: done, draft\n" +
		"m.yaml:5:3: state `zeta` is not a state of workflow `demo/review` [unknown_state] @ driver-steps[demo/steps].states.zeta\n" +
		"  hint: the workflow's states: done, draft\n" +
		"m.yaml:10:42: verifier `test-runner` does not establish `diff` evidence [no_verifier_for_evidence] @ driver-steps[demo/steps].states.draft.steps[0].evidence\n" +
		"  hint: `test-runner` establishes test_result, specification\n" +
		"m.yaml:13:52: verifier `human-review` does not establish `review_outcome` evidence [no_verifier_for_evidence] @ driver-steps[demo/steps].states.draft.steps[1].evidence\n" +
		"  hint: `human-review` establishes review, specification\n"
	if got != want {
		t.Errorf("states and verifiers:\ngot\n%s\nwant\n%s", got, want)
	}
}

// TestCrossValidateSuggests: a map state misspelt from one of the
// workflow's gets a "did you mean" and a fix at its key; a workflow state
// the map already has is no suggestion.
func TestCrossValidateSuggests(t *testing.T) {
	m := loadString(t, "format: aep.driver-steps/1\nid: demo/steps\nworkflow: demo/review/2\nstates:\n  reveiw: {}\n  \"drafts\": {}\n  draft: {}\n")
	got := m.crossValidate("demo/review", 2, []string{"draft", "review", "done"})
	if len(got) != 2 {
		t.Fatalf("got %v", got)
	}
	d := got[0]
	if d.Path != "driver-steps[demo/steps].states.drafts" || d.Hint != "the workflow's states: done, draft, review" || len(d.Fixes) != 0 {
		t.Errorf("drafts: the present `draft` is no suggestion: %+v", d)
	}
	d = got[1]
	want := diag.Fix{Title: "replace `reveiw` with `review`", File: "m.yaml",
		Span: diag.Span{Start: diag.Pos{Line: 5, Column: 3}, End: diag.Pos{Line: 5, Column: 9}}, NewText: "review"}
	if d.Hint != "did you mean `review`? the workflow's states: done, draft, review" || len(d.Fixes) != 1 || d.Fixes[0] != want {
		t.Errorf("reveiw: %+v", d)
	}
}

// renderPaths prints diagnostics in emission order, each with its path.
func renderPaths(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error() + " @ " + d.Path + "\n")
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
	}
	return b.String()
}

func TestVerifierWithNoKinds(t *testing.T) {
	desc := "x"
	s := &Step{Kind: KindCommand, Description: &desc, Evidence: &Evidence{Kind: "diff", Verifier: "human-approval"}}
	d := verifierCheck(s, "p", "m.yaml")
	if len(d) != 1 || d[0].Hint != "`human-approval` establishes approval" {
		t.Errorf("got %v", d)
	}
	s.Evidence = &Evidence{Kind: "review_outcome", Verifier: "human-review"}
	if d := verifierCheck(s, "p", "m.yaml"); len(d) != 1 || !strings.Contains(d[0].Message, "review_outcome") {
		t.Errorf("a kind with no default verifiers refuses every named class: %v", d)
	}
}

func TestSelect(t *testing.T) {
	a := loadString(t, crossMap)
	b := loadString(t, strings.Replace(crossMap, "id: demo/steps", "id: demo/other-steps", 1))
	maps := []*Map{a, b}
	files := map[string]string{"x/map.yaml": strings.Replace(crossMap, "id: demo/steps", "id: from/file", 1)}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}
	if m, d := Select("x/map.yaml", maps, read); m == nil || m.ID != "from/file" || len(d) != 0 {
		t.Errorf("file: %v %v", m, d)
	}
	if m, d := Select("demo/other-steps", maps, read); m != b || len(d) != 0 {
		t.Errorf("id: %v %v", m, d)
	}
	_, d := Select("Nope!", maps, read)
	if strings.Join(d.Codes(), ",") != CodeInvalidIdentifier || !strings.Contains(d[0].Message, "`Nope!`") {
		t.Errorf("bad id: %v", d)
	}
	_, d = Select("demo/missing", maps, read)
	if strings.Join(d.Codes(), ",") != CodeUnknownStepMap || d[0].Hint != "the tree's step maps: demo/other-steps, demo/steps" {
		t.Errorf("unknown id: %v %q", d, d[0].Hint)
	}
	files["bad.yaml"] = "format: nope\nid: m\nworkflow: w/1\nstates: {s: {}}\n"
	if m, d := Select("bad.yaml", maps, read); m != nil || strings.Join(d.Codes(), ",") != CodeUnsupportedFormat {
		t.Errorf("bad file: %v %v", m, d)
	}
}

func TestPick(t *testing.T) {
	a := loadString(t, crossMap)
	b := loadString(t, strings.Replace(crossMap, "id: demo/steps", "id: demo/b", 1))
	c := loadString(t, strings.Replace(crossMap, "demo/review/2", "demo/review/3", 1))
	if m, err := Pick([]*Map{a, c}, "demo/review", 2); m != a || err != nil {
		t.Errorf("single: %v %v", m, err)
	}
	_, err := Pick([]*Map{c}, "demo/review", 2)
	var d diag.Diagnostic
	if !errors.As(err, &d) || d.Code != CodeNoStepMap || d.Message != "no step map is pinned to `demo/review/2`" {
		t.Errorf("none: %v", err)
	}
	_, err = Pick([]*Map{b, a, c}, "demo/review", 2)
	if !errors.As(err, &d) || d.Code != CodeAmbiguousStepMap || d.Message != "2 step maps are pinned to `demo/review/2`: demo/b, demo/steps" {
		t.Errorf("several: %v", err)
	}
}

func TestSelectSuggests(t *testing.T) {
	maps := []*Map{{ID: "demo/review-steps"}, {ID: "demo/other"}}
	_, d := Select("demo/reveiw-steps", maps, func(string) ([]byte, error) { return nil, os.ErrNotExist })
	if len(d) != 1 || d[0].Hint != "did you mean `demo/review-steps`? the tree's step maps: demo/other, demo/review-steps" {
		t.Errorf("got %+v", d)
	}
}

// TestCrossValidateHintsStayShort: a map of n states none of which the
// workflow of n states has gets n diagnostics whose hints name at most
// suggest.MaxListed states each, so the report grows linearly, not with n².
func TestCrossValidateHintsStayShort(t *testing.T) {
	const n = 500
	var src strings.Builder
	src.WriteString("format: aep.driver-steps/1\nid: demo/steps\nworkflow: demo/review/2\nstates:\n")
	states := make([]string, n)
	for i := range n {
		states[i] = fmt.Sprintf("w%04d", i)
		fmt.Fprintf(&src, "  m%04dxyz: {}\n", i)
	}
	got := loadString(t, src.String()).crossValidate("demo/review", 2, states)
	if len(got) != n {
		t.Fatalf("got %d diagnostics; want %d", len(got), n)
	}
	want := "the workflow's states: " + strings.Join(states[:20], ", ") + fmt.Sprintf(", … and %d more", n-20)
	for _, d := range got {
		if d.Hint != want {
			t.Fatalf("hint %q; want %q", d.Hint, want)
		}
	}
}
