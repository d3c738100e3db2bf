package instruct

import (
	"strconv"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/render"
	"github.com/aepflow/aepflow/workflow"
)

// This file is the one place this package borrows from the engine and the
// renderer: the requirement lines (one printer, the scene's) and the
// obligation ids of engine.md §4.6. Everything else reads the shared models
// (packages workflow, protocol, stepmap) directly.

// requirementLines returns the display lines of a requirement set, in the
// order of rendering.md §2, collapsed to one line each.
func requirementLines(s workflow.RequirementSet) []string {
	lines := render.RequirementLines(s)
	for i, l := range lines {
		lines[i] = collapse(l)
	}
	return lines
}

// evidenceLines returns the display lines of a principle's top-level
// `evidence:` list.
func evidenceLines(items []workflow.EvidenceReq) []string {
	return requirementLines(workflow.RequirementSet{Evidence: items})
}

// verificationText is the display of a principle's verification item:
// `<verifier> must run[ for <claim>][ on a <kind>]`.
func verificationText(v protocol.Verification) string {
	return collapse(engine.VerificationText(engine.Verification{Verifier: v.Verifier, Claim: v.Claim, SubjectKind: v.SubjectKind}))
}

// obligation is one of a principle's obligations (engine.md §4.6): its id,
// its timing, what it requires and, for an explicit obligation, its
// description.
type obligation struct {
	id          string
	timing      protocol.Timing
	set         workflow.RequirementSet
	description *string
}

// obligationsOf returns p's obligations in the engine's order: the timed
// sets of `requires` (keyed ones in key order, the gathered set last), then
// the explicit `obligations[]`; ids are `<principle>/<timing slug>` and
// `<principle>/<id>`, a repeated id numbered `-2`, `-3`, ….
func obligationsOf(p *protocol.Principle) []obligation {
	var out []obligation
	for _, rq := range p.Requires {
		out = append(out, obligation{id: p.ID + "/" + engineTiming(rq.Timing).Slug(), timing: rq.Timing, set: rq.Set})
	}
	for _, o := range p.Obligations {
		out = append(out, obligation{id: p.ID + "/" + o.ID, timing: o.Timing, set: o.Set, description: o.Description})
	}
	seen := map[string]int{}
	for i := range out {
		id := out[i].id
		if seen[id]++; seen[id] > 1 {
			out[i].id = id + "-" + strconv.Itoa(seen[id])
		}
	}
	return out
}

// engineTiming is the engine's view of a timing, for its slug.
func engineTiming(t protocol.Timing) engine.Timing {
	switch t.Kind {
	case protocol.Always:
		return engine.Timing{Kind: engine.Always}
	case protocol.During:
		return engine.Timing{Kind: engine.During, Phase: t.Phase, State: t.State}
	}
	return engine.Timing{Kind: engine.Before, Phase: t.Phase, State: t.State}
}
