package engine

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// picture is everything an execution's methods can change, copied so
// that a later change to the execution does not show in it.
type picture struct {
	snapshot []byte
	facts    predicate.MapFacts
	lapsed   []bool
}

func pictureOf(e *Execution) picture {
	return picture{e.Snapshot().Encode(), maps.Clone(e.Facts()), slices.Clone(e.lapsed)}
}

// differs reports how e differs from p, or "".
func (p picture) differs(e *Execution) string {
	switch now := pictureOf(e); {
	case !bytes.Equal(p.snapshot, now.snapshot):
		return fmt.Sprintf("snapshot\n was %s\n now %s", p.snapshot, now.snapshot)
	case !maps.Equal(p.facts, now.facts):
		return "facts:\n" + factDiff(now.facts, p.facts)
	case !slices.Equal(p.lapsed, now.lapsed):
		return fmt.Sprintf("lapsed was %v, now %v", p.lapsed, now.lapsed)
	}
	return ""
}

// randomWalk drives e with n random steps: submissions (one record or a
// batch) and state changes.
func randomWalk(r *rand.Rand, e *Execution, n int) {
	states := e.Plan.Workflow.StateIDs()
	for range n {
		if r.IntN(3) == 0 {
			e.EnterState(states[r.IntN(len(states))])
			continue
		}
		recs := make([]evidence.Record, 1+r.IntN(3))
		for i := range recs {
			recs[i] = randomRecord(r)
		}
		e.Submit(recs...)
	}
}

// TestNextLeavesTheExecution: Next answers what Transition answers, and
// leaves the execution exactly as it was (its snapshot, its facts, its
// lapses); Transition then enters the target Next named.
func TestNextLeavesTheExecution(t *testing.T) {
	plans := []*Plan{miniPlan(t, miniTask), chainPlan(t, 4)}
	r := rand.New(rand.NewPCG(7, 13))
	moved := 0
	for trial := range 60 {
		e := NewExecution(plans[trial%2], nil, testNow)
		randomWalk(r, e, r.IntN(12))
		before := pictureOf(e)
		got, err := e.Next()
		if err != nil {
			t.Fatal(err)
		}
		if d := before.differs(e); d != "" {
			t.Fatalf("trial %d: Next changed the execution: %s", trial, d)
		}
		moving := e.Clone()
		want, err := moving.Transition()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: Next answered %+v, Transition %+v", trial, got, want)
		}
		if d := before.differs(e); d != "" {
			t.Fatalf("trial %d: Transition on a clone changed the execution: %s", trial, d)
		}
		if got.Kind == Moved {
			moved++
			if moving.State != got.To {
				t.Fatalf("trial %d: Transition moved to %s, Next named %s", trial, moving.State, got.To)
			}
			e.EnterState(got.To)
			if d := pictureOf(moving).differs(e); d != "" {
				t.Fatalf("trial %d: entering what Next named is not Transition: %s", trial, d)
			}
		}
	}
	if moved == 0 {
		t.Fatal("no trial moved: the test checks nothing of a move")
	}
}

// TestCloneIsIndependent: a clone and its original share nothing that a
// method changes: submitting, entering a state or moving the clock on
// either never shows in the other, however often either is cloned again.
func TestCloneIsIndependent(t *testing.T) {
	plan := miniPlan(t, miniTask)
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 30 {
		e := NewExecution(plan, nil, testNow)
		randomWalk(r, e, r.IntN(10))
		c := e.Clone()
		if d := pictureOf(e).differs(c); d != "" {
			t.Fatalf("trial %d: a fresh clone differs from its original: %s", trial, d)
		}
		// Change one, then the other, a few times each.
		for step := range 6 {
			changed, kept := c, e
			if step%2 == 1 {
				changed, kept = e, c
			}
			before := pictureOf(kept)
			if step == 4 {
				changed.Now = changed.Now.AddDate(1, 0, 0)
			}
			randomWalk(r, changed, 1+r.IntN(4))
			if d := before.differs(kept); d != "" {
				t.Fatalf("trial %d step %d: changing one execution changed the other: %s", trial, step, d)
			}
			if step == 2 {
				c = c.Clone() // a clone of a clone is as independent
			}
		}
	}
}

// chainPlan is the bare plan of a chain of n states, each move guarded by
// diff.exists.
func chainPlan(tb testing.TB, n int) *Plan {
	var b strings.Builder
	b.WriteString("id: bench/walk\nversion: 1\ntitle: Walk\ninitial: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  s%d: {title: S}\n", i)
	}
	b.WriteString("  done: {title: Done, terminal: true}\ntransitions:\n")
	for i := range n {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		fmt.Fprintf(&b, "  - {from: s%d, to: %s, when: diff.exists}\n", i, next)
	}
	w, ds := workflow.Load("walk.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		tb.Fatal(ds)
	}
	return BarePlan(w, nil, nil)
}

// walkChain moves an execution of plan to its end, one record submitted
// on every entry, asking Next and entering as a simulation does.
func walkChain(tb testing.TB, plan *Plan) *Execution {
	e := NewExecution(plan, nil, testNow)
	diff := evidence.Record{ObservedAt: testNow.UnixMilli(), Producer: evidence.Producer{Class: "verifier", Name: "compiler"},
		Value: evidence.Payload{Kind: "diff", Fields: map[string]any{"files_changed": 1.0}}}
	for {
		e.Submit(diff)
		r, err := e.Next()
		if err != nil {
			tb.Fatal(err)
		}
		if r.Kind != Moved {
			if r.Kind != Completed {
				tb.Fatalf("the walk ended %+v", r)
			}
			return e
		}
		e.EnterState(r.To)
	}
}

// TestWalkAllocationsGrowLinearly: ten times the moves (and records) cost
// at most twelve times the allocations. A walk that copied the execution,
// or rebound every entered state, on each move grew by a hundred.
func TestWalkAllocationsGrowLinearly(t *testing.T) {
	small, large := chainPlan(t, 100), chainPlan(t, 1000)
	if e := walkChain(t, large); len(e.Entered) != 1001 || len(e.Evidence) != 1001 {
		t.Fatalf("the walk entered %d states and logged %d records, want 1001 of each", len(e.Entered), len(e.Evidence))
	}
	a := testing.AllocsPerRun(3, func() { walkChain(t, small) })
	b := testing.AllocsPerRun(3, func() { walkChain(t, large) })
	t.Logf("100 moves: %.0f allocations; 1,000 moves: %.0f (%.1f×)", a, b, b/a)
	if b > 12*a {
		t.Errorf("100 moves: %.0f allocations; 1,000 moves: %.0f (%.1f×, want ≤ 12×)", a, b, b/a)
	}
}
