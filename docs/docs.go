// Package docs embeds the pages of aepflow's documentation that programs
// read: the diagnostic code pages, from which the SARIF printer takes each
// rule's description and help link (package internal/rules). The pages are
// written for people first; this package only makes them available to the
// binary, so that a rule's description cannot drift from its page.
package docs

import "embed"

// CodePages holds the pages that document diagnostic codes, one section per
// code, in the order a code is looked up: a code documented on two pages
// (`unknown_field`, `unknown_state`) links to the first. trace.md documents
// the trace refusal codes in its own sections.
//
//go:embed codes-documents.md codes-workflow.md codes-projection.md flow-codes.md codes-engine.md codes-commands.md codes-analysis.md trace.md
var CodePages embed.FS

// CodePageOrder lists the names of CodePages in lookup order.
var CodePageOrder = []string{"codes-documents.md", "codes-workflow.md", "codes-projection.md", "flow-codes.md", "codes-engine.md", "codes-commands.md", "codes-analysis.md", "trace.md"}
