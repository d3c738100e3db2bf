package engine

import (
	"maps"
	"slices"
	"time"

	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// factStore is what an execution's fact store is built from, kept between
// calls so that appending records costs only those records: the observed
// facts (plan, planning store, projections), the tallies the derived facts
// read (engine.md §2.6), and, per evidence requirement that
// `evidence.missing` counts, how many records match it. Rebuilding all of
// it for every Submit made submitting N records one at a time cost N²
// (issue 13).
type factStore struct {
	now      time.Time                  // the clock lapses and horizons were judged at
	applied  int                        // log entries folded in
	observed predicate.MapFacts         // the store before the derived facts
	derived  map[string]predicate.Value // the derived facts but the entered ones

	// entered holds the `state.<id>.entered` paths bound, from the first
	// enteredApplied states of the execution's Entered.
	entered        map[string]bool
	enteredApplied int

	count       map[string]int // records per kind
	first, last map[string]int // 1-based position of the first and last record of each kind
	firstTest   string         // outcome of the first test_result that has one
	granted     int            // granted approvals, lapsed ones excepted
	lapsedCount int

	// items are the evidence requirements of every obligation, the
	// completion set and each in-force principle's evidence list, in that
	// order; direct are counted always, conditional only when their `when`
	// is not False against the observed facts (one level).
	items       []evidenceItem
	direct      []int
	conditional []conditionalItems
}

// evidenceItem is one evidence requirement and the records that meet it
// within its own horizon.
type evidenceItem struct {
	req     workflow.EvidenceReq
	matched int
}

// conditionalItems are the evidence requirements of one conditional.
type conditionalItems struct {
	when  predicate.Predicate
	items []int
}

// newFactStore makes the empty store of e's plan at e's clock.
func newFactStore(e *Execution) *factStore {
	st := &factStore{
		now: e.Now, observed: predicate.MapFacts{}, entered: map[string]bool{},
		count: map[string]int{}, first: map[string]int{}, last: map[string]int{},
	}
	add := func(r workflow.EvidenceReq) int {
		st.items = append(st.items, evidenceItem{req: r})
		return len(st.items) - 1
	}
	addSet := func(s *workflow.RequirementSet) {
		if s == nil {
			return
		}
		for _, r := range s.Evidence {
			st.direct = append(st.direct, add(r))
		}
		for i := range s.Conditional {
			c := &s.Conditional[i]
			ci := conditionalItems{when: c.When}
			for _, r := range c.Require.Evidence {
				ci.items = append(ci.items, add(r))
			}
			st.conditional = append(st.conditional, ci)
		}
	}
	for _, o := range e.Plan.Obligations {
		addSet(o.Requires)
	}
	addSet(&e.Plan.Completion)
	for _, p := range e.Plan.InForce {
		addSet(&workflow.RequirementSet{Evidence: p.Evidence})
	}
	return st
}

// tally counts log entry i (record rec, lapsed or not) into the tallies
// and into every evidence requirement it meets.
func (st *factStore) tally(i int, rec *evidence.Record, lapsed bool) {
	k := rec.Kind()
	st.count[k]++
	if st.count[k] == 1 {
		st.first[k] = i + 1
	}
	st.last[k] = i + 1
	if k == "test_result" && st.firstTest == "" {
		st.firstTest = evidence.TestOutcome(rec.Value)
	}
	if lapsed {
		st.lapsedCount++
	} else if k == "approval" && rec.Value.Str("decision") == "granted" {
		st.granted++
	}
	for j := range st.items {
		r := &st.items[j].req
		if recordMatches(*r, rec) && (r.HorizonDays <= 0 || covers(int(r.HorizonDays), rec.ObservedAt, st.now)) {
			st.items[j].matched++
		}
	}
}

// missing counts the unmet evidence items: the direct ones, and those of
// each conditional whose `when` is not False against observed.
func (st *factStore) missing(observed predicate.MapFacts, scales predicate.Scales) int {
	n := 0
	unmet := func(j int) bool { return st.items[j].matched < int(st.items[j].req.AtLeast) }
	for _, j := range st.direct {
		if unmet(j) {
			n++
		}
	}
	for _, c := range st.conditional {
		if predicate.Eval(c.when, observed, scales) == predicate.False {
			continue
		}
		for _, j := range c.items {
			if unmet(j) {
				n++
			}
		}
	}
	return n
}

// clone returns an independent copy (nil for nil).
func (st *factStore) clone() *factStore {
	if st == nil {
		return nil
	}
	c := *st
	c.observed = maps.Clone(st.observed)
	c.derived = maps.Clone(st.derived)
	c.entered = maps.Clone(st.entered)
	c.count, c.first, c.last = maps.Clone(st.count), maps.Clone(st.first), maps.Clone(st.last)
	c.items = slices.Clone(st.items)
	return &c
}
