package tree

import (
	"cmp"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// Source is one document file of a tree given as bytes rather than read
// from disk: a file of a git revision, say.
type Source struct {
	// Path is the file as diagnostics report it.
	Path string
	// Kind is the kind of the row the file sits in.
	Kind Kind
	// Data is the file's contents.
	Data []byte
}

// LoadSources builds a tree from documents already read, as Load builds one
// from a directory: the sources in load order (the row order of Rows, then
// byte order of Path, whatever order they are given in), each parsed and
// decoded strictly and validated, identities registered
// (duplicate_<kind>), then the registry-wide checks. The caller decides
// which files belong (see IsDocumentPath) and bounds what it reads; a
// source over yamldoc.MaxFileSize is still refused here.
func LoadSources(root string, sources []Source) (*Tree, diag.List) {
	rank := func(k Kind) int { return slices.IndexFunc(Rows, func(r Row) bool { return r.Kind == k }) }
	ordered := slices.Clone(sources)
	slices.SortStableFunc(ordered, func(a, b Source) int {
		return cmp.Or(cmp.Compare(rank(a.Kind), rank(b.Kind)), strings.Compare(a.Path, b.Path))
	})
	t := newTree(root)
	t.kinds = slices.Clone(Kinds)
	var diags diag.List
	for _, s := range ordered {
		diags.Extend(t.admit(parseEntry(s.Path, s.Kind, s.Data, t.opts)))
	}
	diags.Extend(t.crossCheck())
	return t, diags
}

// IsDocumentPath reports whether the walk of a row collects the file at
// rel, a slash-separated path below the row's directory: no component
// starts with `.` (a dot directory is skipped whole) and the name ends in
// .yaml, .yml or .json (documents.md §2.2).
func IsDocumentPath(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || strings.HasPrefix(p, ".") {
			return false
		}
	}
	return isDocument(parts[len(parts)-1])
}
