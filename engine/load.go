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

// ExtraDir is a directory of documents of one tree kind loaded beside the
// tree: a project's local `principles/` or `profiles/` (engine.md §7.1).
type ExtraDir struct {
	// Kind is one of Dirs: the tree directory whose documents Dir holds.
	Kind string
	// Dir is walked like the tree's own directory of that kind.
	Dir string
}

// LoadTree reads the document tree at root (engine.md §1.1) with package
// tree: the directories of Dirs and no other (never drivers/), each walked
// recursively in byte-wise path order, dot-names skipped,
// `.yaml`/`.yml`/`.json` files only; a missing directory is empty. Each
// file is read and parsed once, decoded strictly with the shared models
// (packages protocol and workflow) and validated; a second document of one
// kind with one identity is refused (`duplicate_<kind>`).
//
// Then each extra directory is read, in order, into the same tree, so
// identities are checked across all of them (a project-local principle
// with a tree principle's id is `duplicate_principle`); an extra directory
// of a Kind that is not one of Dirs is skipped. The tree's Root is root.
//
// Every problem is listed, sorted; a tree that holds no document at all is
// empty_tree (tree.RequireDocuments), the cause a task's unresolvable
// protocol would only hint at. The tree holds the documents it kept;
// Resolve and CheckVocabulary read them as they are.
func LoadTree(root string, extra ...ExtraDir) (*tree.Tree, diag.List) {
	return LoadTreeWith(root, tree.Options{}, extra...)
}

// LoadTreeWith is LoadTree keeping what opts says of the files read
// (tree.Options): the transition hook, whose answers are one line, keeps
// no source bytes.
func LoadTreeWith(root string, opts tree.Options, extra ...ExtraDir) (*tree.Tree, diag.List) {
	t, diags := tree.LoadKindsWith(root, opts, docKinds...)
	for _, x := range extra {
		if kind, ok := dirKind(x.Kind); ok {
			diags.Extend(t.AddDir(x.Dir, kind))
		}
	}
	diags.Extend(t.RequireDocuments())
	return t, diags.Sorted()
}

func itoa(n int) string { return strconv.Itoa(n) }
