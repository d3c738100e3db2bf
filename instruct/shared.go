package instruct

import (
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
)

// This file holds what this package borrows from the printer of
// requirement lines (package reqtext, as the renderers print them); the
// obligations of engine.md §4.6, ids included, are engine.Obligations
// (bind.go). Everything else reads the shared models (packages workflow,
// protocol, stepmap) directly.

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
