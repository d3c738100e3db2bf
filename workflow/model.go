// Package workflow is the AEP workflow model: a guarded state machine read
// strictly from YAML or JSON (documents.md §4), the policies and requirement
// sets its states and transitions carry (§6), the workflow validation rules
// (§7), and the graph layout shared by the projection and the renderers
// (projection.md §3).
//
// The decoders for requirement sets, failure policies and capability
// policies are exported because principles, profiles and step maps carry the
// same shapes. The package judges shape and structure only: it does not
// evaluate predicates or requirements (package engine), does not know the
// document tree or other workflows (package compiler), and does not project
// or draw (packages compiler and render).
package workflow

import (
	"maps"
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
)

// Workflow is one decoded workflow document. States is for lookup only:
// everything that produces output iterates StateIDs, and Transitions keep
// document order, which is semantic (documents.md §4.2).
type Workflow struct {
	// ID is the workflow identifier (dotted charset), e.g. `adp/default`.
	ID string
	// Version is the major version, 1 when the document gives none.
	Version uint32
	// Title is the short human title.
	Title string
	// Summary is what the workflow is for; nil when absent or null.
	Summary *string
	// Initial is the id of the state execution starts in.
	Initial string
	// States maps each declared state id to its state.
	States map[string]*State
	// Transitions lists the transitions in document order; Index is the
	// position in this slice.
	Transitions []*Transition
	// AllowUnreachable is `allow_unreachable_states`: it disables the
	// unreachable_state rule.
	AllowUnreachable bool

	// File is the file name diagnostics report.
	File string
	// Pos is the position of the `id` value.
	Pos diag.Pos
	// InitialPos is the position of the `initial` value.
	InitialPos diag.Pos
	// StatesPos is the position of the `states` value.
	StatesPos diag.Pos

	// shaky records what did not decode soundly, so that Validate judges
	// the rest of a document with shape errors without blaming what it
	// could not read. The zero value means "all sound".
	shaky shaky
	// initialSpan is the span of the `initial` value, for a fix that
	// replaces it (zero when the source does not allow an exact edit).
	initialSpan diag.Span
}

// shaky lists the parts of a workflow that failed to decode.
type shaky struct {
	// initial: `initial` is missing or not a valid state id.
	initial bool
	// states: `states` is missing or not a mapping.
	states bool
	// transitions: `transitions` is not a sequence, or one of its items is
	// not a mapping or has an unreadable end.
	transitions bool
	// stateKeys: a key of `states` is not a valid state id, so the state
	// is not in States.
	stateKeys bool
}

// StateIDs returns the declared state ids in byte-wise order, the only order
// in which states are ever iterated.
func (w *Workflow) StateIDs() []string {
	return slices.Sorted(maps.Keys(w.States))
}

// Ref returns the workflow's identity, `<id>/<version>`.
func (w *Workflow) Ref() ident.Ref { return ident.Ref{ID: w.ID, Major: w.Version} }

// GuardedCount returns the number of transitions whose simplified guard is
// not always (documents.md §5.2).
func (w *Workflow) GuardedCount() int {
	n := 0
	for _, t := range w.Transitions {
		if t.Guarded() {
			n++
		}
	}
	return n
}

// Location returns the logical location prefix of the workflow's
// diagnostics: `workflow <id>`.
func (w *Workflow) Location() string { return "workflow " + w.ID }

// State is one state of a workflow.
type State struct {
	// ID is the state identifier (dotted-snake charset), the key in `states`.
	ID string
	// Title is the short human title.
	Title string
	// Summary is what happens here; nil when absent or null.
	Summary *string
	// Terminal says the workflow ends here.
	Terminal bool
	// Phases is the set of phase ids the state belongs to: de-duplicated and
	// byte-sorted.
	Phases []string
	// Requires is what must hold to enter the state (`requires` or `require`).
	Requires RequirementSet
	// Capabilities are the capability adjustments while here.
	Capabilities CapabilityPolicy
	// Irreversible says work done here cannot be undone; it forbids rollback
	// policies.
	Irreversible bool
	// OnFailure is the failure policy (`on_failure` or `failure_policy`); nil
	// when absent or null.
	OnFailure *FailurePolicy
	// Pos is the position of the state's key in `states`.
	Pos diag.Pos

	// shakyTerminal: the state's mapping or its `terminal` value did not
	// decode, so whether it is terminal is unknown.
	shakyTerminal bool
}

// Transition is one transition of a workflow.
type Transition struct {
	// Index is the transition's position in the document (0-based).
	Index int
	// From and To are the state ids the transition joins.
	From, To string
	// When is the guard, already simplified; never nil: predicate.Always{}
	// when `when` is absent or null.
	When predicate.Predicate
	// Requires must also hold for the move (`requires` or `require`).
	Requires RequirementSet
	// OnFailure is the failure policy; nil when absent or null.
	OnFailure *FailurePolicy
	// Description says what the transition means; nil when absent or null.
	Description *string
	// Pos is the position of the transition's mapping (its first key).
	Pos diag.Pos
	// FromPos and ToPos are the positions of the `from` and `to` values.
	FromPos, ToPos diag.Pos
	// WhenPos is the position of the `when` value: a scalar where it
	// starts, a block mapping or sequence where its first key or `-` is.
	// It is the zero Pos when `when` is absent or null; analysis blames a
	// guard there (analysis.md §9.1).
	WhenPos diag.Pos

	// fromSpan and toSpan are the spans of the `from` and `to` values, for
	// fixes (zero when no exact edit is possible).
	fromSpan, toSpan diag.Span
	// shakyFrom and shakyTo: that end is missing or not a valid state id.
	shakyFrom, shakyTo bool
}

// Guarded reports whether the transition's simplified guard is not always:
// a missing `when`, `true`, `always`, `{all: []}` and `[]` are unguarded.
func (t *Transition) Guarded() bool { return t.When != nil && !predicate.IsAlways(t.When) }
