package diag

import (
	"errors"
	"slices"
	"strings"
)

// List is an ordered collection of diagnostics. The zero List is empty and
// ready to use.
type List []Diagnostic

// Add appends diagnostics to l.
func (l *List) Add(ds ...Diagnostic) { *l = append(*l, ds...) }

// Extend appends every diagnostic of other to l.
func (l *List) Extend(other List) { *l = append(*l, other...) }

// HasErrors reports whether any diagnostic in l has Error severity.
func (l List) HasErrors() bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Severity == Error })
}

// Errors returns the diagnostics of Error severity, in order.
func (l List) Errors() List {
	return slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != Error })
}

// Count returns the number of errors and warnings in l.
func (l List) Count() (errs, warnings int) {
	for _, d := range l {
		if d.Severity == Error {
			errs++
		} else {
			warnings++
		}
	}
	return errs, warnings
}

// Codes returns the code of every diagnostic, in order; handy in tests.
func (l List) Codes() []string {
	codes := make([]string, len(l))
	for i, d := range l {
		codes[i] = d.Code
	}
	return codes
}

// Sorted returns a copy of l ordered by file, line, column and code
// (positionless diagnostics last, emission order kept among equals) with exact
// duplicates removed.
func (l List) Sorted() List {
	out := slices.Clone(l)
	slices.SortStableFunc(out, compare)
	return slices.CompactFunc(out, equal)
}

func equal(a, b Diagnostic) bool {
	return a.Code == b.Code && a.Severity == b.Severity && a.File == b.File &&
		a.Pos == b.Pos && a.End == b.End && a.Path == b.Path &&
		a.Message == b.Message && a.Hint == b.Hint && slices.Equal(a.Related, b.Related) &&
		slices.Equal(a.Fixes, b.Fixes)
}

// Err returns nil when l holds no error, otherwise an error whose message is
// every error-severity diagnostic's Error() on its own line. The returned
// error unwraps to the List (errors.As with *ListError).
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return &ListError{List: l.Sorted()}
}

// ListError is the error form of a List that holds at least one error.
type ListError struct {
	List List
}

// Error joins the diagnostics' Error() strings with newlines.
func (e *ListError) Error() string {
	lines := make([]string, len(e.List))
	for i, d := range e.List {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// AsList extracts the diagnostics carried by err (a *ListError or a
// Diagnostic), reporting false when err carries none.
func AsList(err error) (List, bool) {
	var le *ListError
	if errors.As(err, &le) {
		return le.List, true
	}
	var d Diagnostic
	if errors.As(err, &d) {
		return List{d}, true
	}
	return nil, false
}
