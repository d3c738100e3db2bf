// Package semdiff compares two versions of a workflow, or of a step map, by
// meaning, and returns a typed change set: what a reviewer of a pull
// request needs to see, keyed by ids rather than by lines. Comments, key
// order, YAML quoting and every other spelling the loaders erase are no
// change; a guard is compared in its canonical form (predicate.Canonical),
// so a reordered conjunction is no change either; transitions are keyed by
// (from, to, occurrence) and their order out of each state, which decides
// which one the engine takes, is compared too. A workflow's change set
// says whether its behaviour changed, flags a behaviour change under an
// unchanged version, and says what the change does to the projected flow
// and to the diagram.
//
// It compares validated models only: it neither reads files nor judges
// documents (packages tree, workflow and stepmap do), and it prints the
// change sets as text, JSON or Markdown but writes no file.
package semdiff

import (
	"cmp"
	"reflect"
	"slices"

	"github.com/aepflow/aepflow/tree"
)

// Kind names the kind of a compared document.
type Kind string

// The two kinds semdiff compares.
const (
	KindWorkflow Kind = "workflow"
	KindStepMap  Kind = "step_map"
)

// Pair is an old and a new value.
type Pair[T any] struct {
	Old T `json:"old"`
	New T `json:"new"`
}

// Field is one changed field: its name as the document spells it and the
// old and new values (a string, a bool, a number, a list of strings, a
// Capabilities, or nil for an absent value).
type Field struct {
	Field string `json:"field"`
	Old   any    `json:"old"`
	New   any    `json:"new"`
	// behaviour says the field changes what the engine or the projection
	// does (not a title, summary or description).
	behaviour bool
}

// Document is the change set of one document: a *WorkflowChange or a
// *StepMapChange.
type Document interface {
	// DocID returns the document's id (the new one when the two differ).
	DocID() string
	// DocKind returns the document's kind.
	DocKind() Kind
	// Changed reports whether anything at all changed.
	Changed() bool
	// Summary returns a short description of the change for a table:
	// "3 states, 2 transitions", "no change".
	Summary() string
}

// Ref names a document of a tree.
type Ref struct {
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	File string `json:"file"`
}

// Report is the result of a comparison: one document compared with another
// (Documents holds its change set, changed or not), or two trees compared
// (Documents holds the documents that changed, in kind then id order, and
// Added, Removed and Unchanged the others).
type Report struct {
	// Trees is set when two trees were compared.
	Trees bool
	// Against names the old side of a tree comparison (a git revision).
	Against   string
	Documents []Document
	Added     []Ref
	Removed   []Ref
	Unchanged []Ref
}

// Changed reports whether the report holds any change: a changed document,
// or a document added or removed.
func (r *Report) Changed() bool {
	if len(r.Added) > 0 || len(r.Removed) > 0 {
		return true
	}
	return slices.ContainsFunc(r.Documents, Document.Changed)
}

// Single returns the report of one document compared with another.
func Single(d Document) *Report { return &Report{Documents: []Document{d}} }

// CompareTrees compares the workflows and step maps of two trees, matched
// by id. against names the old side for the report.
func CompareTrees(against string, oldT, newT *tree.Tree) *Report {
	r := &Report{Trees: true, Against: against}
	for _, id := range unionKeys(oldT.WorkflowIDs(), newT.WorkflowIDs()) {
		o, n := oldT.Workflows[id], newT.Workflows[id]
		switch {
		case o == nil:
			r.Added = append(r.Added, Ref{id, KindWorkflow, n.File})
		case n == nil:
			r.Removed = append(r.Removed, Ref{id, KindWorkflow, o.File})
		default:
			r.add(Workflows(o, n), n.File)
		}
	}
	for _, id := range unionKeys(oldT.StepMapIDs(), newT.StepMapIDs()) {
		o, n := oldT.StepMaps[id], newT.StepMaps[id]
		switch {
		case o == nil:
			r.Added = append(r.Added, Ref{id, KindStepMap, n.File})
		case n == nil:
			r.Removed = append(r.Removed, Ref{id, KindStepMap, o.File})
		default:
			r.add(StepMaps(o, n), n.File)
		}
	}
	return r
}

// add files d under Documents when it changed, else under Unchanged.
func (r *Report) add(d Document, file string) {
	if d.Changed() {
		r.Documents = append(r.Documents, d)
		return
	}
	r.Unchanged = append(r.Unchanged, Ref{d.DocID(), d.DocKind(), file})
}

// unionKeys merges two sorted id lists into one, sorted, without repeats.
func unionKeys(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// field returns a Field when old and new differ by the key function same,
// and nothing otherwise.
func field[T any](name string, behaviour bool, old, new T, key func(T) string, show func(T) any) []Field {
	if key(old) == key(new) {
		return nil
	}
	o, n := show(old), show(new)
	if reflect.DeepEqual(o, n) {
		// The display hides the change (a requirement `x == "0"` prints as
		// `x == 0`): show the keys, which tell the values apart.
		o, n = key(old), key(new)
	}
	return []Field{{Field: name, Old: o, New: n, behaviour: behaviour}}
}

// optText shows an optional text as itself or nil.
func optText(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// optTextKey compares optional texts, absent apart from empty.
func optTextKey(s *string) string {
	if s == nil {
		return "\x00absent"
	}
	return *s
}

// textKey is a text's own key.
func textKey(s string) string { return s }

// itself is the identity, for fields shown as they are.
func itself[T any](v T) any { return v }

// nonNil returns s, or an empty slice for nil, so that JSON says [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// byID orders values by an id.
func byID[T any](id func(T) string) func(a, b T) int {
	return func(a, b T) int { return cmp.Compare(id(a), id(b)) }
}
