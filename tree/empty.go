package tree

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/suggest"
)

// CodeEmptyTree: the tree holds no document at all.
const CodeEmptyTree = "empty_tree"

// Bounds of the search for nearby trees: it must stay cheap when the root
// is a large directory (a home directory, a monorepo).
const (
	nearbyUp       = 3   // ancestors looked at
	nearbyDown     = 2   // levels of subdirectories looked at
	nearbyDirs     = 256 // subdirectories looked at, at most
	nearbyEntries  = 4096
	nearbyReported = 3
)

// RequireDocuments returns an empty_tree error when the tree holds no
// document: a root with none of the tree's directories, or only empty ones,
// is almost always a wrong --root (one level too deep, such as
// `tree/workflows`, or too high), and a check that validates nothing must
// not pass. The message names the directories that were read (those of
// the kinds LoadKinds was given). The hint names nearby directories that
// do hold a tree: the root's subdirectories two levels down and its
// ancestors three levels up. A tree with a directory that could not be
// walked is not said to be empty: that directory's own error is the cause,
// and it may hold documents.
func (t *Tree) RequireDocuments() diag.List {
	if len(t.Files) > 0 || t.unwalked {
		return nil
	}
	var dirs []string
	for _, r := range Rows {
		if t.kinds == nil || slices.Contains(t.kinds, r.Kind) {
			dirs = append(dirs, r.Dir+"/")
		}
	}
	d := diag.Errorf(CodeEmptyTree, "the tree at `%s` holds no documents: none of %s holds a .yaml, .yml or .json file",
		t.Root, suggest.OrList(dirs)).WithPath("--root")
	if near := NearbyTrees(t.Root); len(near) > 0 {
		quoted := make([]string, len(near))
		for i, n := range near {
			quoted[i] = "`" + n + "`"
		}
		which := "give it as the root"
		if len(near) > 1 {
			which = "give one as the root"
		}
		d = d.WithHint("%s a document tree; %s (--root %s)", suggest.OrList(quoted)+holdVerb(len(near)), which, near[0])
	} else {
		d = d.WithHint("give as the root the directory that holds protocols/, workflows/, drivers/ and the others")
	}
	return diag.List{d}
}

func holdVerb(n int) string {
	if n == 1 {
		return " holds"
	}
	return " hold"
}

// NearbyTrees returns up to three directories near root that hold a tree
// (a row directory with a document in it): root's subdirectories first,
// breadth first in byte order, then its ancestors, nearest first. The
// search is bounded in directories and entries read.
func NearbyTrees(root string) []string {
	var found []string
	budget := nearbyEntries
	level := []string{root}
	seen := 0
	for depth := 0; depth < nearbyDown && len(found) < nearbyReported; depth++ {
		var next []string
		for _, dir := range level {
			// Stat first: opening a named pipe given as the root would
			// block.
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				continue
			}
			entries, err := fsio.ReadDir(dir, nearbyEntries)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || seen >= nearbyDirs {
					continue
				}
				seen++
				sub := filepath.Join(dir, e.Name())
				next = append(next, sub)
				if len(found) < nearbyReported && holdsTree(sub, &budget) {
					found = append(found, sub)
				}
			}
		}
		level = next
	}
	up := root
	for i := 0; i < nearbyUp && len(found) < nearbyReported; i++ {
		parent := filepath.Join(up, "..")
		if abs, err := filepath.Abs(parent); err != nil || abs == mustAbs(up) {
			break
		}
		up = parent
		if holdsTree(up, &budget) && !slices.Contains(found, up) {
			found = append(found, up)
		}
	}
	return found
}

func mustAbs(p string) string {
	abs, _ := filepath.Abs(p)
	return abs
}

// holdsTree reports whether one of dir's row directories holds a document
// file, reading at most *budget directory entries in all.
func holdsTree(dir string, budget *int) bool {
	for _, r := range Rows {
		row := filepath.Join(dir, filepath.FromSlash(r.Dir))
		if st, err := os.Stat(row); err != nil || !st.IsDir() {
			continue
		}
		w := walk{keep: isDocument, limit: *budget}
		err := w.root(row)
		*budget -= w.seen
		if err == nil && len(w.files) > 0 {
			return true
		}
		if *budget <= 0 {
			return false
		}
	}
	return false
}
