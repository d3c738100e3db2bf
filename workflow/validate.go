package workflow

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
)

// Validate runs the workflow rules of documents.md §7 on a shape-valid
// workflow and returns every problem, in the reference's emission order:
// empty_workflow; unknown_initial_state; per transition in document order
// unknown_state (from, then to), duplicate_transition and the transition's
// policy rules; per state in id order dead_end_state and the state's policy
// rules; then unreachable_state per state in id order. Locations are
// `workflow <id>.<path>`; positions are those of the blamed YAML nodes.
func (w *Workflow) Validate() diag.List {
	v := validator{w: w}
	v.header()
	v.transitions()
	v.states()
	v.reachability()
	return v.diags
}

type validator struct {
	w     *Workflow
	diags diag.List
}

func (v *validator) report(pos diag.Pos, path string, d diag.Diagnostic) {
	v.diags.Add(d.At(v.w.File, pos).WithPath(v.w.Location() + path))
}

// header runs rules 1 and 2.
func (v *validator) header() {
	w := v.w
	if len(w.States) == 0 {
		v.report(w.StatesPos, ".states", diag.Errorf(CodeEmptyWorkflow,
			"workflow `%s` declares no states; a workflow needs at least one state", w.ID))
		return
	}
	if _, ok := w.States[w.Initial]; !ok {
		v.report(w.InitialPos, ".initial", diag.Errorf(CodeUnknownInitialState,
			"the initial state `%s` is not a declared state", w.Initial).
			WithHint("declared states: %s", strings.Join(w.StateIDs(), ", ")))
	}
}

// transitions runs rules 3 to 6 for each transition in document order.
func (v *validator) transitions() {
	w := v.w
	first := map[[2]string]*Transition{}
	for _, t := range w.Transitions {
		at := fmt.Sprintf(".transitions[%d]", t.Index)
		for _, end := range []struct {
			key, id string
			pos     diag.Pos
		}{{"from", t.From, t.FromPos}, {"to", t.To, t.ToPos}} {
			if _, ok := w.States[end.id]; !ok {
				v.report(end.pos, at+"."+end.key, diag.Errorf(CodeUnknownState,
					"`%s` names `%s`, which is not a declared state", end.key, end.id))
			}
		}
		pair := [2]string{t.From, t.To}
		if prev, dup := first[pair]; dup {
			v.report(t.Pos, at, diag.Errorf(CodeDuplicateTransition,
				"a second transition from `%s` to `%s` (the first is transitions[%d])", t.From, t.To, prev.Index).
				WithHint("merge the guards with `any`").
				WithRelated(w.File, prev.Pos, "the first transition for this pair"))
		} else {
			first[pair] = t
		}
		from := w.States[t.From]
		v.policy(t.OnFailure, at, from)
	}
}

// states runs rule 7 and the state's policy rules for each state in id
// order.
func (v *validator) states() {
	w := v.w
	outgoing := map[string]bool{}
	for _, t := range w.Transitions {
		outgoing[t.From] = true
	}
	for _, id := range w.StateIDs() {
		s := w.States[id]
		at := ".states." + id
		if !s.Terminal && !outgoing[id] {
			v.report(s.Pos, at, diag.Errorf(CodeDeadEndState,
				"state `%s` is not terminal and has no outgoing transition", id).
				WithHint("add a transition or `terminal: true`"))
		}
		v.policy(s.OnFailure, at, s)
	}
}

// policy runs rules 5 and 6 for the policy owned by the item at owner;
// judged is the state whose irreversibility counts (nil when undeclared,
// which skips rule 5).
func (v *validator) policy(p *FailurePolicy, owner string, judged *State) {
	if p == nil || !p.InvolvesRollback() {
		return
	}
	at := owner + ".on_failure"
	if judged != nil && judged.Irreversible {
		v.report(p.Pos, at, diag.Errorf(CodeRollbackOnIrreversibleState,
			"state `%s` is irreversible but this failure policy rolls back", judged.ID).
			WithHint("use `escalate` or `block`"))
	}
	if predicate.IsAlways(p.RollbackRequirement()) {
		v.report(p.Pos, at, diag.Errorf(CodeIncompleteRollbackPolicy,
			"the rollback policy has no precondition (its `require` is always)").
			WithHint("state the precondition under `rollback.require` (e.g. a previous revision exists)"))
	}
}

// reachability runs rule 8: a breadth-first search from the initial state
// over outgoing transitions.
func (v *validator) reachability() {
	w := v.w
	if w.AllowUnreachable || len(w.States) == 0 {
		return
	}
	reached := w.Reachable()
	for _, id := range w.StateIDs() {
		if !reached[id] {
			v.report(w.States[id].Pos, ".states."+id, diag.Errorf(CodeUnreachableState,
				"state `%s` is not reachable from the initial state `%s`", id, w.Initial).
				WithHint("add a transition, or `allow_unreachable_states: true`"))
		}
	}
}

// Reachable returns the set of ids reachable from the initial state by
// following transitions (the initial id included, declared or not).
func (w *Workflow) Reachable() map[string]bool {
	out := map[string][]string{}
	for _, t := range w.Transitions {
		out[t.From] = append(out[t.From], t.To)
	}
	reached := map[string]bool{w.Initial: true}
	queue := []string{w.Initial}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range out[s] {
			if !reached[t] {
				reached[t] = true
				queue = append(queue, t)
			}
		}
	}
	return reached
}
