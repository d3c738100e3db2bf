package workflow

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/predicate"
)

// Validate runs the workflow rules of documents.md §7 and returns every
// problem, in the reference's emission order: empty_workflow;
// unknown_initial_state; per transition in document order unknown_state
// (from, then to), duplicate_transition and the transition's policy rules;
// per state in id order dead_end_state and the state's policy rules; then
// unreachable_state per state in id order. Locations are
// `workflow <id>.<path>`; positions are those of the blamed YAML nodes.
//
// A misspelt state id is the root cause of what follows from it: an
// unknown_state or unknown_initial_state carries a "did you mean" (and a
// fix) when a declared state is close, and the dead ends and unreachable
// states it causes are folded into it as a note instead of being reported
// on their own (see fold).
//
// On a workflow decoded with shape errors, Validate judges what decoded
// soundly and skips the rules whose inputs did not: no unknown_state for an
// end that is not a valid id, no dead_end_state for a state whose
// `terminal` is unreadable, no dead ends or reachability when a transition
// is unreadable.
func (w *Workflow) Validate() diag.List {
	v := validator{w: w}
	v.header()
	v.transitions()
	v.states()
	v.reachability()
	v.fold()
	return v.diags
}

type validator struct {
	w     *Workflow
	diags diag.List
	// ids are the state ids in byte order, sorted once for every rule;
	// finder suggests among them, built on the first unknown id (a large
	// workflow with none never pays for it).
	ids    []string
	finder *suggest.Finder
	// causes lists the unknown state ids reported, in emission order, with
	// what they were probably meant to be.
	causes []cause
	// deadEnds and unreachable index the diagnostics of those rules by
	// state id, for fold.
	deadEnds, unreachable map[string]int
}

// cause is one reported reference to an undeclared state.
type cause struct {
	diag    int    // index in diags
	id      string // the id as written
	fixed   string // the closest declared state, or ""
	initial bool   // written as the workflow's `initial`
}

// stateIDs returns the workflow's state ids in byte order.
func (v *validator) stateIDs() []string {
	if v.ids == nil {
		v.ids = v.w.StateIDs()
	}
	return v.ids
}

func (v *validator) report(pos diag.Pos, path string, d diag.Diagnostic) {
	v.diags.Add(d.At(v.w.File, pos).WithPath(v.w.Location() + path))
}

// unknown reports an undeclared state id written at pos/span, with a
// suggestion when a declared state is close.
func (v *validator) unknown(pos diag.Pos, span diag.Span, path, id string, initial bool, d diag.Diagnostic) {
	if v.finder == nil {
		v.finder = suggest.NewFinder(v.stateIDs())
	}
	best, ok := v.finder.Closest(id)
	if ok {
		d = d.WithSuggestion(best)
		if span.Start.IsValid() {
			d = d.WithFix(diag.Replace(v.w.File, span, id, best))
		}
	}
	v.causes = append(v.causes, cause{diag: len(v.diags), id: id, fixed: best, initial: initial})
	v.report(pos, path, d)
}

// header runs rules 1 and 2.
func (v *validator) header() {
	w := v.w
	if w.shaky.states {
		return
	}
	if len(w.States) == 0 && !w.shaky.stateKeys {
		v.report(w.StatesPos, ".states", diag.Errorf(CodeEmptyWorkflow,
			"workflow `%s` declares no states; a workflow needs at least one state", w.ID))
		return
	}
	if _, ok := w.States[w.Initial]; !ok && !w.shaky.initial && !w.shaky.stateKeys {
		v.unknown(w.InitialPos, w.initialSpan, ".initial", w.Initial, true, diag.Errorf(CodeUnknownInitialState,
			"the initial state `%s` is not a declared state", w.Initial).
			WithHint("declared states: %s", suggest.List(v.stateIDs())))
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
			span    diag.Span
			shaky   bool
		}{{"from", t.From, t.FromPos, t.fromSpan, t.shakyFrom}, {"to", t.To, t.ToPos, t.toSpan, t.shakyTo}} {
			// An id that is not valid was reported as such; a key of
			// `states` that was not valid left its state out of States.
			if _, ok := w.States[end.id]; !ok && !end.shaky && !w.shaky.states && !w.shaky.stateKeys {
				v.unknown(end.pos, end.span, at+"."+end.key, end.id, false, diag.Errorf(CodeUnknownState,
					"`%s` names `%s`, which is not a declared state", end.key, end.id))
			}
		}
		pair := [2]string{t.From, t.To}
		if prev, dup := first[pair]; dup && !t.shakyFrom && !t.shakyTo {
			v.report(t.Pos, at, diag.Errorf(CodeDuplicateTransition,
				"a second transition from `%s` to `%s` (the first is transitions[%d])", t.From, t.To, prev.Index).
				WithHint("merge the guards with `any`").
				WithRelated(w.File, prev.Pos, "the first transition for this pair"))
		} else if !dup {
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
	v.deadEnds = map[string]int{}
	for _, id := range v.stateIDs() {
		s := w.States[id]
		at := ".states." + id
		// With an unreadable transition any state may be its `from`.
		if !s.Terminal && !outgoing[id] && !s.shakyTerminal && !w.shaky.transitions {
			v.deadEnds[id] = len(v.diags)
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
	v.unreachable = map[string]int{}
	if w.AllowUnreachable || len(w.States) == 0 || w.shaky.initial || w.shaky.transitions {
		return
	}
	reached := w.Reachable()
	for _, id := range v.stateIDs() {
		if !reached[id] {
			v.unreachable[id] = len(v.diags)
			v.report(w.States[id].Pos, ".states."+id, diag.Errorf(CodeUnreachableState,
				"state `%s` is not reachable from the initial state `%s`", id, w.Initial).
				WithHint("add a transition, or `allow_unreachable_states: true`"))
		}
	}
}

// Reachable returns the set of ids reachable from the initial state by
// following transitions (the initial id included, declared or not).
func (w *Workflow) Reachable() map[string]bool {
	return reachableFrom(w.Initial, w.Transitions, nil)
}

// reachableFrom is Reachable from initial, every id first renamed by
// rename (when it holds the id).
func reachableFrom(initial string, ts []*Transition, rename map[string]string) map[string]bool {
	name := func(id string) string {
		if r, ok := rename[id]; ok {
			return r
		}
		return id
	}
	out := map[string][]string{}
	for _, t := range ts {
		out[name(t.From)] = append(out[name(t.From)], name(t.To))
	}
	start := name(initial)
	reached := map[string]bool{start: true}
	queue := []string{start}
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

// maxFoldCauses bounds the causes judged one by one in fold; beyond it the
// remaining consequences go to the first cause.
const maxFoldCauses = 32

// fold folds the consequences of misspelt state ids into the diagnostics
// of the misspellings. A dead end or an unreachable state is a consequence
// when correcting the misspellings (each to the declared state it is
// closest to) removes it; with an undeclared initial state and no close
// one, every unreachable state is (nothing at all is reachable from an
// undeclared state). A misspelling without a close state elsewhere is not
// guessed at: what it was meant to name is unknown. Each consequence is
// attributed to the first cause whose correction alone removes it, else to
// the first cause; it leaves the list and is named in its cause's message
// ("so state `review` is unreachable").
func (v *validator) fold() {
	if len(v.causes) == 0 || (len(v.deadEnds) == 0 && len(v.unreachable) == 0) {
		return
	}
	all := map[string]string{}
	unexplained := -1 // an undeclared initial state without a close one
	for _, c := range v.causes {
		if c.fixed != "" {
			all[c.id] = c.fixed
		} else if c.initial {
			unexplained = c.diag
		}
	}
	whole := v.judge(all)
	var single []judgement // judgement of each cause's correction alone
	for i, c := range v.causes {
		if i == maxFoldCauses {
			break
		}
		if c.fixed != "" {
			single = append(single, v.judge(map[string]string{c.id: c.fixed}))
		} else {
			single = append(single, judgement{})
		}
	}
	owner := func(removed func(judgement) bool, fallback int) int {
		for i, j := range single {
			if v.causes[i].fixed != "" && removed(j) {
				return v.causes[i].diag
			}
		}
		if removed(whole) {
			return v.causes[0].diag
		}
		return fallback
	}
	notes := map[int]*consequence{}
	note := func(c int) *consequence {
		if notes[c] == nil {
			notes[c] = &consequence{}
		}
		return notes[c]
	}
	drop := map[int]bool{}
	for _, id := range v.stateIDs() {
		if i, ok := v.deadEnds[id]; ok {
			if c := owner(func(j judgement) bool { return j.reached != nil && !j.dead[id] }, -1); c >= 0 {
				note(c).deadEnds = append(note(c).deadEnds, id)
				drop[i] = true
			}
		}
		if i, ok := v.unreachable[id]; ok {
			if c := owner(func(j judgement) bool { return j.reached[id] }, unexplained); c >= 0 {
				note(c).unreachable = append(note(c).unreachable, id)
				drop[i] = true
			}
		}
	}
	for c, n := range notes {
		v.diags[c].Message += n.String()
	}
	kept := v.diags[:0]
	for i, d := range v.diags {
		if !drop[i] {
			kept = append(kept, d)
		}
	}
	v.diags = kept
}

// judgement is what the dead-end and reachability rules find on the
// workflow with some ids corrected; the zero judgement judged nothing.
type judgement struct {
	dead, reached map[string]bool
}

// judge returns the dead ends and the reachable set of the workflow with
// the ids of rename corrected.
func (v *validator) judge(rename map[string]string) judgement {
	w := v.w
	outgoing := map[string]bool{}
	for _, t := range w.Transitions {
		from := t.From
		if r, ok := rename[from]; ok {
			from = r
		}
		outgoing[from] = true
	}
	dead := map[string]bool{}
	for id, s := range w.States {
		if !s.Terminal && !outgoing[id] {
			dead[id] = true
		}
	}
	return judgement{dead: dead, reached: reachableFrom(w.Initial, w.Transitions, rename)}
}

// consequence lists the dead ends and unreachable states one misspelling
// caused.
type consequence struct{ deadEnds, unreachable []string }

// String phrases what a misspelling caused: ", so state `b` has no way
// out and 2 states are unreachable: `c`, `d`".
func (c *consequence) String() string {
	var parts []string
	if len(c.deadEnds) > 0 {
		parts = append(parts, phrase(c.deadEnds, "has no way out", "have no way out"))
	}
	if len(c.unreachable) > 0 {
		parts = append(parts, phrase(c.unreachable, "is unreachable", "are unreachable"))
	}
	return ", so " + strings.Join(parts, " and ")
}

// maxNamed is how many states a consequence note names before "and N
// more".
const maxNamed = 5

func phrase(ids []string, one, many string) string {
	if len(ids) == 1 {
		return fmt.Sprintf("state `%s` %s", ids[0], one)
	}
	named := make([]string, 0, maxNamed)
	for _, id := range ids[:min(len(ids), maxNamed)] {
		named = append(named, "`"+id+"`")
	}
	list := strings.Join(named, ", ")
	if len(ids) > maxNamed {
		list += fmt.Sprintf(" and %d more", len(ids)-maxNamed)
	}
	return fmt.Sprintf("%d states %s: %s", len(ids), many, list)
}
