package trace

import (
	"bytes"
	"fmt"
	"io"

	"github.com/aepflow/aepflow/diag"
)

// Every text output of the package — reports, censuses, suites, refusal
// lists — and the lines the command adds around them are written one line
// at a time through textLines or WriteLine, which escape each line with
// diag.EscapeText before ending it. A string a transcript or a
// specification controls (a title, a tool name, an event type, a file name
// found in a directory, a refusal quoting a key) is printed inside a line
// and can never end it early: a title holding "\r\nconformant" cannot
// forge a verdict line, nor a bidirectional control reorder one.

// printable returns s as it is printed inside a line of text output (the
// one escaping rule of this file); tables measure their cells with it.
func printable(s string) string { return diag.EscapeText(s) }

// textLines accumulates text output one escaped line at a time.
type textLines struct{ b bytes.Buffer }

// printf adds one line: format and args are formatted, escaped and ended
// by a line break. A line break inside the formatted text is escaped, so
// one call is always one line.
func (l *textLines) printf(format string, args ...any) {
	l.b.WriteString(printable(fmt.Sprintf(format, args...)))
	l.b.WriteByte('\n')
}

// blank adds an empty line.
func (l *textLines) blank() { l.b.WriteByte('\n') }

// writeTo writes the lines to w.
func (l *textLines) writeTo(w io.Writer) error {
	_, err := w.Write(l.b.Bytes())
	return err
}

// WriteLine writes one line of text output to w as the package's own text
// is written: format and args formatted, every control character, line
// separator and bidirectional control escaped (diag.EscapeText), then a
// line break. The commands print the lines they add to a report (refusal
// headers, the files an evidence record went to) through it.
func WriteLine(w io.Writer, format string, args ...any) error {
	var l textLines
	l.printf(format, args...)
	return l.writeTo(w)
}

// WriteRefusals writes a refused input's refusals as trace.md §6.3 prints
// them: header, then `: N refusal(s)` on its line, then one `CODE at
// LOCATION: message` line per refusal, each escaped as WriteLine does.
func WriteRefusals(w io.Writer, header string, refusals diag.List) error {
	var l textLines
	l.printf("%s: %d refusal(s)", header, len(refusals))
	for _, d := range refusals {
		l.printf("%s", FormatRefusal(d))
	}
	return l.writeTo(w)
}
