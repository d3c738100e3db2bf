// Package diag is the one diagnostic model of aepflow: a positioned, coded
// problem report, a list that sorts and dedupes, and printers for text, JSON
// and SARIF 2.1.0.
//
// Every loader, validator and checker in aepflow reports through this package,
// so that a problem found in a workflow, a step map, a flow document or a trace
// specification reads the same way and prints in the same shapes. It is not a
// logging package: it holds no state and writes only when a printer is called.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity says whether a diagnostic fails a command (Error) or only informs
// (Warning).
type Severity int

const (
	// Error is a problem that makes the command fail.
	Error Severity = iota
	// Warning is a problem worth reading that does not fail the command.
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText encodes the severity as its String form.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Pos is a position in a source file. Line and Column are 1-based and the
// column counts Unicode code points (as go.yaml.in/yaml/v3 reports them). The
// zero Pos means "no position known".
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// IsValid reports whether p names a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Span is a range in a source file, from Start to End (End may be the zero Pos
// when the end is not known).
type Span struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// Related is a secondary location that helps explain a diagnostic, such as
// the first occurrence of a duplicated key.
type Related struct {
	File    string `json:"file,omitempty"`
	Pos     Pos    `json:"pos"`
	Message string `json:"message"`
}

// Diagnostic is one problem report.
//
// Code is a stable snake_case identifier (never reused or renamed; the trace
// refusals keep the reference's TRACE-SPEC-00n codes). File and Pos locate the
// blamed source node when there is one; Path is the logical document path
// (for example "workflow adp/default.transitions[3].to"), which survives
// reformatting. Message is one sentence starting in lower case; Hint is an
// optional suggestion.
type Diagnostic struct {
	Code     string    `json:"code"`
	Severity Severity  `json:"severity"`
	File     string    `json:"file,omitempty"`
	Pos      Pos       `json:"pos"`
	End      Pos       `json:"end"`
	Path     string    `json:"path,omitempty"`
	Message  string    `json:"message"`
	Hint     string    `json:"hint,omitempty"`
	Related  []Related `json:"related,omitempty"`
	// Fixes are machine-applicable edits that resolve the problem (a
	// did-you-mean replacement, say); an editor offers them as code actions.
	Fixes []Fix `json:"fixes,omitempty"`
}

// Fix is one machine-applicable edit: replace the text of File between
// Span.Start and Span.End (1-based lines, columns in code points, End
// exclusive) with NewText. Title says what the edit does, for a person
// choosing among several ("replace `reveiw` with `review`").
type Fix struct {
	Title   string `json:"title"`
	File    string `json:"file,omitempty"`
	Span    Span   `json:"span"`
	NewText string `json:"new_text"`
}

// Replace returns the fix, titled "replace `old` with `with`", that puts
// with where span of file holds old.
func Replace(file string, span Span, old, with string) Fix {
	return Fix{Title: fmt.Sprintf("replace `%s` with `%s`", old, with), File: file, Span: span, NewText: with}
}

// Errorf returns an error-severity diagnostic with the given code and a
// message formatted as by fmt.Sprintf.
func Errorf(code, format string, args ...any) Diagnostic {
	return Diagnostic{Code: code, Severity: Error, Message: fmt.Sprintf(format, args...)}
}

// Warningf returns a warning-severity diagnostic with the given code and a
// message formatted as by fmt.Sprintf.
func Warningf(code, format string, args ...any) Diagnostic {
	return Diagnostic{Code: code, Severity: Warning, Message: fmt.Sprintf(format, args...)}
}

// WithFix returns d with one more fix.
func (d Diagnostic) WithFix(f Fix) Diagnostic {
	d.Fixes = append(slices.Clip(d.Fixes), f)
	return d
}

// At returns d located at file and pos.
func (d Diagnostic) At(file string, pos Pos) Diagnostic {
	d.File, d.Pos = file, pos
	return d
}

// InFile returns d with its file set (position unchanged).
func (d Diagnostic) InFile(file string) Diagnostic {
	d.File = file
	return d
}

// WithPath returns d with its logical document path set.
func (d Diagnostic) WithPath(path string) Diagnostic {
	d.Path = path
	return d
}

// WithHint returns d with its hint set.
func (d Diagnostic) WithHint(format string, args ...any) Diagnostic {
	d.Hint = fmt.Sprintf(format, args...)
	return d
}

// WithSuggestion returns d with "did you mean `name`?" in front of its
// hint (which, when there is one, keeps the candidates it listed).
func (d Diagnostic) WithSuggestion(name string) Diagnostic {
	s := fmt.Sprintf("did you mean `%s`?", name)
	if d.Hint != "" {
		s += " " + d.Hint
	}
	d.Hint = s
	return d
}

// WithRelated returns d with one more related location.
func (d Diagnostic) WithRelated(file string, pos Pos, message string) Diagnostic {
	d.Related = append(slices.Clip(d.Related), Related{File: file, Pos: pos, Message: message})
	return d
}

// Error formats d the way editors, errorformat and CI problem matchers parse
// it: "file:line:col: message [code]". Without a position the line:col part
// is left out; without a file the document path stands in its place.
func (d Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Location())
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Message)
	if d.Code != "" {
		b.WriteString(" [")
		b.WriteString(d.Code)
		b.WriteString("]")
	}
	return b.String()
}

// Location returns "file:line:col", "file", or, for a diagnostic with no
// file, its document path.
func (d Diagnostic) Location() string {
	switch {
	case d.File != "" && d.Pos.IsValid():
		return fmt.Sprintf("%s:%d:%d", d.File, d.Pos.Line, d.Pos.Column)
	case d.File != "":
		return d.File
	default:
		return d.Path
	}
}

// compare orders diagnostics by file, line, column and code; diagnostics
// without a file come last. Ties keep their emission order (the sort is
// stable), which is the reference's order among rules sharing a position.
func compare(a, b Diagnostic) int {
	if (a.File == "") != (b.File == "") {
		if a.File == "" {
			return 1
		}
		return -1
	}
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Column, b.Pos.Column),
		cmp.Compare(a.Code, b.Code),
	)
}
