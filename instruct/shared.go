package instruct

import (
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
)

// This file is the one place this package borrows from the engine and the
// printer of requirement lines: the lines themselves (package reqtext, as
// the renderers print them) and the obligations of engine.md §4.6, ids
// included (engine.Obligations). Everything else reads the shared models
// (packages workflow, protocol, stepmap) directly.

// requirementLines returns the display lines of a requirement set, in the
// order of rendering.md §2, collapsed to one line each.
func requirementLines(s workflow.RequirementSet) []string {
	lines := reqtext.Render.Lines(s)
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
	return collapse(reqtext.Verification(v))
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

// obligationsOf returns p's obligations as the engine names and orders
// them (engine.Obligations): the timed sets of `requires` (keyed ones in
// key order, the gathered set last), then the explicit `obligations[]`;
// ids are `<principle>/<timing slug>` and `<principle>/<id>`, a repeated
// id numbered `-2`, `-3`, ….
func obligationsOf(p *protocol.Principle) []obligation {
	var out []obligation
	for _, o := range engine.Obligations(p) {
		out = append(out, obligation{id: o.ID, timing: o.Timing, set: *o.Requires, description: o.Description})
	}
	return out
}
