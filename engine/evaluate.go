package engine

import (
	"fmt"
	"slices"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

// Move is one outgoing transition evaluated (engine.md §5).
type Move struct {
	From, To  string
	Guard     predicate.Outcome
	Items     []Item
	Permitted bool
}

// Unmet returns the move's unmet lines: `guard: <cause>` per guard cause
// (or the guard expression when there is none) unless the guard is True,
// then the line of every item that is not True.
func (m Move) Unmet() []string {
	var out []string
	if m.Guard.Truth != predicate.True {
		if len(m.Guard.Causes) == 0 {
			out = append(out, "guard: "+m.Guard.Expression)
		}
		for _, c := range m.Guard.Causes {
			out = append(out, "guard: "+c.Expression)
		}
	}
	for _, it := range m.Items {
		if it.Truth != predicate.True {
			out = append(out, it.Line())
		}
	}
	return out
}

// Evaluation is the answer of Evaluate.
type Evaluation struct {
	State      string
	Terminal   bool
	InState    []Item // owed in the current state (engine.md §4.7)
	Moves      []Move // document order
	Completion []Item
	Complete   bool
}

// ErrUnknownState is returned for an execution at a state its workflow
// lacks.
type ErrUnknownState struct{ State, Workflow string }

// Error says which state is unknown.
func (e *ErrUnknownState) Error() string {
	return fmt.Sprintf("state `%s` is not a state of workflow `%s`", e.State, e.Workflow)
}

// Evaluate evaluates the execution at its current state (engine.md §5).
func (e *Execution) Evaluate() (*Evaluation, error) {
	w := e.Plan.Workflow
	c := w.States[e.State]
	if c == nil {
		return nil, &ErrUnknownState{e.State, w.Ref().String()}
	}
	ev := &Evaluation{State: c.ID, Terminal: c.Terminal}
	for i := range e.Plan.Obligations {
		if o := &e.Plan.Obligations[i]; o.AppliesIn(c) {
			ev.InState = append(ev.InState, e.EvaluateSet(o.Requires, principleSource(o.Principle.ID))...)
		}
	}
	ev.InState = append(ev.InState, e.EvaluateSet(&c.Requires, stateSource(c.ID))...)
	for _, t := range e.Plan.transitionsFrom(c.ID) {
		ev.Moves = append(ev.Moves, e.evaluateMove(c, t))
	}
	ev.Completion = e.completionItems()
	ev.Complete = c.Terminal && allTrue(ev.Completion)
	return ev, nil
}

func (e *Execution) evaluateMove(c *workflow.State, t *workflow.Transition) Move {
	m := Move{From: c.ID, To: t.To}
	when := t.When
	if when == nil {
		when = predicate.Always{}
	}
	m.Guard = predicate.Explain(when, e.facts, e.Plan.Scales)
	m.Items = e.EvaluateSet(&t.Requires, transitionSource(c.ID, t.To))
	target := e.Plan.Workflow.States[t.To]
	if target != nil {
		m.Items = append(m.Items, e.EvaluateSet(&target.Requires, stateSource(target.ID))...)
	}
	for i := range e.Plan.Obligations {
		if o := &e.Plan.Obligations[i]; target != nil && o.BlocksEntryTo(target) {
			m.Items = append(m.Items, e.EvaluateSet(o.Requires, principleSource(o.Principle.ID))...)
		}
	}
	for i := range e.Plan.Obligations {
		if o := &e.Plan.Obligations[i]; o.AppliesIn(c) {
			m.Items = append(m.Items, e.EvaluateSet(o.Requires, principleSource(o.Principle.ID))...)
		}
	}
	m.Permitted = m.Guard.Truth == predicate.True && allTrue(m.Items) && target != nil
	return m
}

// completionItems lists the completion set (engine.md §4.7).
func (e *Execution) completionItems() []Item {
	items := e.EvaluateSet(&e.Plan.Completion, SourceCompletion)
	for i := range e.Plan.Obligations {
		if o := &e.Plan.Obligations[i]; o.OwedAtCompletion(e.Plan.states) {
			items = append(items, e.EvaluateSet(o.Requires, principleSource(o.Principle.ID))...)
		}
	}
	for _, p := range e.Plan.InForce {
		items = append(items, e.EvaluateSet(&workflow.RequirementSet{Evidence: p.Evidence}, principleSource(p.ID))...)
		for _, v := range p.Verification {
			it := e.verificationItem(v)
			it.Source = principleSource(p.ID)
			items = append(items, it)
		}
	}
	return items
}

func allTrue(items []Item) bool {
	return !slices.ContainsFunc(items, func(it Item) bool { return it.Truth != predicate.True })
}

// targets reports whether a timing's target is state s or one of its
// phases.
func targets(t protocol.Timing, s *workflow.State) bool {
	if t.State != "" {
		return t.State == s.ID
	}
	return slices.Contains(s.Phases, t.Phase)
}

// blocksEntryTo reports whether t binds before s; a kind that is neither
// always nor during reads as before, the default timing.
func blocksEntryTo(t protocol.Timing, s *workflow.State) bool {
	return t.Kind != protocol.Always && t.Kind != protocol.During && targets(t, s)
}

func appliesWithin(t protocol.Timing, s *workflow.State) bool {
	return t.Kind == protocol.During && targets(t, s)
}

func isCompletionState(s *workflow.State) bool {
	return s.Terminal || slices.Contains(s.Phases, "completion")
}

// BlockingReasons returns the reasons nothing may move (engine.md §5): the
// unmet completion lines when the state has no way out, otherwise every
// move's unmet lines prefixed `<C> -> <to>: `.
func (ev *Evaluation) BlockingReasons() []string {
	var out []string
	if len(ev.Moves) == 0 {
		for _, it := range ev.Completion {
			if it.Truth != predicate.True {
				out = append(out, it.Line())
			}
		}
		return out
	}
	for _, m := range ev.Moves {
		for _, l := range m.Unmet() {
			out = append(out, ev.State+" -> "+m.To+": "+l)
		}
	}
	return out
}

// Outcome kinds of Transition.
const (
	Completed = "completed"
	Moved     = "moved"
	Blocked   = "blocked"
)

// Result is the answer of Transition: Completed{State}, Moved{From, To}
// or Blocked{State, Reasons}.
type Result struct {
	Kind    string
	State   string
	From    string
	To      string
	Reasons []string
}

// Transition evaluates the execution and, when a move is permitted, enters
// the first permitted target in document order (engine.md §5). It changes
// e; call Next, or Transition on a Clone, to ask without moving.
func (e *Execution) Transition() (Result, error) {
	r, err := e.Next()
	if err == nil && r.Kind == Moved {
		e.EnterState(r.To)
	}
	return r, err
}

// Next returns what Transition would answer, leaving e as it is: the
// answer is Evaluate's, which only reads. A caller that may decline the
// move (a simulation out of visit budget) asks Next and enters the target
// itself, with no copy of the execution: copying it on every move made a
// walk of n moves cost n² (issue 13).
func (e *Execution) Next() (Result, error) {
	ev, err := e.Evaluate()
	if err != nil {
		return Result{}, err
	}
	if ev.Complete {
		return Result{Kind: Completed, State: ev.State}, nil
	}
	for _, m := range ev.Moves {
		if m.Permitted {
			return Result{Kind: Moved, From: m.From, To: m.To}, nil
		}
	}
	return Result{Kind: Blocked, State: ev.State, Reasons: ev.BlockingReasons()}, nil
}
