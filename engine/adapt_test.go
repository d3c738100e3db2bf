package engine

import (
	"strings"
	"testing"
)

// TestFromTreeMini checks what the adapter adds to the shared models on
// testdata/mini: obligation ids, alias-resolved artifact kinds, relation
// targets, legacy evidence kinds (`test_execution` is `test_result`), horizons in days, nested sets, states in byte order.
func TestFromTreeMini(t *testing.T) {
	docs, diags := LoadDocuments("testdata/mini")
	if len(diags) != 0 {
		t.Fatalf("mini tree: %v", diags)
	}
	w := docs.Workflows[0]
	var states []string
	for _, s := range w.States {
		states = append(states, s.ID)
	}
	if strings.Join(states, " ") != "done work" || w.Ref() != "w/1" || len(w.Transitions) != 1 {
		t.Fatalf("workflow = %s, states %v, %d transitions", w.Ref(), states, len(w.Transitions))
	}
	done := w.State("done").Requires
	if e := done.Evidence[0]; e.Kind != "test_result" || e.AtLeast != 2 || e.Horizon != 30 || !e.Independent || e.Verifier != "test-runner" {
		t.Errorf("evidence = %+v", e)
	}
	if a := done.Artifacts[0]; a.Kind != "specification" || a.Status != "approved" || a.Relation == nil || a.Relation.Kind != "specifies" || !a.Relation.TargetTask || !a.Fresh {
		t.Errorf("artifact = %+v (relation %+v)", a, a.Relation)
	}
	if r := done.Reviews[0]; r.SubjectKind != "design" || !r.Human || r.Result != "approved" {
		t.Errorf("review = %+v", r)
	}
	if len(done.Conditional) != 2 || done.Conditional[1].Require.Evidence[0].Kind != "diff" || len(done.Advisory) != 1 || done.Advisory[0].Owner != "qa" {
		t.Errorf("conditional = %+v, advisory = %+v", done.Conditional, done.Advisory)
	}
	guard := docs.Principles[0]
	if len(guard.Verification) != 1 || guard.Verification[0].Claim != "speed" || guard.AppliesWhen == nil {
		t.Errorf("principle = %+v", guard)
	}
	var profiles []string
	for _, p := range docs.Profiles {
		profiles = append(profiles, p.ID+":"+p.Extends+":"+strings.Join(p.Principles, ","))
	}
	if strings.Join(profiles, " ") != "p.child:p.base: p.base::guard" {
		t.Errorf("profiles = %v", profiles)
	}
	if p := docs.Profiles[0]; p.Completion != nil || p.Pos.Line != 1 {
		t.Errorf("child profile: completion %+v, pos %v", p.Completion, p.Pos)
	}
}

// TestObligationIDs: timed `requires` keys in key order, the gathered set
// last, then explicit obligations; repeats are numbered.
func TestObligationIDs(t *testing.T) {
	root := writeTree(t, map[string]string{"principles/p.yaml": `id: p
title: P
requires:
  always: [task.id]
  before_review: [task.kind]
  during: {state: a.b}
  task.objective: x
obligations:
  - {id: always, always: true, requires: [task.id]}
  - {id: extra, before: {phase: review}, requires: [task.id]}
`})
	docs, diags := LoadDocuments(root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, o := range docs.Principles[0].Obligations {
		got = append(got, o.ID+"@"+o.Timing.Slug())
	}
	want := "p/always@always p/before-review@before-review p/during-a-b@during-a-b p/always-2@always p/extra@before-review"
	if strings.Join(got, " ") != want {
		t.Errorf("obligations:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}
