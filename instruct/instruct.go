// Package instruct turns a validated workflow, the principles of its tree
// that reach it, and optionally a step map into the Markdown document a
// person or an agent reads to act on the workflow (instructions.md): its
// states in layout order, what each move needs, which obligations fall due
// before entering a state and while in it, what the map runs there, and the
// principles that time them. It also writes the index of a directory of
// such documents.
//
// The document is derived, never authored: every title, guard, requirement
// and obligation is the documents' own content; this package contributes
// only connective wording and order. It evaluates nothing — no guard is
// judged, no `applies_when` decided, no task or profile read — and its
// output is deterministic. It is not a loader (package tree loads and
// validates the documents, stepmap selects and cross-validates the map)
// and it writes no files (cmd/aepflow does).
package instruct

import (
	"cmp"
	"slices"

	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

// Document is the model an instructions document is written from (§3): the
// facts in the order they are printed, display forms already applied.
type Document struct {
	// Ref is the workflow's reference `<id>/<version>`.
	Ref string
	// Title is the workflow's title, whitespace collapsed.
	Title string
	// Summary is the workflow's summary, collapsed; empty when absent.
	Summary string
	// Initial is the id of the initial state.
	Initial string
	// Transitions is the number of transitions of the workflow.
	Transitions int
	// Map names the step map whose steps the states carry; nil without one.
	Map *MapInfo
	// States lists every state in layer order, then column order (§3.1).
	States []State
	// Principles lists the principles that bind the workflow, in byte
	// order of their references (§3.2).
	Principles []Principle
}

// MapInfo names a step map and its workflow pin as written.
type MapInfo struct {
	ID, Pin string
}

// State is one state section (§7).
type State struct {
	// Ordinal is the 1-based position in §3.1 order.
	Ordinal int
	// ID and Title are the state's id and title (collapsed).
	ID, Title string
	// Summary is the state's summary, collapsed; empty when absent.
	Summary string
	// Phases are the state's phases in byte order.
	Phases []string
	// Requires are the entry requirement lines.
	Requires []string
	// Before are the obligations owed before the state may be entered; During
	// those owed while in it (§3.3).
	Before, During []ObligationLine
	// Irreversible says work done here is never rolled back.
	Irreversible bool
	// OnFailure is the display of the state's failure policy; empty when
	// the state has none.
	OnFailure string
	// Allow, Deny and Approval are the capability adjustments while here,
	// displayed and in §3.5 order.
	Allow, Deny, Approval []string
	// Mapped says the step map names the state; Steps are its steps then,
	// in the map's order (empty: the driver runs nothing here).
	Mapped bool
	Steps  []Step
	// Moves are the transitions out of the state, in document order.
	Moves []Move
	// Terminal says reaching the state completes the workflow.
	Terminal bool
}

// ObligationLine is one item of a state's obligation lists: the obligation
// id and its label (its description, or its principle's title).
type ObligationLine struct {
	ID, Label string
}

// Step is one step of the map in a state: its kind and its label (§3.4).
type Step struct {
	Kind, Label string
}

// Move is one transition out of a state (§7.3).
type Move struct {
	// To is the target state.
	To string
	// Guard is the display of the simplified guard; empty when unguarded.
	Guard string
	// Retreat says the move leads to a state at or above this one in the
	// layout (the target's layer is not below this state's); SelfLoop that
	// it leads back to this very state.
	Retreat, SelfLoop bool
	// Description is the transition's description, collapsed.
	Description string
	// Requires are the transition's own requirement lines.
	Requires []string
	// OnFailure is the display of its failure policy; empty without one.
	OnFailure string
}

// Principle is one principle section (§8).
type Principle struct {
	// Ref is `<id>/<major>`; Title the principle's title (collapsed).
	Ref, Title string
	// Summary is the principle's summary, collapsed; empty when absent.
	Summary string
	// AppliesWhen is the display of `applies_when`; empty when always.
	AppliesWhen string
	// Obligations are the bound obligations, in the principle's order.
	Obligations []BoundObligation
	// Evidence are the lines of its top-level `evidence:` list.
	Evidence []string
	// Verification are its `verification:` items.
	Verification []VerificationLine
	// Deny, Approval and Allow are its capability policy, displayed and in
	// §3.5 order.
	Deny, Approval, Allow []string
	// OnFailure is the display of its failure policy (`block` by default).
	OnFailure string
	// Elsewhere are the timings of its obligations that land on no state of
	// this workflow, displayed, de-duplicated, in byte order.
	Elsewhere []string
}

// Landing says where a timing lands in the workflow (§3.3).
type Landing struct {
	// Kind is the timing's kind: always, before or during.
	Kind protocol.TimingKind
	// States are the landing states, in id order; empty for always.
	States []string
	// Phase names the phase of a phase timing; empty for a state timing.
	Phase string
}

// BoundObligation is an obligation that reaches the workflow.
type BoundObligation struct {
	// ID is the obligation id (`<principle>/<slug>`).
	ID string
	// Landing is where it falls due.
	Landing Landing
	// Description is an explicit obligation's description, collapsed.
	Description string
	// Requires are its requirement lines.
	Requires []string
}

// VerificationLine is one verification requirement of a principle.
type VerificationLine struct {
	// Text is its statement, `<verifier> must run[ for <claim>][ on a <kind>]`.
	Text string
	// Landing is where its timing lands; nil when it lands nowhere.
	Landing *Landing
}

// Build writes the model of w's instructions: principles are every
// principle of the tree (Build decides which bind), m is the step map the
// states' steps come from (nil for none), already validated and
// cross-validated against w. w must be a validated workflow.
func Build(w *workflow.Workflow, principles []*protocol.Principle, m *stepmap.Map) *Document {
	doc := &Document{
		Ref:         ident.Ref{ID: w.ID, Major: w.Version}.String(),
		Title:       collapse(w.Title),
		Summary:     optional(w.Summary),
		Initial:     w.Initial,
		Transitions: len(w.Transitions),
	}
	if m != nil {
		doc.Map = &MapInfo{ID: m.ID, Pin: m.WorkflowText}
	}
	doc.Principles = bindings(w, principles)
	lay := workflow.ComputeLayout(w)
	for _, layer := range lay.Layers {
		for _, id := range layer {
			doc.States = append(doc.States, buildState(w, lay, id, len(doc.States)+1, m))
		}
	}
	fillObligationLists(doc, principles)
	return doc
}

// optional collapses an optional document string; nil is empty.
func optional(s *string) string {
	if s == nil {
		return ""
	}
	return collapse(*s)
}

// buildState builds the section of state id, without its obligation lists.
func buildState(w *workflow.Workflow, lay *workflow.Layout, id string, ordinal int, m *stepmap.Map) State {
	st := w.States[id]
	s := State{
		Ordinal: ordinal, ID: id, Title: collapse(st.Title), Summary: optional(st.Summary),
		Phases: st.Phases, Requires: requirementLines(st.Requires), Irreversible: st.Irreversible,
		Allow:    capabilityList(st.Capabilities.Allow),
		Deny:     capabilityList(st.Capabilities.Deny),
		Approval: capabilityList(st.Capabilities.ApprovalRequired),
		Terminal: st.Terminal,
	}
	if st.OnFailure != nil {
		s.OnFailure = policyText(st.OnFailure)
	}
	if m != nil {
		if steps, ok := m.States[id]; ok {
			s.Mapped = true
			for _, step := range steps.Steps {
				s.Steps = append(s.Steps, Step{Kind: string(step.Kind), Label: collapse(step.Label())})
			}
		}
	}
	for _, t := range w.Transitions {
		if t.From == id {
			s.Moves = append(s.Moves, buildMove(t, lay))
		}
	}
	return s
}

// buildMove builds one move; a guard that simplified to always is no guard.
func buildMove(t *workflow.Transition, lay *workflow.Layout) Move {
	mv := Move{
		To: t.To, Retreat: lay.IsBack(t.From, t.To), SelfLoop: t.From == t.To,
		Description: optional(t.Description), Requires: requirementLines(t.Requires),
	}
	if t.Guarded() {
		mv.Guard = collapse(t.When.String())
	}
	if t.OnFailure != nil {
		mv.OnFailure = policyText(t.OnFailure)
	}
	return mv
}

// fillObligationLists gives every state its entry and in-state obligation
// lists (§3.3): the bound principles in order, each one's bound
// obligations in order.
func fillObligationLists(doc *Document, principles []*protocol.Principle) {
	titles := map[string]string{}
	for _, p := range principles {
		titles[principleRef(p)] = collapse(p.Title)
	}
	index := map[string]int{}
	for i, s := range doc.States {
		index[s.ID] = i
	}
	for _, p := range doc.Principles {
		for _, o := range p.Obligations {
			line := ObligationLine{ID: o.ID, Label: cmp.Or(o.Description, titles[p.Ref])}
			for _, id := range o.Landing.States {
				s := &doc.States[index[id]]
				if o.Landing.Kind == protocol.During {
					s.During = append(s.During, line)
				} else {
					s.Before = append(s.Before, line)
				}
			}
		}
	}
}

// principleRef is a principle's reference `<id>/<version>`.
func principleRef(p *protocol.Principle) string {
	return ident.Ref{ID: p.ID, Major: max(p.Version, 1)}.String()
}

// sortedByRef returns the principles in byte order of their references.
func sortedByRef(principles []*protocol.Principle) []*protocol.Principle {
	out := slices.Clone(principles)
	slices.SortFunc(out, func(a, b *protocol.Principle) int { return cmp.Compare(principleRef(a), principleRef(b)) })
	return out
}
