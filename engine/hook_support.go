package engine

import (
	"os"
	"path/filepath"

	"github.com/aepflow/aepflow/diag"
)

// ExtraDir is a directory of documents of one tree kind loaded beside the
// tree: a project's local `principles/` or `profiles/` (engine.md §7.1).
type ExtraDir struct {
	// Kind is one of Dirs: the tree directory whose documents Dir holds.
	Kind string
	// Dir is walked like the tree's own directory of that kind.
	Dir string
}

// LoadDocumentsExtra reads the tree at root as LoadDocuments does, then
// each extra directory in order, and checks identities across all of them
// (a project-local principle with a tree principle's id is a duplicate).
// Each file is read and parsed once.
func LoadDocumentsExtra(root string, extra ...ExtraDir) (*Documents, diag.List) {
	docs := &Documents{}
	var diags diag.List
	load := func(kind, dir string) {
		for _, file := range treeFiles(dir, &diags) {
			data, err := os.ReadFile(file)
			if err != nil {
				diags.Add(diag.Errorf(CodeUnreadable, "cannot read the document: %v", err).InFile(file))
				continue
			}
			LoadDocument(docs, kind, file, data, &diags)
		}
	}
	for _, dir := range Dirs {
		load(dir, filepath.Join(root, dir))
	}
	for _, x := range extra {
		load(x.Kind, x.Dir)
	}
	checkDuplicates(docs, &diags)
	return docs, diags.Sorted()
}
