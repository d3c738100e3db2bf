// Package engine gives AEP documents their meaning and runs them
// (engine.md §1–§6): it loads the document tree (protocols, principles,
// workflows, profiles), resolves a task into a plan (extends chains,
// profile merge, principles in force, obligations and their timing,
// completion), builds the fact store in its exact order, evaluates
// requirement sets into rendered lines, and answers evaluate and transition
// for an execution that can be snapshotted and restored. It also reads run
// directories (engine.md §7) without ever writing.
//
// It is not a command: flags, files on the command line and exit codes live
// in cmd/aepflow. It does not project or render workflows (packages
// compiler and render) and it never imports them. Evidence records and the
// artifact graph live in the sub-packages evidence and artifact.
package engine

import (
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
)

// Scale is one ordered list of texts from a protocol's `scales`, lowest
// first.
type Scale struct {
	Name   string
	Values []string
}

// Protocol is a loaded protocol document (only what the engine reads).
type Protocol struct {
	ID            string
	Version       uint32
	Extends       *ident.Ref
	Phases        []string
	EvidenceKinds []string
	Verifiers     []string
	ArtifactKinds []string
	Observables   []string
	Scales        []Scale
	File          string
}

// Ref returns the protocol's pinned reference `<id>/<version>`.
func (p *Protocol) Ref() string { return ident.Ref{ID: p.ID, Major: p.Version}.String() }

// TimingKind says when an obligation holds.
type TimingKind int

const (
	// Before: the obligation must hold before entering its target.
	Before TimingKind = iota
	// During: the obligation must hold while inside its target.
	During
	// Always: the obligation holds in every state and move.
	Always
)

// Timing is an obligation's timing: Kind with a target phase or state.
type Timing struct {
	Kind  TimingKind
	Phase string
	State string
}

// Slug returns the timing's obligation-id part: `always`,
// `before-<phase>`, `during-<state with . and / as ->`.
func (t Timing) Slug() string {
	var prefix string
	switch t.Kind {
	case Always:
		return "always"
	case Before:
		prefix = "before-"
	default:
		prefix = "during-"
	}
	if t.State != "" {
		return prefix + slugState(t.State)
	}
	return prefix + t.Phase
}

// Obligation is one timed requirement set of a principle.
type Obligation struct {
	ID        string
	Principle string
	Timing    Timing
	Requires  *ReqSet
}

// Verification is a principle's `verification:` item: the verifier must
// have spoken (engine.md §4.2).
type Verification struct {
	Verifier    string
	Claim       string
	SubjectKind string
}

// Principle is a loaded principle document.
type Principle struct {
	ID           string
	Version      uint32
	AppliesWhen  predicate.Predicate
	Obligations  []Obligation
	Evidence     []EvidenceReq
	Verification []Verification
	File         string
}

// Fact is one named fact value from a profile's or task's `facts`.
type Fact struct {
	Path  string
	Value predicate.Value
}

// Profile is a loaded profile document (before merging its extends chain).
type Profile struct {
	ID         string
	Version    uint32
	Protocol   ident.Ref
	Extends    string
	Workflow   *ident.Ref
	Principles []string
	Without    []string
	Completion *ReqSet
	Facts      []Fact
	File       string
}

// State is one workflow state.
type State struct {
	ID       string
	Terminal bool
	Phases   []string
	Requires *ReqSet
}

// Transition is one workflow transition; When is Always when absent.
type Transition struct {
	From, To string
	When     predicate.Predicate
	Requires *ReqSet
}

// Workflow is a loaded workflow: states in document order, transitions in
// document order.
type Workflow struct {
	ID          string
	Version     uint32
	Initial     string
	States      []*State
	Transitions []Transition
	File        string
}

// State returns the state with id, or nil.
func (w *Workflow) State(id string) *State {
	for _, s := range w.States {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Ref returns `<id>/<version>`.
func (w *Workflow) Ref() string { return ident.Ref{ID: w.ID, Major: w.Version}.String() }

// Documents is a loaded document tree: the four directories the engine
// needs, each kind in load order.
type Documents struct {
	Protocols  []*Protocol
	Principles []*Principle
	Workflows  []*Workflow
	Profiles   []*Profile
}
