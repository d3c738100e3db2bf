package engine

import (
	"strconv"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
)

// Codes the engine's own loader used to report. Loading now goes through
// package tree, which reports `duplicate_<kind>` (tree.DuplicateCode) and
// `io_error` (tree.CodeIOError) instead; the names stay for callers that
// compare against them.
const (
	// CodeDuplicateDocument was reported for two documents of one kind
	// with one identity.
	//
	// Deprecated: nothing reports it any more; the tree reports
	// `duplicate_protocol`, `duplicate_principle`, `duplicate_workflow` or
	// `duplicate_profile` (tree.DuplicateCode).
	CodeDuplicateDocument = "duplicate_document"
	// CodeUnreadable was reported for a file or directory that could not
	// be read.
	//
	// Deprecated: nothing reports it any more; the tree reports
	// `io_error` (tree.CodeIOError).
	CodeUnreadable = "unreadable"
)

// Dirs are the tree directories the engine loads, in load order.
var Dirs = []string{"protocols", "principles", "workflows", "profiles"}

// docKinds are the tree kinds of Dirs, in the same order.
var docKinds = []tree.Kind{tree.KindProtocol, tree.KindPrinciple, tree.KindWorkflow, tree.KindProfile}

// dirKind returns the tree kind of the documents in tree directory dir.
func dirKind(dir string) (tree.Kind, bool) {
	for i, d := range Dirs {
		if d == dir {
			return docKinds[i], true
		}
	}
	return "", false
}

// LoadDocuments reads the document tree at root (engine.md §1.1): the
// directories of Dirs and no other (never drivers/), each walked
// recursively in byte-wise path order, dot-names skipped,
// `.yaml`/`.yml`/`.json` files only; a missing directory is empty. Each
// file is read and parsed once, by package tree, which decodes it strictly
// with the shared models (packages protocol and workflow), validates it and
// refuses a second document of one kind with one identity
// (`duplicate_<kind>`). Every problem is listed, sorted; the documents are
// those the tree kept.
func LoadDocuments(root string) (*Documents, diag.List) {
	docs, _, diags := LoadTree(root)
	return docs, diags
}

// LoadTree is LoadDocuments that also returns the tree it read, for a
// caller that checks more of the same documents (aepflow validate runs
// CheckVocabulary on them without loading them again).
func LoadTree(root string) (*Documents, *tree.Tree, diag.List) {
	t, diags := tree.LoadKinds(root, docKinds...)
	return FromTree(t), t, diags.Sorted()
}

// LoadDocument decodes one file of tree directory dir (protocols,
// principles, workflows or profiles) with the shared decoders and, when its
// shape is sound, appends it to docs. Its problems, validation included,
// go to diags. A dir that is not one of Dirs adds nothing. It checks no
// identity against docs; LoadDocuments and LoadDocumentsExtra do.
func LoadDocument(docs *Documents, dir, file string, data []byte, diags *diag.List) {
	kind, ok := dirKind(dir)
	if !ok {
		return
	}
	d, ds := tree.LoadDocument(file, data, kind)
	diags.Extend(ds)
	if d != nil && !ds.HasErrors() {
		docs.add(kind, file, d.Protocol, d.Principle, d.Workflow, d.Profile)
	}
}

// ExtraDir is a directory of documents of one tree kind loaded beside the
// tree: a project's local `principles/` or `profiles/` (engine.md §7.1).
type ExtraDir struct {
	// Kind is one of Dirs: the tree directory whose documents Dir holds.
	Kind string
	// Dir is walked like the tree's own directory of that kind.
	Dir string
}

// LoadDocumentsExtra reads the tree at root as LoadDocuments does, then
// each extra directory in order into the same registry, so identities are
// checked across all of them (a project-local principle with a tree
// principle's id is `duplicate_principle`). Each file is read and parsed
// once. An extra directory of a Kind that is not one of Dirs is skipped.
func LoadDocumentsExtra(root string, extra ...ExtraDir) (*Documents, diag.List) {
	docs, _, diags := LoadTreeExtra(root, extra...)
	return docs, diags
}

// LoadTreeExtra is LoadDocumentsExtra that also returns the tree it read,
// for a caller that needs the shared models behind the engine's documents
// (aepflow drive transition cross-validates an explicit step map against
// the tree's workflow the task resolved to, without loading it twice). The
// tree holds the extra directories' documents too; its Root is root.
func LoadTreeExtra(root string, extra ...ExtraDir) (*Documents, *tree.Tree, diag.List) {
	t, diags := tree.LoadKinds(root, docKinds...)
	for _, x := range extra {
		if kind, ok := dirKind(x.Kind); ok {
			diags.Extend(t.AddDir(x.Dir, kind))
		}
	}
	return FromTree(t), t, diags.Sorted()
}

func itoa(n int) string { return strconv.Itoa(n) }
