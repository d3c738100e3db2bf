package semdiff

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// WorkflowChange is the change set of a workflow (JSON field names as
// issue 17 gives them; lists are empty, never null).
type WorkflowChange struct {
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Files names the two files compared.
	Files Pair[string] `json:"files"`
	// Version is set when `version` changed.
	Version *Pair[uint32] `json:"version"`
	// Initial is set when `initial` changed.
	Initial *Pair[string] `json:"initial"`
	// Fields lists the changed top-level fields: id (two files only),
	// title, summary, allow_unreachable_states.
	Fields      []Field           `json:"fields"`
	States      StateChanges      `json:"states"`
	Transitions TransitionChanges `json:"transitions"`
	// BehaviourChanged says something the engine or the projection acts on
	// changed: anything but titles, summaries, descriptions,
	// allow_unreachable_states and the version itself.
	BehaviourChanged bool `json:"behaviour_changed"`
	// UnversionedBehaviourChange flags a behaviour change under an
	// unchanged id and version: every reference `id/major` that accepted
	// the old workflow (a step map's pin, a profile's workflow) accepts the
	// new one, and silently gets the new behaviour.
	UnversionedBehaviourChange bool `json:"unversioned_behaviour_change"`
	// Impact says what the change does to the projected flow and the
	// diagram; nil when nothing changed.
	Impact *Impact `json:"impact"`

	version uint32 // the new version
}

// StateChanges lists the states added, removed and changed, in id order.
type StateChanges struct {
	Added   []StateInfo   `json:"added"`
	Removed []StateInfo   `json:"removed"`
	Changed []StateChange `json:"changed"`
}

// StateInfo describes a state added or removed.
type StateInfo struct {
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Summary      *string       `json:"summary,omitempty"`
	Terminal     bool          `json:"terminal"`
	Phases       []string      `json:"phases,omitempty"`
	Irreversible bool          `json:"irreversible,omitempty"`
	Requires     []string      `json:"requires,omitempty"`
	Capabilities *Capabilities `json:"capabilities,omitempty"`
	OnFailure    *string       `json:"on_failure,omitempty"`
}

// StateChange is a state present in both versions whose fields changed.
type StateChange struct {
	ID     string  `json:"id"`
	Fields []Field `json:"fields"`
}

// TransitionChanges lists the transitions added and removed, in their
// document order, those changed, in the new document order, and the
// states whose outgoing transitions are tried in another order.
type TransitionChanges struct {
	Added     []TransitionInfo   `json:"added"`
	Removed   []TransitionInfo   `json:"removed"`
	Changed   []TransitionChange `json:"changed"`
	Reordered []Reorder          `json:"reordered"`
}

// TransitionInfo describes a transition added or removed.
type TransitionInfo struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Occurrence counts the transitions with this from and to, in document
	// order, from 1; it is left out when 1 (validation refuses a second).
	Occurrence int `json:"occurrence,omitempty"`
	// Guard is the display form of the simplified `when`; `always` when
	// the transition is unguarded.
	Guard string `json:"guard"`
	// Position is the transition's place, from 1, among the transitions
	// out of From, the order the engine tries them in.
	Position    int      `json:"position"`
	Requires    []string `json:"requires,omitempty"`
	OnFailure   *string  `json:"on_failure,omitempty"`
	Description *string  `json:"description,omitempty"`
}

// TransitionChange is a transition present in both versions that changed.
type TransitionChange struct {
	From       string `json:"from"`
	To         string `json:"to"`
	Occurrence int    `json:"occurrence,omitempty"`
	// Guard is set when the guard's meaning changed: old and new in the
	// display form.
	Guard *Pair[string] `json:"guard"`
	// Fields lists the other changed fields: requires, on_failure,
	// description.
	Fields []Field `json:"fields"`
}

// Reorder says that the transitions out of From that both versions hold
// are tried in another order. Old and New list their targets in each
// version's order (`to#2` for a second occurrence).
type Reorder struct {
	From string   `json:"from"`
	Old  []string `json:"old"`
	New  []string `json:"new"`
}

// DocID returns the workflow id.
func (c *WorkflowChange) DocID() string { return c.ID }

// DocKind returns KindWorkflow.
func (c *WorkflowChange) DocKind() Kind { return KindWorkflow }

// Changed reports whether anything changed.
func (c *WorkflowChange) Changed() bool {
	return c.Version != nil || c.Initial != nil || len(c.Fields) > 0 ||
		len(c.States.Added)+len(c.States.Removed)+len(c.States.Changed) > 0 ||
		len(c.Transitions.Added)+len(c.Transitions.Removed)+len(c.Transitions.Changed)+len(c.Transitions.Reordered) > 0
}

// Summary counts what changed: "version 1 → 2, 1 state, 3 transitions".
func (c *WorkflowChange) Summary() string {
	var parts []string
	if c.Version != nil {
		parts = append(parts, fmt.Sprintf("version %d → %d", c.Version.Old, c.Version.New))
	}
	if c.Initial != nil {
		parts = append(parts, "initial state")
	}
	if n := len(c.States.Added) + len(c.States.Removed) + len(c.States.Changed); n > 0 {
		parts = append(parts, count(n, "state"))
	}
	t := c.Transitions
	if n := len(t.Added) + len(t.Removed) + len(t.Changed); n > 0 {
		parts = append(parts, count(n, "transition"))
	}
	if n := len(t.Reordered); n > 0 {
		parts = append(parts, count(n, "reordered state"))
	}
	if len(c.Fields) > 0 {
		parts = append(parts, count(len(c.Fields), "field"))
	}
	return joinOr(parts, "no change")
}

// Workflows compares two validated workflows.
func Workflows(old, new *workflow.Workflow) *WorkflowChange {
	c := &WorkflowChange{ID: new.ID, Kind: KindWorkflow, Files: Pair[string]{old.File, new.File}, version: new.Version}
	if old.Version != new.Version {
		c.Version = &Pair[uint32]{old.Version, new.Version}
	}
	if old.Initial != new.Initial {
		c.Initial = &Pair[string]{old.Initial, new.Initial}
	}
	c.Fields = slices.Concat(
		field("id", true, old.ID, new.ID, textKey, itself[string]),
		field("title", false, old.Title, new.Title, textKey, itself[string]),
		field("summary", false, old.Summary, new.Summary, optTextKey, optText),
		field("allow_unreachable_states", false, old.AllowUnreachable, new.AllowUnreachable, strconv.FormatBool, itself[bool]),
	)
	c.States = compareStates(old, new)
	c.Transitions = compareTransitions(old, new)
	c.BehaviourChanged = c.Initial != nil || hasBehaviour(c.Fields) ||
		len(c.States.Added)+len(c.States.Removed) > 0 ||
		slices.ContainsFunc(c.States.Changed, func(s StateChange) bool { return hasBehaviour(s.Fields) }) ||
		len(c.Transitions.Added)+len(c.Transitions.Removed)+len(c.Transitions.Reordered) > 0 ||
		slices.ContainsFunc(c.Transitions.Changed, func(t TransitionChange) bool { return t.Guard != nil || hasBehaviour(t.Fields) })
	c.UnversionedBehaviourChange = c.BehaviourChanged && old.ID == new.ID && old.Version == new.Version
	if c.Changed() {
		c.Impact = workflowImpact(old, new)
	}
	c.Fields = nonNil(c.Fields)
	return c
}

func hasBehaviour(fields []Field) bool {
	return slices.ContainsFunc(fields, func(f Field) bool { return f.behaviour })
}

func compareStates(old, new *workflow.Workflow) StateChanges {
	var sc StateChanges
	for _, id := range unionKeys(old.StateIDs(), new.StateIDs()) {
		o, n := old.States[id], new.States[id]
		switch {
		case o == nil:
			sc.Added = append(sc.Added, stateInfo(n))
		case n == nil:
			sc.Removed = append(sc.Removed, stateInfo(o))
		default:
			if fields := stateFields(o, n); len(fields) > 0 {
				sc.Changed = append(sc.Changed, StateChange{ID: id, Fields: fields})
			}
		}
	}
	return StateChanges{nonNil(sc.Added), nonNil(sc.Removed), nonNil(sc.Changed)}
}

func stateInfo(s *workflow.State) StateInfo {
	info := StateInfo{
		ID: s.ID, Title: s.Title, Summary: s.Summary, Terminal: s.Terminal, Phases: s.Phases,
		Irreversible: s.Irreversible, Requires: requirementLines(s.Requires),
	}
	if !s.Capabilities.IsEmpty() {
		c := capabilities(s.Capabilities)
		info.Capabilities = &c
	}
	if s.OnFailure != nil {
		p := s.OnFailure.String()
		info.OnFailure = &p
	}
	return info
}

// stateFields lists the changed fields of a state, in the order of
// documents.md §4.1.
func stateFields(o, n *workflow.State) []Field {
	return slices.Concat(
		field("title", false, o.Title, n.Title, textKey, itself[string]),
		field("summary", false, o.Summary, n.Summary, optTextKey, optText),
		field("terminal", true, o.Terminal, n.Terminal, strconv.FormatBool, itself[bool]),
		field("phases", true, o.Phases, n.Phases, listKey, showList),
		field("irreversible", true, o.Irreversible, n.Irreversible, strconv.FormatBool, itself[bool]),
		field("requires", true, o.Requires, n.Requires, requirementKey, showRequirements),
		field("capabilities", true, o.Capabilities, n.Capabilities, capabilitiesKey, showCapabilities),
		field("on_failure", true, o.OnFailure, n.OnFailure, policyKey, showPolicy),
	)
}

// transitionKey is (from, to, occurrence), occurrence counted from 1.
type transitionKey struct {
	from, to   string
	occurrence int
}

// label spells the key's target as a reorder lists it: `to`, or `to#n`.
func (k transitionKey) label() string {
	if k.occurrence > 1 {
		return k.to + "#" + strconv.Itoa(k.occurrence)
	}
	return k.to
}

// keyed is a workflow's transitions with their keys, in document order,
// and each one's position among the transitions out of its from state.
type keyed struct {
	keys     []transitionKey
	byKey    map[transitionKey]*workflow.Transition
	position map[transitionKey]int
}

func keyTransitions(w *workflow.Workflow) keyed {
	k := keyed{byKey: map[transitionKey]*workflow.Transition{}, position: map[transitionKey]int{}}
	seen := map[[2]string]int{}
	out := map[string]int{}
	for _, t := range w.Transitions {
		pair := [2]string{t.From, t.To}
		seen[pair]++
		out[t.From]++
		key := transitionKey{t.From, t.To, seen[pair]}
		k.keys = append(k.keys, key)
		k.byKey[key] = t
		k.position[key] = out[t.From]
	}
	return k
}

func compareTransitions(old, new *workflow.Workflow) TransitionChanges {
	var tc TransitionChanges
	o, n := keyTransitions(old), keyTransitions(new)
	for _, key := range o.keys {
		if n.byKey[key] == nil {
			tc.Removed = append(tc.Removed, transitionInfo(key, o.byKey[key], o.position[key]))
		}
	}
	for _, key := range n.keys {
		nt, ot := n.byKey[key], o.byKey[key]
		if ot == nil {
			tc.Added = append(tc.Added, transitionInfo(key, nt, n.position[key]))
			continue
		}
		if ch, ok := transitionChange(key, ot, nt); ok {
			tc.Changed = append(tc.Changed, ch)
		}
	}
	tc.Reordered = reorders(o, n)
	return TransitionChanges{nonNil(tc.Added), nonNil(tc.Removed), nonNil(tc.Changed), nonNil(tc.Reordered)}
}

// occurrence is the JSON occurrence: left out (0) when 1.
func occurrence(k transitionKey) int {
	if k.occurrence > 1 {
		return k.occurrence
	}
	return 0
}

func transitionInfo(key transitionKey, t *workflow.Transition, position int) TransitionInfo {
	info := TransitionInfo{
		From: key.from, To: key.to, Occurrence: occurrence(key), Guard: guardText(t.When), Position: position,
		Requires: requirementLines(t.Requires), Description: t.Description,
	}
	if t.OnFailure != nil {
		p := t.OnFailure.String()
		info.OnFailure = &p
	}
	return info
}

// guardText is the display of a guard, `always` when there is none.
func guardText(p predicate.Predicate) string {
	if p == nil {
		return predicate.Always{}.String()
	}
	return p.String()
}

// guardOf returns the guard, always when nil.
func guardOf(t *workflow.Transition) predicate.Predicate {
	if t.When == nil {
		return predicate.Always{}
	}
	return t.When
}

func transitionChange(key transitionKey, o, n *workflow.Transition) (TransitionChange, bool) {
	ch := TransitionChange{From: key.from, To: key.to, Occurrence: occurrence(key)}
	if !predicate.Equivalent(guardOf(o), guardOf(n)) {
		ch.Guard = &Pair[string]{guardText(o.When), guardText(n.When)}
		if ch.Guard.Old == ch.Guard.New {
			// The display prints a text as it reads (`x == 1` for the text
			// "1" and for the number 1): where it hides the change, show the
			// typed forms, which tell the values' types apart.
			ch.Guard = &Pair[string]{predicate.Key(guardOf(o)), predicate.Key(guardOf(n))}
		}
	}
	ch.Fields = slices.Concat(
		field("requires", true, o.Requires, n.Requires, requirementKey, showRequirements),
		field("on_failure", true, o.OnFailure, n.OnFailure, policyKey, showPolicy),
		field("description", false, o.Description, n.Description, optTextKey, optText),
	)
	if ch.Guard == nil && len(ch.Fields) == 0 {
		return ch, false
	}
	ch.Fields = nonNil(ch.Fields)
	return ch, true
}

// reorders compares, per from state, the order of the transitions both
// versions hold: the engine takes the first whose guard is true, so a new
// order is a new behaviour even when every guard is unchanged.
func reorders(o, n keyed) []Reorder {
	common := func(k keyed, other keyed) map[string][]transitionKey {
		out := map[string][]transitionKey{}
		for _, key := range k.keys {
			if other.byKey[key] != nil {
				out[key.from] = append(out[key.from], key)
			}
		}
		return out
	}
	oldOrder, newOrder := common(o, n), common(n, o)
	var out []Reorder
	for from, ok := range oldOrder {
		nk := newOrder[from]
		if slices.Equal(ok, nk) {
			continue
		}
		out = append(out, Reorder{From: from, Old: labels(ok), New: labels(nk)})
	}
	slices.SortFunc(out, byID(func(r Reorder) string { return r.From }))
	return out
}

func labels(keys []transitionKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.label()
	}
	return out
}
