package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Sources maps a file name, as it appears in Diagnostic.File, to the bytes
// it was read from. The text printer uses it to show the blamed line.
type Sources map[string][]byte

// line returns the 1-based line n of file, without its line ending, and
// whether it exists.
func (s Sources) line(file string, n int) (string, bool) {
	src, ok := s[file]
	if !ok || n < 1 {
		return "", false
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(string(src), '\n')
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
	text := string(src)
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimRight(text, "\r"), true
}

// WriteText prints each diagnostic of l as "file:line:col: message [code]",
// followed by its hint and, when sources holds the file, the source line with
// a caret under the blamed column; then a summary line counting errors and
// warnings. It prints nothing for an empty list. The list is printed in the
// order given: call Sorted first.
func WriteText(w io.Writer, l List, sources Sources) error {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error())
		b.WriteByte('\n')
		if d.Hint != "" {
			fmt.Fprintf(&b, "  hint: %s\n", d.Hint)
		}
		if d.File != "" && d.Pos.IsValid() {
			if text, ok := sources.line(d.File, d.Pos.Line); ok {
				writeCaret(&b, text, d.Pos.Column)
			}
		}
		for _, r := range d.Related {
			fmt.Fprintf(&b, "  %s: %s\n", Diagnostic{File: r.File, Pos: r.Pos}.Location(), r.Message)
		}
	}
	if len(l) > 0 {
		errs, warns := l.Count()
		fmt.Fprintf(&b, "%s, %s\n", plural(errs, "error"), plural(warns, "warning"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCaret prints the source line and a caret under column col (1-based,
// in code points). Tabs in the prefix are kept so the caret lines up.
func writeCaret(b *strings.Builder, text string, col int) {
	fmt.Fprintf(b, "  | %s\n  | ", text)
	i := 1
	for _, r := range text {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	for ; i < col; i++ {
		b.WriteByte(' ')
	}
	b.WriteString("^\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// jsonDiagnostic is the stable JSON shape of a diagnostic.
type jsonDiagnostic struct {
	Code     string    `json:"code"`
	Severity string    `json:"severity"`
	File     string    `json:"file,omitempty"`
	Line     int       `json:"line,omitempty"`
	Column   int       `json:"column,omitempty"`
	EndLine  int       `json:"end_line,omitempty"`
	EndCol   int       `json:"end_column,omitempty"`
	Path     string    `json:"path,omitempty"`
	Message  string    `json:"message"`
	Hint     string    `json:"hint,omitempty"`
	Related  []Related `json:"related,omitempty"`
	Fixes    []Fix     `json:"fixes,omitempty"`
}

// WriteJSON prints l as a JSON array (an empty list prints "[]") of objects
// with the keys code, severity, file, line, column, end_line, end_column,
// path, message, hint, related and fixes (empty ones left out), followed by a
// newline.
func WriteJSON(w io.Writer, l List) error {
	out := make([]jsonDiagnostic, len(l))
	for i, d := range l {
		out[i] = jsonDiagnostic{
			Code: d.Code, Severity: d.Severity.String(), File: d.File,
			Line: d.Pos.Line, Column: d.Pos.Column, EndLine: d.End.Line, EndCol: d.End.Column,
			Path: d.Path, Message: d.Message, Hint: d.Hint, Related: d.Related, Fixes: d.Fixes,
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
