package engine

import (
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
// its methods, which rebuild the facts.
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
	e.rebuild()
}

// Submit appends records to the evidence log, arriving in the current
// state; each gets id `<execution>.evidence.<k>` and produced_at = now.
func (e *Execution) Submit(recs ...evidence.Record) {
	for _, r := range recs {
		r.ID = e.ID + ".evidence." + itoa(len(e.Evidence)+1)
		r.ProducedAt = e.Now.UnixMilli()
		e.Evidence = append(e.Evidence, Entry{State: e.State, Record: r})
	}
	e.rebuild()
}

// Clone returns an independent copy (for transition on a throwaway copy).
func (e *Execution) Clone() *Execution {
	c := *e
	c.Entered = slices.Clone(e.Entered)
	c.Evidence = slices.Clone(e.Evidence)
	c.Events = slices.Clone(e.Events)
	c.facts = maps(e.facts)
	c.lapsed = slices.Clone(e.lapsed)
	return &c
}

func maps(m predicate.MapFacts) predicate.MapFacts {
	c := make(predicate.MapFacts, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// Facts returns the current fact store (derived facts included). It must
// not be modified.
func (e *Execution) Facts() predicate.MapFacts { return e.facts }

// Lapsed reports whether log entry i is lapsed (engine.md §4.4).
func (e *Execution) Lapsed(i int) bool { return e.lapsed[i] }

// rebuild builds the fact store from scratch in the order of engine.md
// §2.2.
func (e *Execution) rebuild() {
	f := predicate.MapFacts{}
	for _, b := range e.Plan.Facts {
		f[b.Path] = b.Value
	}
	for _, b := range e.Graph.Facts() {
		f[b.Path] = b.Value
	}
	e.lapsed = make([]bool, len(e.Evidence))
	for i, en := range e.Evidence {
		if h, ok := e.Plan.horizons[en.Record.Kind()]; ok && !covers(h, en.Record.ObservedAt, e.Now) {
			e.lapsed[i] = true
			continue
		}
		en.Record.Project(func(p string, v predicate.Value) { f[p] = v })
	}
	e.facts = f
	e.derive()
}

// covers reports whether a horizon of h days covers an observation.
func covers(h int, observed int64, now time.Time) bool {
	return now.UnixMilli()-observed <= int64(h)*86_400_000
}

// derive binds the engine-derived facts (engine.md §2.6).
func (e *Execution) derive() {
	f := e.facts
	observed := maps(f)
	f["state.current"] = predicate.Text(e.State)
	for _, s := range e.Entered {
		f["state."+strings.Join(splitState(s), ".")+".entered"] = predicate.Bool(true)
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
		if e.lapsed[i] {
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
	missing := float64(e.missingEvidence(observed))
	f["evidence.missing"] = predicate.Number(missing)
	f["required_evidence.missing"] = predicate.Number(missing)
}

func splitState(s string) []string {
	return strings.FieldsFunc(s, func(c rune) bool { return c == '.' || c == '/' })
}

// missingEvidence counts unmet evidence items of every obligation, the
// completion set and each in-force principle's evidence list, plus those of
// conditionals whose `when` is not False against observed (one level).
func (e *Execution) missingEvidence(observed predicate.MapFacts) int {
	n := 0
	countSet := func(s *workflow.RequirementSet) {
		for _, r := range s.Evidence {
			if !e.evidenceMet(r) {
				n++
			}
		}
		for i := range s.Conditional {
			c := &s.Conditional[i]
			if predicate.Eval(c.When, observed, e.Plan.Scales) == predicate.False {
				continue
			}
			for _, r := range c.Require.Evidence {
				if !e.evidenceMet(r) {
					n++
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
	return n
}

func (e *Execution) evidenceMet(r workflow.EvidenceReq) bool {
	m, _ := e.matchEvidence(r)
	return m >= int(r.AtLeast)
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
