package tree

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// RowOf returns the kind of the row of t that file belongs to, as the
// function RowOf does, and false as well for a row t did not read.
func (t *Tree) RowOf(file string) (Kind, bool) {
	k, ok := RowOf(t.Root, file)
	return k, ok && slices.Contains(t.kinds, k)
}

// RowOf returns the kind of the row of the tree at root that file belongs
// to: file lies below root/<row directory>/, no path element below the row
// directory starts with `.` (Load skips those), and its extension is a
// document's (.yaml, .yml, .json). ok is false for any other path, which
// Load would never read. file and root are compared as cleaned paths.
func RowOf(root, file string) (Kind, bool) {
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(file))
	if err != nil {
		return "", false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, row := range Rows {
		dir := strings.Split(row.Dir, "/")
		if len(parts) <= len(dir) || !slices.Equal(parts[:len(dir)], dir) {
			continue
		}
		if !IsDocumentPath(strings.Join(parts[len(dir):], "/")) {
			return "", false
		}
		return row.Kind, true
	}
	return "", false
}

// WithFile returns the tree Load would return had file held data: a new
// Tree in which file (added when t did not hold it) is parsed, decoded and
// validated from data, every other document is reused as t read it, and
// the registry and the cross-document checks run again. The diagnostics
// are the whole tree's, in the order Load reports them. ok is false, and t
// is returned, when file is not a document of one of t's rows (RowOf).
//
// t itself is never changed, so a reader may keep using it while the new
// tree is built; the two share every unchanged document. WithFile is for
// trees made by Load, LoadKinds or LoadSources: it keeps directories added
// by AddDir, but runs the cross-document checks after them. The bound on
// a whole tree's bytes (MaxTreeBytes) is Load's: files it refused stay
// refused, and the new bytes are held to the one file's bound.
func (t *Tree) WithFile(file string, data []byte) (*Tree, diag.List, bool) {
	file = filepath.Clean(file)
	kind, ok := t.RowOf(file)
	if !ok {
		return t, nil, false
	}
	file = t.pathOf(file)
	next, diags := t.rebuild(t.replaced(file, parseEntry(file, kind, data, t.opts)))
	return next, diags, true
}

// WithoutFile returns the tree Load would return had file been deleted.
func (t *Tree) WithoutFile(file string) (*Tree, diag.List) {
	return t.rebuild(t.replaced(t.pathOf(filepath.Clean(file)), nil))
}

// Reread returns the tree Load would return with file as it is on disk
// now: read again when it exists, dropped when it does not. ok is false,
// and t is returned, when file is not a document of one of t's rows.
func (t *Tree) Reread(file string) (*Tree, diag.List, bool) {
	file = filepath.Clean(file)
	kind, ok := t.RowOf(file)
	if !ok {
		return t, nil, false
	}
	if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		next, diags := t.WithoutFile(file)
		return next, diags, true
	}
	file = t.pathOf(file)
	// A scratch tree's budget: t must not change, and the one file's own
	// bound (yamldoc.MaxFileSize) still applies.
	next, diags := t.rebuild(t.replaced(file, (&Tree{}).readEntry(file, kind)))
	return next, diags, true
}

// pathOf spells file the way the walk spells it: the row directory as
// filepath.Join(root, dir) makes it, then the rest of the path.
func (t *Tree) pathOf(file string) string {
	rel, err := filepath.Rel(filepath.Clean(t.Root), file)
	if err != nil {
		return file
	}
	return filepath.Join(t.Root, rel)
}

// replaced returns t's entries with the entry of file (spelled as pathOf
// spells it) swapped for e: inserted in load order when t had none for
// file, removed when e is nil.
func (t *Tree) replaced(file string, e *entry) []*entry {
	out := make([]*entry, 0, len(t.entries)+1)
	placed := e == nil
	for _, old := range t.entries {
		if old.file.Path != "" && old.file.Path == file {
			if !placed {
				out = append(out, e)
				placed = true
			}
			continue
		}
		if !placed && loadsAfter(old, e) {
			out = append(out, e)
			placed = true
		}
		out = append(out, old)
	}
	if !placed {
		out = append(out, e)
	}
	return out
}

// loadsAfter reports whether Load reads old after e: a later row, or the
// same row and a greater path.
func loadsAfter(old, e *entry) bool {
	ro, re := rowIndex(old.file.Kind), rowIndex(e.file.Kind)
	return ro > re || (ro == re && old.file.Path != "" && old.file.Path > e.file.Path)
}

func rowIndex(k Kind) int {
	return slices.IndexFunc(Rows, func(r Row) bool { return r.Kind == k })
}

// rebuild registers entries into a new tree in order and runs the
// cross-document checks, returning every diagnostic as Load would.
func (t *Tree) rebuild(entries []*entry) (*Tree, diag.List) {
	next := newTree(t.Root)
	next.kinds, next.opts = t.kinds, t.opts
	var diags diag.List
	for _, e := range entries {
		diags.Extend(next.admit(e))
	}
	diags.Extend(next.crossCheck())
	return next, diags
}
