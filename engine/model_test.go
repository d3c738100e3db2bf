package engine

import (
	"strings"
	"testing"

	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
)

// TestMiniTreeIsEvaluatedAsLoaded: the engine evaluates the tree's own
// documents, and adds only its derived views: the artifact kind `spec`
// read as `specification` (with its relation target and the review's
// subject kind), the merged profile, the resolved plan.
func TestMiniTreeIsEvaluatedAsLoaded(t *testing.T) {
	tr, diags := LoadTree("testdata/mini")
	if len(diags) != 0 {
		t.Fatalf("mini tree: %v", diags)
	}
	task, diags := ReadTask("task.yaml", []byte(miniTask))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	plan, diags := Resolve(tr, task)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if plan.Workflow != tr.Workflows["w"] {
		t.Fatalf("plan workflow %s is not the tree's", plan.Workflow.File)
	}
	w := plan.Workflow
	if got := strings.Join(w.StateIDs(), " "); got != "done work" || w.Ref().String() != "w/1" || len(w.Transitions) != 1 {
		t.Fatalf("workflow = %s, states %v, %d transitions", w.Ref(), got, len(w.Transitions))
	}
	done := w.States["done"].Requires
	if e := done.Evidence[0]; e.Kind != "test_result" || e.AtLeast != 2 || e.HorizonDays != 30 || !e.Independent || e.Verifier != "test-runner" {
		t.Errorf("evidence = %+v", e)
	}
	a := done.Artifacts[0]
	if a.Kind != "spec" {
		t.Errorf("the document's artifact kind = %q, want `spec` as written", a.Kind)
	}
	if c := canonicalArtifact(a); c.Kind != "specification" || c.Status != "approved" || c.Relation == nil || c.Relation.Kind != "specifies" || c.Relation.Target != "task" || !c.Fresh {
		t.Errorf("canonical artifact = %+v (relation %+v)", c, c.Relation)
	}
	if r := done.Reviews[0]; r.SubjectKind != "design" || !r.Human || r.Result != "approved" {
		t.Errorf("review = %+v", r)
	}
	if len(done.Conditional) != 2 || done.Conditional[1].Require.Evidence[0].Kind != "diff" || len(done.Advisory) != 1 || done.Advisory[0].Owner != "qa" {
		t.Errorf("conditional = %+v, advisory = %+v", done.Conditional, done.Advisory)
	}
	if len(plan.InForce) != 1 || plan.InForce[0] != tr.Principles["guard"] {
		t.Errorf("in force = %v, want the tree's `guard`", plan.InForce)
	}
	if g := plan.InForce[0]; len(g.Verification) != 1 || g.Verification[0].Claim != "speed" || g.AppliesWhen != nil {
		t.Errorf("principle = %+v", g)
	}
	if p := plan.Profile; p.ID != "p.child" || strings.Join(p.Principles, ",") != "guard" || p.Workflow == nil || p.Workflow.String() != "w" || !p.Completion.IsEmpty() {
		t.Errorf("merged profile = %+v", p)
	}
	if p := tr.Profiles["p.child"]; p.Extends != "p.base" || p.Pos.Line != 1 {
		t.Errorf("child profile: extends %q, pos %v", p.Extends, p.Pos)
	}
}

// TestCanonicalArtifactKeepsTheDocument: reading kinds through their
// aliases never changes the document the item came from.
func TestCanonicalArtifactKeepsTheDocument(t *testing.T) {
	rel := &workflow.RelationReq{Kind: "specifies", TargetKind: "adr"}
	doc := workflow.ArtifactReq{Kind: "spec", AtLeast: 1, Relation: rel}
	c := canonicalArtifact(doc)
	if c.Kind != "specification" || c.Relation.TargetKind == "adr" {
		t.Errorf("canonical = %+v (relation %+v)", c, c.Relation)
	}
	if doc.Kind != "spec" || rel.TargetKind != "adr" || doc.Relation != rel {
		t.Errorf("the document changed: %+v (relation %+v)", doc, doc.Relation)
	}
	if got, want := reqtext.Artifact(c), "artifact specification which specifies a "+c.Relation.TargetKind; got != want {
		t.Errorf("line = %q, want %q", got, want)
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
	tr, diags := LoadTree(root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := tr.Principles["p"]
	var got []string
	for _, o := range Obligations(p) {
		if o.Principle != p {
			t.Errorf("obligation %s names principle %v", o.ID, o.Principle)
		}
		got = append(got, o.ID+"@"+o.Timing.String())
	}
	want := "p/always@always p/before-review@before review p/during-a-b@during state a.b p/always-2@always p/extra@before review"
	if strings.Join(got, " ") != want {
		t.Errorf("obligations:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	obs := Obligations(p)
	if obs[0].Requires != &p.Requires[0].Set || obs[3].Requires != &p.Obligations[0].Set {
		t.Error("an obligation's set is not the principle's own")
	}
}

// TestObligationTiming: AppliesIn and BlocksEntryTo answer by kind and
// target, a phase target matching any state that declares the phase.
func TestObligationTiming(t *testing.T) {
	review := &workflow.State{ID: "review", Phases: []string{"review"}}
	other := &workflow.State{ID: "other"}
	for _, c := range []struct {
		timing          protocol.Timing
		in, inOther     bool
		entry, entryOth bool
	}{
		{protocol.Timing{Kind: protocol.Always}, true, true, false, false},
		{protocol.Timing{Kind: protocol.Before, Phase: "review"}, false, false, true, false},
		{protocol.Timing{Kind: protocol.During, Phase: "review"}, true, false, false, false},
		{protocol.Timing{Kind: protocol.Before, State: "other"}, false, false, false, true},
		{protocol.Timing{Kind: protocol.During, State: "other"}, false, true, false, false},
	} {
		o := &Obligation{Timing: c.timing}
		if o.AppliesIn(review) != c.in || o.AppliesIn(other) != c.inOther || o.BlocksEntryTo(review) != c.entry || o.BlocksEntryTo(other) != c.entryOth {
			t.Errorf("%s: in %v/%v, entry %v/%v; want %v/%v, %v/%v", c.timing, o.AppliesIn(review), o.AppliesIn(other),
				o.BlocksEntryTo(review), o.BlocksEntryTo(other), c.in, c.inOther, c.entry, c.entryOth)
		}
	}
}
