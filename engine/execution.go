package engine

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// Entry is one evidence log entry: the record and the state it arrived in.
type Entry struct {
	State  string
	Record evidence.Record
}

// Execution is one run of a plan (engine.md §1.4). Change it only through
// its methods, which keep the facts current: the log is append-only, so
// Submit folds in only the records it appends and EnterState only rebinds
// the derived facts; NewExecution and Restore build the store in one pass.
type Execution struct {
	ID       string
	Plan     *Plan
	State    string
	Entered  []string
	Evidence []Entry
	Graph    *artifact.Graph
	Events   []any
	NextSeq  uint64
	Actor    string
	Now      time.Time

	facts  predicate.MapFacts
	lapsed []bool
	store  *factStore
}

// NewExecution initialises an execution of plan at its workflow's initial
// state with no evidence; graph may be nil (empty); now is the clock.
func NewExecution(plan *Plan, graph *artifact.Graph, now time.Time) *Execution {
	e := &Execution{
		ID:      plan.Task.ID + ".1",
		Plan:    plan,
		State:   plan.Workflow.Initial,
		Entered: []string{plan.Workflow.Initial},
		Graph:   graph,
		NextSeq: 1,
		Actor:   "system",
		Now:     now,
	}
	e.rebuild()
	return e
}

// EnterState moves the execution to s without evaluating anything.
func (e *Execution) EnterState(s string) {
	e.State = s
	e.Entered = append(e.Entered, s)
	e.refresh()
}

// Submit appends records to the evidence log, arriving in the current
// state; each gets id `<execution>.evidence.<k>` and produced_at = now.
func (e *Execution) Submit(recs ...evidence.Record) {
	for _, r := range recs {
		r.ID = e.ID + ".evidence." + itoa(len(e.Evidence)+1)
		r.ProducedAt = e.Now.UnixMilli()
		e.Evidence = append(e.Evidence, Entry{State: e.State, Record: r})
	}
	e.refresh()
}

// Clone returns an independent copy (for transition on a throwaway copy).
func (e *Execution) Clone() *Execution {
	c := *e
	c.Entered = slices.Clone(e.Entered)
	c.Evidence = slices.Clone(e.Evidence)
	c.Events = slices.Clone(e.Events)
	c.facts = maps.Clone(e.facts)
	c.lapsed = slices.Clone(e.lapsed)
	c.store = e.store.clone()
	return &c
}

// Facts returns the current fact store (derived facts included). It must
// not be modified.
func (e *Execution) Facts() predicate.MapFacts { return e.facts }

// Lapsed reports whether log entry i is lapsed (engine.md §4.4).
func (e *Execution) Lapsed(i int) bool { return e.lapsed[i] }

// rebuild builds the fact store from scratch in the order of engine.md
// §2.2: plan facts, planning-store facts, then each record's projection in
// log order (a lapsed record projects nothing), then the derived facts.
func (e *Execution) rebuild() {
	st := newFactStore(e)
	for _, b := range e.Plan.Facts {
		st.observed[b.Path] = b.Value
	}
	for _, b := range e.Graph.Facts() {
		st.observed[b.Path] = b.Value
	}
	e.store = st
	e.facts = maps.Clone(st.observed)
	e.lapsed = make([]bool, 0, len(e.Evidence))
	e.fold()
	e.derive()
}

// refresh brings the fact store up to date after the log grew or the state
// changed: only the new records are folded in, then the derived facts are
// bound again. The result is the store rebuild would build. A clock moved
// since the last build changes which records lapse, and a log that did not
// only grow is not the one folded (nor is a list of entered states that
// shrank): both rebuild.
func (e *Execution) refresh() {
	if e.store == nil || !e.store.now.Equal(e.Now) || e.store.applied > len(e.Evidence) || e.store.enteredApplied > len(e.Entered) {
		e.rebuild()
		return
	}
	e.fold()
	e.derive()
}

// fold projects the log entries not yet folded into the store, in order.
func (e *Execution) fold() {
	st := e.store
	for i := st.applied; i < len(e.Evidence); i++ {
		rec := &e.Evidence[i].Record
		kind := rec.Kind()
		h, ok := e.Plan.horizons[kind]
		lapsed := ok && !covers(h, rec.ObservedAt, e.Now)
		e.lapsed = append(e.lapsed, lapsed)
		if !lapsed {
			rec.Project(func(p string, v predicate.Value) {
				st.observed[p] = v
				if !st.entered[p] {
					// A derived fact stays on top; derive rebinds the
					// others after the fold.
					e.facts[p] = v
				}
			})
		}
		st.tally(i, rec, lapsed)
	}
	st.applied = len(e.Evidence)
}

// covers reports whether a horizon of h days covers an observation.
func covers(h int, observed int64, now time.Time) bool {
	return now.UnixMilli()-observed <= int64(h)*86_400_000
}

// derive binds the engine-derived facts (engine.md §2.6) over the
// observed ones. A path derived before and not now gets its observed value
// back (or goes), so the store is the observed facts with exactly this
// derivation on top. The `state.<id>.entered` facts are kept apart
// (st.entered): they never stop being derived, and no other derived path
// has their shape (`state.` … `.entered`).
func (e *Execution) derive() {
	st := e.store
	// The entered states only grow: each is bound once, when it is first
	// seen, so entering the n-th state costs one fact, not n (issue 13).
	for _, s := range e.Entered[st.enteredApplied:] {
		p := "state." + StateSegments(s) + ".entered"
		if !st.entered[p] {
			st.entered[p] = true
			e.facts[p] = predicate.Bool(true)
		}
	}
	st.enteredApplied = len(e.Entered)
	now := map[string]predicate.Value{}
	now["state.current"] = predicate.Text(e.State)
	if ws := e.Plan.Workflow.States[e.State]; ws != nil {
		now["workflow.terminal"] = predicate.Bool(ws.Terminal)
	}
	for k, n := range st.count {
		now["evidence.first_seq."+k] = predicate.Number(float64(st.first[k]))
		now["evidence.last_seq."+k] = predicate.Number(float64(st.last[k]))
		now["evidence.count."+k] = predicate.Number(float64(n))
	}
	if st.firstTest != "" {
		now["test.first_result"] = predicate.Text(st.firstTest)
	}
	now["approvals.granted"] = predicate.Number(float64(st.granted))
	now["evidence.lapsed"] = predicate.Number(float64(st.lapsedCount))
	missing := float64(st.missing(st.observed, e.Plan.Scales))
	now["evidence.missing"] = predicate.Number(missing)
	now["required_evidence.missing"] = predicate.Number(missing)
	for p := range st.derived {
		if _, still := now[p]; still {
			continue
		}
		if v, ok := st.observed[p]; ok {
			e.facts[p] = v
		} else {
			delete(e.facts, p)
		}
	}
	for p, v := range now {
		e.facts[p] = v
	}
	st.derived = now
}

// StateSegments returns state id as its `state.<segments>.entered` fact
// spells it (engine.md §2.6): the id's components, split at `.` and `/`,
// joined by `.`.
func StateSegments(id string) string {
	return strings.Join(strings.FieldsFunc(id, func(c rune) bool { return c == '.' || c == '/' }), ".")
}

// matchEvidence counts the records matching r within r's own horizon, and
// returns the latest matching record that only that horizon excluded.
func (e *Execution) matchEvidence(r workflow.EvidenceReq) (int, *evidence.Record) {
	n := 0
	var stale *evidence.Record
	for i := range e.Evidence {
		rec := &e.Evidence[i].Record
		if !recordMatches(r, rec) {
			continue
		}
		if r.HorizonDays > 0 && !covers(int(r.HorizonDays), rec.ObservedAt, e.Now) {
			if stale == nil || rec.ObservedAt >= stale.ObservedAt {
				stale = rec
			}
			continue
		}
		n++
	}
	return n, stale
}

// recordMatches applies engine.md §4.4 rules 1–4.
func recordMatches(r workflow.EvidenceReq, rec *evidence.Record) bool {
	if rec.Kind() != r.Kind || rec.Kind() == "ess_conformance_v2" {
		return false
	}
	if r.Subject != "" && rec.Subject != r.Subject {
		return false
	}
	if r.Independent && rec.Producer.Class == "agent" {
		return false
	}
	if r.Verifier != "" && !producedBy(rec, r.Verifier) {
		return false
	}
	return true
}

// producedBy reports whether rec was produced by verifier v: the producer
// is that verifier, or v is an external tool named in the provenance.
func producedBy(rec *evidence.Record, v string) bool {
	if rec.Producer.Class == "verifier" && rec.Producer.Name == v {
		return true
	}
	return !isNamedVerifier(v) && rec.Provenance != nil && rec.Provenance.Tool == v
}
