package analysis

import (
	"math/rand/v2"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// genWorkflow builds a workflow with one source state `s` and three
// transitions to terminal states, each with a generated guard and a
// generated predicate in its `requires`.
func genWorkflow(r *rand.Rand) (*tree.Tree, *workflow.Workflow) {
	w := &workflow.Workflow{ID: "sound/w", Version: 1, Initial: "s", File: "w.yaml",
		States: map[string]*workflow.State{"s": {ID: "s"}}}
	for i, to := range []string{"a", "b", "c"} {
		w.States[to] = &workflow.State{ID: to, Terminal: true}
		t := &workflow.Transition{Index: i, From: "s", To: to, When: genPred(r, 2), Pos: diag.Pos{Line: i + 1, Column: 1}}
		if r.IntN(2) == 0 {
			t.Requires.Predicates = []predicate.Predicate{genPred(r, 1)}
		}
		w.Transitions = append(w.Transitions, t)
	}
	return &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}, w
}

// world draws a store in state `s` (its context fixed).
func contextWorld(r *rand.Rand, a *analyzer) predicate.MapFacts {
	w := nfWorld(r, a)
	w["state.current"] = predicate.Text("s")
	w["state.s.entered"] = predicate.Bool(true)
	w["workflow.terminal"] = predicate.Bool(false)
	return w
}

func allTrue(w predicate.MapFacts, ps ...predicate.Predicate) bool {
	for _, p := range ps {
		if predicate.Eval(p, w, nil) != predicate.True {
			return false
		}
	}
	return true
}

// TestFindingsSound is §11.2: for every impossibility or certainty claimed
// on generated workflows, 1,000 sampled worlds hold no counterexample the
// engine's evaluator finds.
func TestFindingsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	claims := 0
	for range 50 {
		tr, w := genWorkflow(r)
		a := nfAnalyzer()
		for _, d := range Analyze(tr, w, Options{Now: fixedNow}) {
			var tj *workflow.Transition
			for _, x := range w.Transitions {
				if x.Pos.Line == d.Pos.Line {
					tj = x
				}
			}
			if tj == nil {
				continue
			}
			lj := append([]predicate.Predicate{tj.When}, tj.Requires.Predicates...)
			check := func(bad func(predicate.MapFacts) bool) {
				claims++
				for range 1000 {
					if wd := contextWorld(r, a); bad(wd) {
						t.Fatalf("%s: counterexample %v\n%v", d.Error(), wd, lj)
					}
				}
			}
			switch d.Code {
			case CodeNeverHolds:
				check(func(wd predicate.MapFacts) bool { return allTrue(wd, tj.When) })
			case CodeAlwaysHolds:
				check(func(wd predicate.MapFacts) bool { return !allTrue(wd, tj.When) })
			case CodeNeverPermitted:
				check(func(wd predicate.MapFacts) bool { return allTrue(wd, lj...) })
			case CodeShadowed:
				ti := w.Transitions[d.Related[0].Pos.Line-1]
				li := append([]predicate.Predicate{ti.When}, ti.Requires.Predicates...)
				check(func(wd predicate.MapFacts) bool { return allTrue(wd, lj...) && !allTrue(wd, li...) })
			}
		}
	}
	if claims < 10 {
		t.Fatalf("only %d claims were made on the generated workflows", claims)
	}
}
