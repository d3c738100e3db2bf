package reqtext_test

import (
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
)

// decodeSet reads a requirement set from YAML with the shared decoder, so
// the lines tested are those of real documents.
func decodeSet(t testing.TB, src string) workflow.RequirementSet {
	t.Helper()
	doc, diags := yamldoc.Parse("set.yaml", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var ds diag.List
	s := workflow.DecodeRequirementSet(yamldoc.NewReader(doc, &ds), doc.Root, "set")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return s
}

const everyFlavour = `
predicates: [ready, "risk >= medium"]
evidence:
  - test_result
  - {kind: diff, at_least: 2, subject: "repo:main", verifier: test-runner, independent: true, horizon: 7d}
  - {kind: test_result, at_least: 0}
artifacts:
  - spec
  - {kind: adr, status: in-review, at_least: 3, relation: {kind: decides, target_kind: story, target: task}}
  - {kind: story, relation: {kind: serves, target: task}}
  - {kind: story, relation: {kind: serves, target_kind: epic}}
  - {kind: story, relation: specifies}
reviews:
  - design
  - {subject: "specification:s@2", result: rejected, human: true}
approvals: [ship, {approval: go, human: true}]
conditional:
  - when: change.big
    require: {evidence: diff, approval: ok}
  - when: {task.kind: feature}
    require: null
advisory:
  - {owner: qa, exit_criterion: release, require: [tests.unit.failed == 0]}
`

// TestLinesEveryFlavour pins the line of every flavour and option, in the
// order of rendering.md §2, for both printers: they differ only in the
// horizon of the one evidence item that has one.
func TestLinesEveryFlavour(t *testing.T) {
	s := decodeSet(t, everyFlavour)
	want := []string{
		"ready",
		"risk >= medium",
		"evidence test_result",
		"evidence diff x2 for repo:main from test-runner (independent)",
		"evidence test_result x0",
		"artifact spec",
		"artifact adr (in_review) x3 which decides a story of this task",
		"artifact story which serves this task",
		"artifact story which serves a epic",
		"artifact story which specifies",
		"review of a design is approved",
		"review of specification:s@2 is rejected (by a person)",
		"approval ship",
		"approval go (by a person)",
		"if change.big then: evidence diff; approval ok",
		"if task.kind == feature then …",
		"advisory of qa until release: tests.unit.failed == 0",
	}
	if got := reqtext.Render.Lines(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("render lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	want[3] += " within 7d"
	if got := reqtext.Evaluation.Lines(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("evaluation lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNestedHorizons: a nested set's evidence follows the printer's option
// too.
func TestNestedHorizons(t *testing.T) {
	s := decodeSet(t, "advisory: [{owner: o, exit_criterion: x, require: {evidence: [{kind: diff, horizon: 3}]}}]")
	if got := reqtext.Render.Lines(s)[0]; got != "advisory of o until x: evidence diff" {
		t.Errorf("render: %q", got)
	}
	if got := reqtext.Evaluation.Lines(s)[0]; got != "advisory of o until x: evidence diff within 3d" {
		t.Errorf("evaluation: %q", got)
	}
}

// TestStale: the change-set printer marks an artifact or a review that need
// not be fresh, nested ones included, and shows horizons; the others never
// mark.
func TestStale(t *testing.T) {
	s := decodeSet(t, `
artifacts: [{kind: note, fresh: false}, {kind: plan}]
reviews: [{subject_kind: design, fresh: false}, {subject_kind: code}]
conditional: [{when: always, require: {artifacts: [{kind: spec, fresh: false}], evidence: [{kind: diff, horizon: 2}]}}]`)
	want := []string{
		"artifact note (stale ones count)",
		"artifact plan",
		"review of a design is approved (stale ones count)",
		"review of a code is approved",
		"if always then: evidence diff within 2d; artifact spec (stale ones count)",
	}
	if got := reqtext.Change.Lines(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("change lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range []reqtext.Printer{reqtext.Render, reqtext.Evaluation} {
		for _, line := range p.Lines(s) {
			if strings.Contains(line, "stale") {
				t.Errorf("%+v marks staleness: %q", p, line)
			}
		}
	}
}

// TestEmptySet: no items, no lines; a nested empty set is elided.
func TestEmptySet(t *testing.T) {
	if got := reqtext.Render.Lines(workflow.RequirementSet{}); got != nil {
		t.Errorf("lines of the empty set = %q", got)
	}
	if got := reqtext.Render.Nested("head", workflow.RequirementSet{}); got != "head …" {
		t.Errorf("nested empty = %q", got)
	}
}

// TestItemLines covers what the set printer never reaches: a review whose
// result is empty reads as approved, the engine's elided conditional, and
// the verification line.
func TestItemLines(t *testing.T) {
	cond := workflow.ConditionalReq{When: predicate.Always{}, Require: decodeSet(t, "[ready]")}
	for _, c := range []struct{ got, want string }{
		{reqtext.Review(workflow.ReviewReq{SubjectKind: "design"}), "review of a design is approved"},
		{reqtext.Elided(reqtext.ConditionalHead(cond)), "if always then …"},
		{reqtext.AdvisoryHead(workflow.AdvisoryReq{Owner: "qa", ExitCriterion: "GA"}), "advisory of qa until GA"},
		{reqtext.Verification(protocol.Verification{Verifier: "test-runner"}), "test-runner must run"},
		{reqtext.Verification(protocol.Verification{Verifier: "fuzz", Claim: "speed", SubjectKind: "specification"}), "fuzz must run for speed on a specification"},
		{reqtext.Approval(workflow.ApprovalReq{ID: "a"}), "approval a"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// BenchmarkLines prints every flavour once per iteration, as the renderers
// do for each state and edge.
func BenchmarkLines(b *testing.B) {
	s := decodeSet(b, everyFlavour)
	b.ReportAllocs()
	for b.Loop() {
		if len(reqtext.Evaluation.Lines(s)) != 17 {
			b.Fatal("lines lost")
		}
	}
}
