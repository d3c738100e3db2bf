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
	"strings"

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
}

// Obligations returns the obligations of principle p: the timed sets of
// `requires` (keyed ones in key order, the gathered set last), then the
// explicit obligations in document order (engine.md §4.6). Each call
// builds a fresh slice; the sets are p's own.
func Obligations(p *protocol.Principle) []Obligation {
	out := make([]Obligation, 0, len(p.Requires)+len(p.Obligations))
	for i := range p.Requires {
		rq := &p.Requires[i]
		out = append(out, Obligation{ID: p.ID + "/" + timingSlug(rq.Timing), Principle: p, Timing: rq.Timing, Requires: &rq.Set})
	}
	for i := range p.Obligations {
		o := &p.Obligations[i]
		out = append(out, Obligation{ID: p.ID + "/" + o.ID, Principle: p, Timing: o.Timing, Requires: &o.Set})
	}
	return numberRepeats(out)
}

// numberRepeats suffixes repeated obligation ids with -2, -3, …
func numberRepeats(obs []Obligation) []Obligation {
	count := map[string]int{}
	for i := range obs {
		id := obs[i].ID
		count[id]++
		if count[id] > 1 {
			obs[i].ID = id + "-" + itoa(count[id])
		}
	}
	return obs
}

// timingSlug returns a timing's obligation-id part: `always`,
// `before-<phase>`, `during-<state with . and / as ->`.
func timingSlug(t protocol.Timing) string {
	var prefix string
	switch t.Kind {
	case protocol.Always:
		return "always"
	case protocol.During:
		prefix = "during-"
	default:
		prefix = "before-"
	}
	if t.State != "" {
		return prefix + slugState(t.State)
	}
	return prefix + t.Phase
}

func slugState(s string) string {
	return strings.NewReplacer(".", "-", "/", "-").Replace(s)
}

// AppliesIn reports whether the obligation is owed while inside state s:
// it binds always, or during s or a phase of s.
func (o *Obligation) AppliesIn(s *workflow.State) bool {
	return o.Timing.Kind == protocol.Always || appliesWithin(o.Timing, s)
}

// BlocksEntryTo reports whether the obligation must hold before entering
// state s: it binds before s or a phase of s.
func (o *Obligation) BlocksEntryTo(s *workflow.State) bool { return blocksEntryTo(o.Timing, s) }
