package analysis

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
)

// DefaultVisitBudget is a state's visit budget without --max-visits or a
// map that sets one (§10.4).
const DefaultVisitBudget = 3

// MaxVisitBudget caps any state's visit budget (a map's `visit_budget` is
// a u32) and MaxMoves the moves of one walk: each move costs O(records),
// so the two bound a simulation's time.
const (
	MaxVisitBudget = 1000
	MaxMoves       = 2000
)

// SimOptions tune one simulation.
type SimOptions struct {
	// Plan is the task's resolved plan; nil runs the bare plan (§10.2).
	Plan *engine.Plan
	// MaxVisits overrides every state's visit budget when not 0.
	MaxVisits uint32
	// Map supplies the visit budgets (its steps are not run).
	Map *stepmap.Map
}

// RecordRef names one submitted record.
type RecordRef struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// PathValue is one observed fact of a move's guard.
type PathValue struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
	text  string
}

// Step is one line of a simulated run: a submission (Kind "submit":
// State, Visit, Records) or a move (Kind "move": the rest).
type Step struct {
	Kind       string
	State      string
	Visit      int
	Records    []RecordRef
	N          int
	From       string
	To         string
	Transition int
	Line       int
	Retreat    bool
	Guard      string
	Observed   []PathValue
	Unobserved []string
}

// MarshalJSON encodes a step with the keys of its kind (analysis.md
// §10.6): a move always carries `observed` and `unobserved`, empty or not.
func (s Step) MarshalJSON() ([]byte, error) {
	if s.Kind == "submit" {
		return json.Marshal(struct {
			Kind    string      `json:"kind"`
			State   string      `json:"state"`
			Visit   int         `json:"visit"`
			Records []RecordRef `json:"records"`
		}{s.Kind, s.State, s.Visit, s.Records})
	}
	observed, unobserved := s.Observed, s.Unobserved
	if observed == nil {
		observed = []PathValue{}
	}
	if unobserved == nil {
		unobserved = []string{}
	}
	return json.Marshal(struct {
		Kind       string      `json:"kind"`
		N          int         `json:"n"`
		From       string      `json:"from"`
		To         string      `json:"to"`
		Transition int         `json:"transition"`
		Line       int         `json:"line"`
		Retreat    bool        `json:"retreat"`
		Guard      string      `json:"guard"`
		Observed   []PathValue `json:"observed"`
		Unobserved []string    `json:"unobserved"`
	}{s.Kind, s.N, s.From, s.To, s.Transition, s.Line, s.Retreat, s.Guard, observed, unobserved})
}

// Refused is the move a visit budget refused.
type Refused struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Transition int    `json:"transition"`
	Budget     uint32 `json:"budget"`
	// Walk is set when the walk's own bound of MaxMoves moves, not the
	// state's budget, refused the move.
	Walk int `json:"walk_bound,omitempty"`
}

// Outcome is how a simulated run ended.
type Outcome struct {
	Kind    string   `json:"kind"`
	State   string   `json:"state"`
	Visit   int      `json:"visit"`
	Moves   int      `json:"moves"`
	Reasons []string `json:"reasons,omitempty"`
	Refused *Refused `json:"refused,omitempty"`
}

// Outcome kinds.
const (
	OutcomeCompleted = "completed"
	OutcomeBlocked   = "blocked"
	OutcomeBudget    = "budget_exhausted"
)

// Run is a simulated run (§10.6).
type Run struct {
	Workflow string   `json:"workflow"`
	Task     *string  `json:"task"`
	Profile  *string  `json:"profile"`
	Initial  string   `json:"initial"`
	Entered  []string `json:"entered"`
	Steps    []Step   `json:"steps"`
	Outcome  Outcome  `json:"outcome"`
	// Records is how many records the scenario holds.
	Records int `json:"-"`
}

// Simulate walks workflow w of tree t against scenario sc with the engine's
// own transition (§10.4). The list holds the refusals (an undeclared
// evidence kind, a walk that would submit more than MaxScenarioRecords
// records); an engine failure is returned as an error.
func Simulate(t *tree.Tree, w *workflow.Workflow, sc *Scenario, opts SimOptions) (*Run, diag.List, error) {
	plan := opts.Plan
	var kinds map[string]bool
	if plan == nil {
		a := newAnalyzer(t, w, Options{})
		kinds = a.kinds
		plan = engine.BarePlan(w, a.bareScales(), sc.Facts)
	} else {
		kinds = map[string]bool{}
		for _, ref := range plan.Protocol.Chain {
			for _, p := range t.Protocols {
				if p.Ref().String() == ref {
					for _, k := range p.EvidenceKinds {
						kinds[k] = true
					}
				}
			}
		}
	}
	if ds := undeclared(sc, kinds); ds.HasErrors() {
		return nil, ds, nil
	}
	sim := &simulation{w: w, sc: sc, opts: opts, layout: workflow.ComputeLayout(w), visits: map[string]int{}}
	run, err := sim.walk(engine.NewExecution(plan, sc.Graph, sc.Now))
	if err != nil {
		return nil, nil, err
	}
	if sim.refusal != nil {
		return nil, diag.List{*sim.refusal}, nil
	}
	run.Workflow = w.Ref().String()
	if opts.Plan != nil {
		id, prof := opts.Plan.Task.ID, opts.Plan.Task.Profile
		run.Task, run.Profile = &id, &prof
	}
	return run, nil, nil
}

// undeclared refuses records of kinds the protocol in force does not
// declare (A3), each at its `kind` value in its scenario file.
func undeclared(sc *Scenario, kinds map[string]bool) diag.List {
	var ds diag.List
	check := func(recs []evidence.Record, at []evidence.Entry, where string) {
		for i, r := range recs {
			if kinds[r.Kind()] {
				continue
			}
			d := diag.Errorf(CodeUndeclaredKind, "%s holds a record of kind `%s`, which no protocol the run is under declares; a driven run refuses it", where, r.Kind()).
				WithHint("declare the kind in the protocol, or drop the record")
			if i < len(at) {
				d = d.At(at[i].File, at[i].KindPos).WithPath(yamldoc.Key(at[i].Path, "kind"))
			}
			ds.Add(d)
		}
	}
	check(sc.Evidence, sc.EvidenceAt, "the scenario's `evidence`")
	for _, s := range slices.Sorted(maps.Keys(sc.Entries)) {
		for _, e := range sc.Entries[s] {
			check(e.Records, e.RecordsAt, "`on_entry."+s+"`")
		}
	}
	return ds.Sorted()
}

type simulation struct {
	w      *workflow.Workflow
	sc     *Scenario
	opts   SimOptions
	layout *workflow.Layout
	visits map[string]int
	run    Run
	moves  int
	// submitted counts the records submitted so far, all submissions
	// together; refusal is set when the next would pass MaxScenarioRecords.
	submitted int
	refusal   *diag.Diagnostic
	// joins maps a (from, to) pair to its transition.
	joins map[[2]string]*workflow.Transition
}

func (s *simulation) budget(state string) uint32 {
	b := uint32(DefaultVisitBudget)
	switch {
	case s.opts.MaxVisits > 0:
		b = s.opts.MaxVisits
	case s.opts.Map != nil && s.opts.Map.States[state] != nil && s.opts.Map.States[state].VisitBudget > 0:
		b = s.opts.Map.States[state].VisitBudget
	}
	return min(b, MaxVisitBudget)
}

// submit submits records in the execution's state and records the step.
// It reports false, submitting nothing, when the records would take the
// walk past MaxScenarioRecords submitted records: the walk stops there
// and the simulation is refused (s.refusal).
func (s *simulation) submit(exec *engine.Execution, recs []evidence.Record) bool {
	if len(recs) == 0 {
		return true
	}
	if s.submitted+len(recs) > MaxScenarioRecords {
		s.refuse(exec.State, len(recs))
		return false
	}
	s.submitted += len(recs)
	first := len(exec.Evidence)
	exec.Submit(recs...)
	step := Step{Kind: "submit", State: exec.State, Visit: s.visits[exec.State]}
	for _, en := range exec.Evidence[first:] {
		step.Records = append(step.Records, RecordRef{ID: en.Record.ID, Kind: en.Record.Kind()})
	}
	s.run.Steps = append(s.run.Steps, step)
	return true
}

// refuse sets the refusal of a walk whose submission of n records in
// state would pass MaxScenarioRecords. The files hold at most that many
// records (ReadScenarios), so the cause is an `on_entry` entry of state
// without `visit`, submitted again on every entry: the first is blamed.
func (s *simulation) refuse(state string, n int) {
	v := s.visits[state]
	d := diag.Errorf(CodeScenarioTooLarge, "the walk would submit %d records at entry %d into `%s`, %d in all, more than the %d a simulation submits", n, v, state, s.submitted+n, MaxScenarioRecords)
	for _, e := range s.sc.Entries[state] {
		if e.Visit == 0 {
			d = diag.Errorf(CodeScenarioTooLarge, "`%s` submits its %d record(s) on every entry into `%s`: at entry %d the walk would have submitted %d records, more than the %d a simulation submits", e.Path, len(e.Records), state, v, s.submitted+n, MaxScenarioRecords).
				At(e.File, e.Pos).WithPath(e.Path)
			break
		}
	}
	d = d.WithHint("give the entry a `visit:` (the entry it belongs to), or lower the visit budget with --max-visits")
	s.refusal = &d
}

// entryRecords returns the records of the v-th entry into state.
func (s *simulation) entryRecords(state string, v int) []evidence.Record {
	var out []evidence.Record
	for _, e := range s.sc.Entries[state] {
		if e.Visit == 0 || int(e.Visit) == v {
			out = append(out, e.Records...)
		}
	}
	return out
}

func (s *simulation) walk(exec *engine.Execution) (*Run, error) {
	s.run.Initial = exec.State
	s.visits[exec.State] = 1
	s.run.Records = s.sc.records()
	if !s.submit(exec, s.sc.Evidence) || !s.submit(exec, s.entryRecords(exec.State, 1)) {
		return &s.run, nil
	}
	for {
		// The engine's own transition, asked without moving (Next): the
		// target is entered only when the budget allows the entry, so the
		// run never holds a state it refused, and no move copies the
		// execution.
		r, err := exec.Next()
		if err != nil {
			return nil, err
		}
		switch r.Kind {
		case engine.Completed:
			return s.finish(exec, Outcome{Kind: OutcomeCompleted}), nil
		case engine.Blocked:
			return s.finish(exec, Outcome{Kind: OutcomeBlocked, Reasons: r.Reasons}), nil
		}
		tr, err := s.transition(r.From, r.To)
		if err != nil {
			return nil, err
		}
		if b := s.budget(r.To); s.visits[r.To] >= int(b) {
			return s.finish(exec, Outcome{Kind: OutcomeBudget, Refused: &Refused{From: r.From, To: r.To, Transition: tr.Index, Budget: b}}), nil
		}
		if s.moves == MaxMoves {
			return s.finish(exec, Outcome{Kind: OutcomeBudget, Refused: &Refused{From: r.From, To: r.To, Transition: tr.Index, Budget: s.budget(r.To), Walk: MaxMoves}}), nil
		}
		step := s.moveStep(exec, tr)
		exec.EnterState(r.To)
		s.visits[r.To]++
		s.moves++
		step.N = s.moves
		s.run.Steps = append(s.run.Steps, step)
		if !s.submit(exec, s.entryRecords(r.To, s.visits[r.To])) {
			return &s.run, nil
		}
	}
}

// transition returns the transition joining from and to (a loaded
// workflow has one per pair; the first in document order otherwise),
// from a table built on the first move so that a move costs no scan of
// the workflow.
func (s *simulation) transition(from, to string) (*workflow.Transition, error) {
	if s.joins == nil {
		s.joins = make(map[[2]string]*workflow.Transition, len(s.w.Transitions))
		for _, t := range s.w.Transitions {
			if _, dup := s.joins[[2]string{t.From, t.To}]; !dup {
				s.joins[[2]string{t.From, t.To}] = t
			}
		}
	}
	if t := s.joins[[2]string{from, to}]; t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("the engine moved %s -> %s, which no transition joins", from, to)
}

// moveStep records a move with its guard's facts as they stand.
func (s *simulation) moveStep(exec *engine.Execution, t *workflow.Transition) Step {
	step := Step{Kind: "move", From: t.From, To: t.To, Transition: t.Index, Line: t.Pos.Line, Retreat: s.layout.IsBack(t.From, t.To), Guard: t.When.String()}
	facts := exec.Facts()
	for _, p := range predicate.FactPaths(t.When) {
		if v, ok := facts.Lookup(p); ok {
			step.Observed = append(step.Observed, PathValue{Path: p, Value: valueAny(v), text: v.String()})
		} else {
			step.Unobserved = append(step.Unobserved, p)
		}
	}
	return step
}

func (s *simulation) finish(exec *engine.Execution, o Outcome) *Run {
	o.State = exec.State
	o.Visit = s.visits[exec.State]
	o.Moves = s.moves
	s.run.Outcome = o
	s.run.Entered = slices.Clone(exec.Entered)
	if s.run.Steps == nil {
		s.run.Steps = []Step{}
	}
	return &s.run
}
