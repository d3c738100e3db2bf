package engine

import (
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
)

// CheckTree runs the checks of a loaded tree that need the engine's
// resolution, in validate's order: the references between documents
// (CheckReferences), then the vocabulary of every profile's workflow and
// completion (CheckVocabulary). Both read the documents just loaded: one
// load, one parse per file. `aepflow validate` and `aepflow lsp` both run
// it, so the editor reports what validate reports.
func CheckTree(t *tree.Tree) diag.List {
	diags := CheckReferences(t)
	diags.Extend(CheckVocabulary(t))
	return diags
}
