package lsp

import (
	"github.com/aepflow/aepflow/internal/rules"
	"github.com/aepflow/aepflow/tree"
)

// workflowPage is the code page of the workflow rules: a workflow's
// diagnostic links there when the page documents its code, since a code
// such as unknown_state is documented for workflows and step maps apart.
const workflowPage = "codes-workflow.md"

// docsURL returns the link to a code's documentation for a document of
// kind: the section of the workflow page for a workflow's code it
// documents, else what SARIF links (internal/rules, the one mapping from a
// code to its section, with its fallback for a code no page documents).
func docsURL(kind tree.Kind, code string) string {
	if kind == tree.KindWorkflow {
		if r, ok := rules.LookupOn(workflowPage, code); ok {
			return r.HelpURI
		}
	}
	return rules.Lookup(code).HelpURI
}
