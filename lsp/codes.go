package lsp

import (
	"slices"

	"github.com/aepflow/aepflow/tree"
)

// docsBase is where the documentation pages are read on the web; a
// diagnostic's codeDescription points at its code's section there.
const docsBase = "https://github.com/aepflow/aepflow/blob/main/docs/"

// The codes documented with an example in docs/codes-workflow.md and
// docs/codes-documents.md, each a section whose heading is the code (so
// its anchor is the code). TestDocumentedCodes keeps the lists equal to
// the pages' headings.
var (
	workflowPageCodes = []string{
		"conflicting_alias", "dead_end_state", "duplicate_transition", "empty_workflow",
		"incomplete_rollback_policy", "invalid_identifier", "invalid_predicate", "invalid_reference",
		"invalid_value", "missing_field", "rollback_on_irreversible_state", "unknown_field",
		"unknown_initial_state", "unknown_state", "unreachable_state", "wrong_type",
	}
	documentsPageCodes = []string{
		"conflicting_alias", "duplicate_key", "duplicate_lifecycle", "duplicate_principle",
		"duplicate_profile", "duplicate_protocol", "duplicate_step_map", "duplicate_workflow",
		"empty_declaration", "input_too_large", "invalid_identifier", "invalid_reference",
		"invalid_value", "misplaced_document", "missing_declaration", "missing_field",
		"no_verifier_for_evidence", "non_string_key", "undeclared_reference", "unknown_document_kind",
		"unknown_field", "unknown_phase", "unknown_state", "unknown_step_map", "unknown_workflow",
		"unsupported_construct", "unsupported_format_version", "version_mismatch", "wrong_type",
		"yaml_alias", "yaml_syntax",
	}
)

// engineCodes are documented in docs/engine.md's list of codes.
var engineCodes = []string{"unobservable_fact"}

// docsURL returns the page section that documents code for a document of
// kind: a workflow's codes on the workflow page when it has them, every
// other document's on the documents page; "" for a code no page
// documents. It is the one mapping from a code to its documentation.
func docsURL(kind tree.Kind, code string) string {
	switch {
	case kind == tree.KindWorkflow && slices.Contains(workflowPageCodes, code):
		return docsBase + "codes-workflow.md#" + code
	case slices.Contains(documentsPageCodes, code):
		return docsBase + "codes-documents.md#" + code
	case slices.Contains(workflowPageCodes, code):
		return docsBase + "codes-workflow.md#" + code
	case slices.Contains(engineCodes, code):
		return docsBase + "engine.md#diagnostic-codes"
	}
	return ""
}
