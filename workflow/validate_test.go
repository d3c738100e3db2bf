package workflow

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/predicate"
)

func mustLoad(t testing.TB, src string) *Workflow {
	t.Helper()
	w, diags := Load("w.yaml", []byte(src))
	if diags.HasErrors() || w == nil {
		t.Fatalf("load failed:\n%s", errorLines(diags))
	}
	return w
}

// TestValidateLocationsAndOrder checks the logical locations, hints and the
// reference emission order (before sorting) of every semantic rule.
func TestValidateLocationsAndOrder(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "workflow", "err", "several.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	w := mustLoad(t, string(data))
	type row struct{ code, path, hint string }
	var got []row
	for _, d := range w.Validate() {
		got = append(got, row{d.Code, d.Path, d.Hint})
	}
	want := []row{
		{CodeRollbackOnIrreversibleState, "workflow demo/several.transitions[0].on_failure", "use `escalate` or `block`"},
		{CodeIncompleteRollbackPolicy, "workflow demo/several.transitions[0].on_failure", "state the precondition under `rollback.require` (e.g. a previous revision exists)"},
		{CodeDuplicateTransition, "workflow demo/several.transitions[1]", "merge the guards with `any`"},
		{CodeUnknownState, "workflow demo/several.transitions[2].to", ""},
		{CodeIncompleteRollbackPolicy, "workflow demo/several.states.middle.on_failure", "state the precondition under `rollback.require` (e.g. a previous revision exists)"},
		{CodeDeadEndState, "workflow demo/several.states.stuck", "add a transition or `terminal: true`"},
		{CodeUnreachableState, "workflow demo/several.states.stuck", "add a transition, or `allow_unreachable_states: true`"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
}

func TestValidateHeaderRules(t *testing.T) {
	w := mustLoad(t, "id: a/b\ntitle: T\ninitial: x\nstates: {zeta: {title: Z, terminal: true}, alpha: {title: A, terminal: true}}\nallow_unreachable_states: true\n")
	diags := w.Validate()
	if len(diags) != 1 || diags[0].Code != CodeUnknownInitialState {
		t.Fatalf("got %v", errorLines(diags))
	}
	if d := diags[0]; d.Path != "workflow a/b.initial" || d.Hint != "declared states: alpha, zeta" {
		t.Errorf("path %q hint %q", d.Path, d.Hint)
	}
	// An empty workflow reports empty_workflow only: neither the initial
	// state nor reachability is judged without states.
	w = mustLoad(t, "id: a/b\ntitle: T\ninitial: x\nstates: {}\n")
	if got := w.Validate().Codes(); !slices.Equal(got, []string{CodeEmptyWorkflow}) {
		t.Errorf("empty workflow: got %v", got)
	}
}

// TestNotRefused covers documents.md §7's list of what is allowed.
func TestNotRefused(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: a
states:
  a: {title: A}
  b: {title: B, terminal: true}
  c: {title: C, terminal: true}
transitions:
  - {from: a, to: a}
  - {from: a, to: b, when: nobody.produces.this}
  - {from: b, to: a}
  - {from: a, to: c}
`)
	if diags := w.Validate(); len(diags) > 0 {
		t.Errorf("unexpected: %s", errorLines(diags))
	}
}

func TestGuarded(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: a
states: {a: {title: A}, b: {title: B, terminal: true}}
transitions:
  - {from: a, to: b}
  - {from: a, to: b, when: true}
  - {from: a, to: b, when: always}
  - {from: a, to: b, when: {all: []}}
  - {from: a, to: b, when: []}
  - {from: a, to: b, when: null}
  - {from: a, to: b, when: x}
  - {from: a, to: b, when: {all: [not ready]}}
  - {from: a, to: b, when: false}
`)
	var got []bool
	for _, tr := range w.Transitions {
		got = append(got, tr.Guarded())
	}
	want := []bool{false, false, false, false, false, false, true, true, true}
	if !slices.Equal(got, want) {
		t.Errorf("Guarded: got %v, want %v", got, want)
	}
	if w.GuardedCount() != 3 {
		t.Errorf("GuardedCount %d", w.GuardedCount())
	}
}

func TestStatePhasesAndDefaults(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: s
states:
  s: {title: S, phases: [review, intake, review], terminal: true}
`)
	s := w.States["s"]
	if !slices.Equal(s.Phases, []string{"intake", "review"}) {
		t.Errorf("phases %v", s.Phases)
	}
	if w.Version != 1 || w.Summary != nil || s.Summary != nil || s.OnFailure != nil || !s.Requires.IsEmpty() || !s.Capabilities.IsEmpty() {
		t.Errorf("defaults not applied: %+v %+v", w, s)
	}
	if w.Pos.Line != 1 || w.Pos.Column != 5 || w.InitialPos.Line != 3 || s.Pos.Line != 5 {
		t.Errorf("positions: id %v initial %v state %v", w.Pos, w.InitialPos, s.Pos)
	}
}

func TestFailurePolicies(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: s
states:
  s:
    title: S
    terminal: true
    on_failure: {action: retry, max_attempts: 4, then: {action: retry, then: {action: rollback, rollback: {require: prev.exists}}}}
  r: {title: R, terminal: true, on_failure: retry}
  e: {title: E, terminal: true, on_failure: {action: escalate, to: oncall}}
allow_unreachable_states: true
`)
	p := w.States["s"].OnFailure
	if p.Action != ActionRetry || p.MaxAttempts != 4 || p.Then.MaxAttempts != 1 || !p.InvolvesRollback() {
		t.Fatalf("retry chain: %v", p)
	}
	if got := p.RollbackRequirement(); got == nil || got.String() != "prev.exists" {
		t.Errorf("rollback requirement %v", got)
	}
	if got := p.String(); got != "retry(4) then retry(1) then rollback when prev.exists" {
		t.Errorf("String %q", got)
	}
	r := w.States["r"].OnFailure
	if r.InvolvesRollback() || r.RollbackRequirement() != nil || r.Then.Action != ActionBlock {
		t.Errorf("bare retry: %v", r)
	}
	if e := w.States["e"].OnFailure; e.To != "oncall" || e.InvolvesRollback() {
		t.Errorf("escalate: %+v", e)
	}
}

func TestRequirementSet(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: s
states:
  s:
    title: S
    terminal: true
    requires:
      z.last: true
      predicates: [b.x, a.y == 1]
      a.first: {gt: 2}
      evidence: [test_execution, {kind: diff, horizon: " 7 D ", subject: "repo:x/y", verifier: git, at_least: 3}]
      artifact: {kind: specification, status: in-review, relation: specifies}
      review: design
      approval: {approval: sign-off, human: true}
      conditional: {when: change.big, requires: {evidence: review}}
      advisory: {owner: me, exit_criterion: soon, require: tests.flaky == 0}
`)
	s := w.States["s"].Requires
	var preds []string
	for _, p := range s.Predicates {
		preds = append(preds, p.String())
	}
	if want := []string{"b.x", "a.y == 1", "(a.first > 2 and z.last == true)"}; !slices.Equal(preds, want) {
		t.Errorf("predicates %q, want %q", preds, want)
	}
	if e := s.Evidence; len(e) != 2 || e[0].Kind != "test_result" || e[0].AtLeast != 1 ||
		e[1].HorizonDays != 7 || e[1].Subject != "repo:x/y" || e[1].Verifier != "git" || e[1].AtLeast != 3 {
		t.Errorf("evidence %+v", e)
	}
	if a := s.Artifacts; len(a) != 1 || a[0].Status != "in_review" || a[0].Relation.Kind != "specifies" || !a[0].Fresh {
		t.Errorf("artifacts %+v", a)
	}
	if r := s.Reviews; len(r) != 1 || r[0].SubjectKind != "design" || r[0].Result != "approved" {
		t.Errorf("reviews %+v", r)
	}
	if a := s.Approvals; len(a) != 1 || a[0].ID != "sign-off" || !a[0].Human {
		t.Errorf("approvals %+v", a)
	}
	if c := s.Conditional; len(c) != 1 || c[0].When.String() != "change.big" || c[0].Require.Evidence[0].Kind != "review" {
		t.Errorf("conditional %+v", c)
	}
	if a := s.Advisory; len(a) != 1 || a[0].Owner != "me" || a[0].ExitCriterion != "soon" || len(a[0].Require.Predicates) != 1 {
		t.Errorf("advisory %+v", a)
	}
	want := []string{"a.first", "a.y", "b.x", "change.big", "tests.flaky", "z.last"}
	if got := s.FactPaths(); !slices.Equal(got, want) {
		t.Errorf("FactPaths %v, want %v", got, want)
	}
}

// TestRequirementSetForms checks the non-mapping forms: a predicate (one
// item, a list being one conjunction) and null.
func TestRequirementSetForms(t *testing.T) {
	w := mustLoad(t, `id: a/b
title: T
initial: a
allow_unreachable_states: true
states:
  a: {title: A, terminal: true, requires: [x, y]}
  b: {title: B, terminal: true, requires: "x == 1"}
  c: {title: C, terminal: true, requires: null}
  d: {title: D, terminal: true, requires: false}
`)
	got := map[string]string{}
	for _, id := range w.StateIDs() {
		var parts []string
		for _, p := range w.States[id].Requires.Predicates {
			parts = append(parts, p.String())
		}
		got[id] = strings.Join(parts, "|")
	}
	want := map[string]string{"a": "(x and y)", "b": "x == 1", "c": "", "d": "never"}
	for id, s := range want {
		if got[id] != s {
			t.Errorf("%s: %q, want %q", id, got[id], s)
		}
	}
	if _, ok := w.States["d"].Requires.Predicates[0].(predicate.Never); !ok {
		t.Error("`false` is not Never")
	}
}

func TestLoadNotAMapping(t *testing.T) {
	for _, src := range []string{"", "[1, 2]\n", "just text\n"} {
		w, diags := Load("w.yaml", []byte(src))
		if w != nil || !diags.HasErrors() {
			t.Errorf("%q: workflow %v, diags %v", src, w, diags)
		}
	}
}
