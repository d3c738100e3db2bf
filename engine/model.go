// Package engine gives AEP documents their meaning and runs them
// (engine.md §1–§6). It evaluates the shared document models directly:
// the tree it resolves against is a *tree.Tree, and the documents in it are
// protocol.Protocol, protocol.Principle, protocol.Profile and
// workflow.Workflow, their requirement sets workflow.RequirementSet. It
// resolves a task into a Plan (extends chains, profile merge, principles
// in force, obligations and their timing, completion), builds the fact
// store in its exact order, evaluates requirement sets into rendered lines,
// and answers evaluate and transition for an execution that can be
// snapshotted and restored. It also reads run directories (engine.md §7)
// without ever writing.
//
// What only evaluation needs is a view the engine derives from the shared
// models, never a copy of them: a MergedProtocol and a MergedProfile (a
// chain merged), an Obligation (a principle's timed set with its id), the
// Plan (a task resolved). Artifact kinds are read through their aliases
// (engine.md §2.4) wherever the engine compares or prints one. Requirement
// lines are printed by package reqtext, the printer package render uses too.
//
// It is not a command: flags, files on the command line and exit codes live
// in cmd/aepflow. It is not a decoder of governing documents: only the
// task, the engine's own document, and snapshots are decoded here. It does
// not project or render workflows (packages compiler and render) and it
// never imports them. Evidence records and the artifact graph live in the
// sub-packages evidence and artifact.
package engine

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

// Fact is one named fact value: a task's `constraints.facts`, a profile's
// `facts`, or a plan fact (engine.md §1.3 step 5).
type Fact struct {
	Path  string
	Value predicate.Value
}

// Obligation is one timed requirement set of a principle (engine.md §4.6),
// with the id the engine gives it.
type Obligation struct {
	// ID is `<principle>/<timing slug>` for a set of `requires` and
	// `<principle>/<id>` for an explicit obligation; a repeated id is
	// numbered `-2`, `-3`, … in order.
	ID string
	// Principle is the principle that declares it.
	Principle *protocol.Principle
	// Timing is when it binds, as the principle states it.
	Timing protocol.Timing
	// Requires is the set owed, the principle's own (never nil).
	Requires *workflow.RequirementSet
	// Description is an explicit obligation's `description` (nil for a
	// set of `requires`, or when absent).
	Description *string
	// Pos is where the principle's file writes the timing (see
	// protocol.Requirement.Pos and protocol.Obligation.Pos).
	Pos diag.Pos
}

// Obligations returns the obligations of principle p: the timed sets of
// `requires` (keyed ones in key order, the gathered set last), then the
// explicit obligations in document order (engine.md §4.6). Each call
// builds a fresh slice; the sets are p's own.
func Obligations(p *protocol.Principle) []Obligation {
	return appendObligations(nil, p)
}

// appendObligations appends the obligations of p to dst and returns the
// extended slice (Resolve gathers every principle's into one).
func appendObligations(dst []Obligation, p *protocol.Principle) []Obligation {
	start := len(dst)
	dst = slices.Grow(dst, len(p.Requires)+len(p.Obligations))
	for i := range p.Requires {
		rq := &p.Requires[i]
		dst = append(dst, Obligation{ID: timedID(p.ID, rq.Timing), Principle: p, Timing: rq.Timing, Requires: &rq.Set, Pos: rq.Pos})
	}
	for i := range p.Obligations {
		o := &p.Obligations[i]
		dst = append(dst, Obligation{ID: p.ID + "/" + o.ID, Principle: p, Timing: o.Timing, Requires: &o.Set, Description: o.Description, Pos: o.Pos})
	}
	numberRepeats(dst[start:])
	return dst
}

// numberRepeats suffixes repeated obligation ids with -2, -3, … in order.
// It numbers from the last entry back, so the ids it compares are still
// as built; a principle holds a handful of obligations, so a scan costs
// less than a map.
func numberRepeats(obs []Obligation) {
	for i := len(obs) - 1; i > 0; i-- {
		n := 1
		for j := range i {
			if obs[j].ID == obs[i].ID {
				n++
			}
		}
		if n > 1 {
			obs[i].ID += "-" + itoa(n)
		}
	}
}

// timedID returns the id of principle's set timed t:
// `<principle>/<timing slug>`, the slug `always`, `before-<phase>` or
// `during-<state with . and / as ->` (engine.md §4.6).
func timedID(principle string, t protocol.Timing) string {
	prefix := "/before-"
	switch t.Kind {
	case protocol.Always:
		return principle + "/always"
	case protocol.During:
		prefix = "/during-"
	}
	if t.State != "" {
		return principle + prefix + slugState(t.State)
	}
	return principle + prefix + t.Phase
}

// slugState returns a state id with `.` and `/` as `-`; strings.Map
// returns an id that has neither unchanged.
func slugState(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '/' {
			return '-'
		}
		return r
	}, s)
}

// AppliesIn reports whether the obligation is owed while inside state s:
// it binds always, or during s or a phase of s.
func (o *Obligation) AppliesIn(s *workflow.State) bool {
	return o.Timing.Kind == protocol.Always || appliesWithin(o.Timing, s)
}

// BlocksEntryTo reports whether the obligation must hold before entering
// state s: it binds before s or a phase of s.
func (o *Obligation) BlocksEntryTo(s *workflow.State) bool { return blocksEntryTo(o.Timing, s) }

// OwedAtCompletion reports whether the obligation is owed at completion
// (engine.md §4.7): it binds always, or before one of states that is a
// completion state (terminal, or of phase `completion`).
func (o *Obligation) OwedAtCompletion(states []*workflow.State) bool {
	return o.Timing.Kind == protocol.Always || slices.ContainsFunc(states, func(s *workflow.State) bool {
		return isCompletionState(s) && o.BlocksEntryTo(s)
	})
}
