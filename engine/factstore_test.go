package engine

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/testshared"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// randomRecord is a record of one of the kinds the derived facts and the
// evidence requirements look at, observed recently or long enough ago to
// fall outside a 30-day horizon, from a verifier, an agent or a person.
func randomRecord(r *rand.Rand) evidence.Record {
	producers := []evidence.Producer{
		{Class: "verifier", Name: "test-runner"}, {Class: "agent", Name: "coder"}, {Class: "human", Name: "ann"},
	}
	ages := []int64{3_600_000, 40 * 86_400_000, 400 * 86_400_000}
	rec := evidence.Record{
		ObservedAt: testNow.UnixMilli() - ages[r.IntN(len(ages))],
		Producer:   producers[r.IntN(len(producers))],
	}
	switch r.IntN(5) {
	case 0, 1:
		kind := []string{"test_result", "test_execution"}[r.IntN(2)]
		rec.Value = evidence.Payload{Kind: kind, Fields: map[string]any{
			"suite": fmt.Sprintf("s%d", r.IntN(3)), "passed": float64(r.IntN(3)), "failed": float64(r.IntN(2)), "skipped": 0.0}}
	case 2:
		rec.Value = evidence.Payload{Kind: "approval", Fields: map[string]any{
			"approval": "ship", "approver": "ann", "decision": []string{"granted", "denied"}[r.IntN(2)]}}
	case 3:
		rec.Value = evidence.Payload{Kind: "static_analysis", Fields: map[string]any{"errors": float64(r.IntN(3)), "warnings": 1.0}}
	default:
		rec.Value = evidence.Payload{Kind: "diff", Fields: map[string]any{"files_changed": float64(r.IntN(9))}}
	}
	return rec
}

// rebuilt is e's fact store built from scratch, as NewExecution and
// Restore build it.
func rebuilt(e *Execution) *Execution {
	c := e.Clone()
	c.store = nil
	c.rebuild()
	return c
}

// referenceFacts is the fact store as the engine first built it, on every
// call, from the whole log (engine.md §2.2, §2.6): kept verbatim as the
// reference both the one-pass build and the incremental one are held to.
func referenceFacts(e *Execution) (predicate.MapFacts, []bool) {
	f := predicate.MapFacts{}
	for _, b := range e.Plan.Facts {
		f[b.Path] = b.Value
	}
	for _, b := range e.Graph.Facts() {
		f[b.Path] = b.Value
	}
	lapsedAt := make([]bool, len(e.Evidence))
	for i, en := range e.Evidence {
		if h, ok := e.Plan.horizons[en.Record.Kind()]; ok && !covers(h, en.Record.ObservedAt, e.Now) {
			lapsedAt[i] = true
			continue
		}
		en.Record.Project(func(p string, v predicate.Value) { f[p] = v })
	}
	observed := maps.Clone(f)
	f["state.current"] = predicate.Text(e.State)
	for _, s := range e.Entered {
		f["state."+StateSegments(s)+".entered"] = predicate.Bool(true)
	}
	if st := e.Plan.Workflow.States[e.State]; st != nil {
		f["workflow.terminal"] = predicate.Bool(st.Terminal)
	}
	count := map[string]int{}
	granted, lapsed := 0, 0
	firstTest := ""
	for i, en := range e.Evidence {
		k := en.Record.Kind()
		count[k]++
		if count[k] == 1 {
			f["evidence.first_seq."+k] = predicate.Number(float64(i + 1))
		}
		f["evidence.last_seq."+k] = predicate.Number(float64(i + 1))
		if k == "test_result" && firstTest == "" {
			firstTest = evidence.TestOutcome(en.Record.Value)
		}
		if lapsedAt[i] {
			lapsed++
		} else if k == "approval" && en.Record.Value.Str("decision") == "granted" {
			granted++
		}
	}
	for k, n := range count {
		f["evidence.count."+k] = predicate.Number(float64(n))
	}
	if firstTest != "" {
		f["test.first_result"] = predicate.Text(firstTest)
	}
	f["approvals.granted"] = predicate.Number(float64(granted))
	f["evidence.lapsed"] = predicate.Number(float64(lapsed))
	met := func(r workflow.EvidenceReq) bool {
		n := 0
		for i := range e.Evidence {
			rec := &e.Evidence[i].Record
			if recordMatches(r, rec) && (r.HorizonDays == 0 || covers(int(r.HorizonDays), rec.ObservedAt, e.Now)) {
				n++
			}
		}
		return n >= int(r.AtLeast)
	}
	missing := 0
	countSet := func(s *workflow.RequirementSet) {
		if s == nil {
			return
		}
		for _, r := range s.Evidence {
			if !met(r) {
				missing++
			}
		}
		for i := range s.Conditional {
			c := &s.Conditional[i]
			if predicate.Eval(c.When, observed, e.Plan.Scales) == predicate.False {
				continue
			}
			for _, r := range c.Require.Evidence {
				if !met(r) {
					missing++
				}
			}
		}
	}
	for _, o := range e.Plan.Obligations {
		countSet(o.Requires)
	}
	countSet(&e.Plan.Completion)
	for _, p := range e.Plan.InForce {
		countSet(&workflow.RequirementSet{Evidence: p.Evidence})
	}
	f["evidence.missing"] = predicate.Number(float64(missing))
	f["required_evidence.missing"] = predicate.Number(float64(missing))
	return f, lapsedAt
}

// TestFactsIncrementalAsRebuilt drives executions with random submissions
// (one record at a time and in batches) and state changes: after every
// step the store kept up to date incrementally is the one a full rebuild
// makes, fact for fact, lapse for lapse.
func TestFactsIncrementalAsRebuilt(t *testing.T) {
	plans := map[string]*Plan{"mini": miniPlan(t, miniTask)}
	if _, err := testshared.Find(); err == nil {
		plans["corpus"] = corpusPlan(t)
	}
	r := rand.New(rand.NewPCG(13, 13))
	for name, plan := range plans {
		states := []string{"not-a-state"} // an undeclared state derives no workflow.terminal
		states = append(states, plan.Workflow.StateIDs()...)
		for trial := range 25 {
			e := NewExecution(plan, nil, testNow)
			for step := range 30 {
				if r.IntN(4) == 0 {
					e.EnterState(states[r.IntN(len(states))])
				} else {
					recs := make([]evidence.Record, r.IntN(4))
					for i := range recs {
						recs[i] = randomRecord(r)
					}
					e.Submit(recs...)
				}
				refFacts, refLapsed := referenceFacts(e)
				for how, got := range map[string]*Execution{"incremental": e, "rebuilt": rebuilt(e)} {
					if !maps.Equal(got.Facts(), refFacts) {
						t.Fatalf("%s trial %d step %d: %s facts differ from the reference:\n%s", name, trial, step, how, factDiff(got.Facts(), refFacts))
					}
					if !slices.Equal(got.lapsed, refLapsed) {
						t.Fatalf("%s trial %d step %d: %s lapsed %v, reference %v", name, trial, step, how, got.lapsed, refLapsed)
					}
				}
			}
		}
	}
}

// TestFactsClockMoved: a clock moved between calls changes which records
// lapse; the store follows it.
func TestFactsClockMoved(t *testing.T) {
	plan := miniPlan(t, miniTask)
	e := NewExecution(plan, nil, testNow)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		e.Submit(randomRecord(r))
	}
	e.Now = testNow.AddDate(1, 0, 0)
	e.Submit(randomRecord(r))
	if facts, lapsed := referenceFacts(e); !maps.Equal(e.Facts(), facts) || !slices.Equal(e.lapsed, lapsed) {
		t.Fatalf("after the clock moved:\n%s", factDiff(e.Facts(), facts))
	}
}

// factDiff lists the paths whose values differ.
func factDiff(got, want predicate.MapFacts) string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(got)) {
		if w, ok := want[p]; !ok || w != got[p] {
			out = append(out, fmt.Sprintf("%s = %v, rebuild %v (present %v)", p, got[p], w, ok))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[p]; !ok {
			out = append(out, fmt.Sprintf("%s missing, rebuild %v", p, want[p]))
		}
	}
	return strings.Join(out, "\n")
}
