package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sources maps a file name, as it appears in Diagnostic.File, to the bytes
// it was read from. The text printer uses it to show the blamed line.
type Sources map[string][]byte

// Defaults of TextOptions.
const (
	// DefaultMaxPerFile is how many diagnostics of one file the text printer
	// shows before it summarises the rest as "… and N more".
	DefaultMaxPerFile = 50
	// DefaultMaxWidth is the widest source snippet the text printer shows,
	// in code points; a longer line is cut around the caret.
	DefaultMaxWidth = 160
)

// TextOptions says how the text printer prints. The zero value prints
// without colour, at most DefaultMaxPerFile diagnostics per file and source
// snippets at most DefaultMaxWidth code points wide.
type TextOptions struct {
	// Color adds ANSI colours: the severity, the code, the caret, the hint
	// and the gutter. Callers set it for a terminal only.
	Color bool
	// MaxPerFile caps the diagnostics printed per file (0: the default;
	// negative: no cap). The summary line still counts every one.
	MaxPerFile int
	// MaxWidth caps a snippet's width in code points (0: the default).
	MaxWidth int
	// SummaryNote, when set, ends the summary line after a semicolon:
	// what the counts alone do not say (analyze: that the analysis is
	// incomplete).
	SummaryNote string
}

// WriteText prints l with the default TextOptions; see TextOptions.Write.
func WriteText(w io.Writer, l List, sources Sources) error {
	return TextOptions{}.Write(w, l, sources)
}

// ANSI escapes of the text printer's colours.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiCyan   = "\x1b[36m"
	ansiBlue   = "\x1b[34m"
	ansiDim    = "\x1b[2m"
)

// Write prints each diagnostic of l as "file:line:col: message [code]",
// followed by its hint, the source line (when sources holds the file) in a
// gutter that names its number with a caret under the blamed column, and its
// related locations; then a summary line counting errors and warnings. It
// prints nothing for an empty list. The list is printed in the order given:
// call Sorted first.
//
// Control characters, invalid UTF-8 and bidirectional-override characters
// are printed escaped (`\x00`, `\u202e`), in messages as in snippets, so that
// no input reaches the terminal raw. The work is linear in the size of the
// output plus the size of the sources: each file's line starts are indexed
// once, a snippet is cut to MaxWidth, and past MaxPerFile the diagnostics of
// a file are only counted.
func (o TextOptions) Write(w io.Writer, l List, sources Sources) error {
	p := textPrinter{opts: o.withDefaults(), sources: sources, lines: map[string][]lineRange{}}
	skipped := 0
	shown := map[string]int{}
	for i, d := range l {
		if p.opts.MaxPerFile < 0 || shown[d.File] < p.opts.MaxPerFile {
			shown[d.File]++
			p.diagnostic(d)
		} else {
			skipped++
		}
		if skipped > 0 && (i+1 == len(l) || l[i+1].File != d.File) {
			p.more(d.File, skipped)
			skipped = 0
		}
	}
	if len(l) > 0 {
		errs, warns := l.Count()
		fmt.Fprintf(&p.b, "%s, %s", plural(errs, "error"), plural(warns, "warning"))
		if o.SummaryNote != "" {
			p.b.WriteString("; " + EscapeText(o.SummaryNote))
		}
		p.b.WriteByte('\n')
	}
	_, err := w.Write(p.b.Bytes())
	return err
}

func (o TextOptions) withDefaults() TextOptions {
	if o.MaxPerFile == 0 {
		o.MaxPerFile = DefaultMaxPerFile
	}
	if o.MaxWidth <= 0 {
		o.MaxWidth = DefaultMaxWidth
	}
	return o
}

// textPrinter accumulates the text output of one Write call.
type textPrinter struct {
	opts    TextOptions
	sources Sources
	// lines caches, per file, where each line starts and ends.
	lines map[string][]lineRange
	b     bytes.Buffer
}

// paint writes s in colour c when colours are on.
func (p *textPrinter) paint(c, s string) {
	if p.opts.Color {
		p.b.WriteString(c)
		p.b.WriteString(s)
		p.b.WriteString(ansiReset)
		return
	}
	p.b.WriteString(s)
}

func (p *textPrinter) diagnostic(d Diagnostic) {
	sev := ansiRed
	if d.Severity == Warning {
		sev = ansiYellow
	}
	if loc := d.Location(); loc != "" {
		p.paint(ansiBold, EscapeText(loc)+":")
		p.b.WriteByte(' ')
	}
	if d.Severity == Warning {
		p.paint(ansiYellow, "warning:")
		p.b.WriteByte(' ')
	}
	p.b.WriteString(EscapeText(d.Message))
	if d.Code != "" {
		p.b.WriteByte(' ')
		p.paint(sev, "["+EscapeText(d.Code)+"]")
	}
	p.b.WriteByte('\n')
	if d.Hint != "" {
		p.b.WriteString("  ")
		p.paint(ansiCyan, "hint:")
		p.b.WriteString(" " + EscapeText(d.Hint) + "\n")
	}
	if d.File != "" && d.Pos.IsValid() {
		if text, ok := p.line(d.File, d.Pos.Line); ok {
			p.snippet(text, d.Pos.Line, d.Pos.Column, sev)
		}
	}
	for _, r := range d.Related {
		loc := Diagnostic{File: r.File, Pos: r.Pos}.Location()
		fmt.Fprintf(&p.b, "  %s: %s\n", EscapeText(loc), EscapeText(r.Message))
	}
}

// more prints the note standing for the n diagnostics of file not shown.
func (p *textPrinter) more(file string, n int) {
	p.b.WriteString("  ")
	if file == "" {
		p.paint(ansiDim, fmt.Sprintf("… and %d more", n))
	} else {
		p.paint(ansiDim, fmt.Sprintf("… and %d more in %s", n, EscapeText(file)))
	}
	p.b.WriteByte('\n')
}

// line returns the 1-based line n of file, without its line break, and
// whether it exists. The file's lines are indexed on first use.
func (p *textPrinter) line(file string, n int) ([]byte, bool) {
	src, ok := p.sources[file]
	if !ok || n < 1 {
		return nil, false
	}
	lines, ok := p.lines[file]
	if !ok {
		lines = lineRanges(src)
		p.lines[file] = lines
	}
	if n > len(lines) {
		return nil, false
	}
	r := lines[n-1]
	return src[r.start:r.end], true
}

// lineRange is one line of a source: the offsets of its first byte and of
// the byte after its last (its line break excluded).
type lineRange struct{ start, end int }

// lineRanges indexes every line of src, breaking lines where yaml.v3 does
// (LineBreak), so that a diagnostic's line number finds the line it names.
func lineRanges(src []byte) []lineRange {
	var lines []lineRange
	start := 0
	for i := 0; i < len(src); {
		if n := LineBreak(src, i); n > 0 {
			lines = append(lines, lineRange{start, i})
			i += n
			start = i
			continue
		}
		i++
	}
	if start < len(src) || len(lines) == 0 {
		lines = append(lines, lineRange{start, len(src)})
	}
	return lines
}

// LineBreak returns the length in bytes of the line break that starts at
// src[i], or 0 when none does. The breaks are those go.yaml.in/yaml/v3
// counts lines by: LF, CR LF, a lone CR, and in UTF-8 NEL (U+0085), LS
// (U+2028) and PS (U+2029). Every line count of aepflow uses it, so that
// a position and the source line printed for it agree.
func LineBreak(src []byte, i int) int {
	switch c := src[i]; {
	case c == '\n':
		return 1
	case c == '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0xC2 && i+1 < len(src) && src[i+1] == 0x85:
		return 2
	case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
		return 3
	}
	return 0
}

// cell is one code point of a snippet as printed: its text (escaped when it
// is a control character) and whether it is a tab, kept so that the caret
// lines up under it.
type cell struct {
	text string
	tab  bool
}

// snippet prints the source line text (line number n) in the gutter and a
// caret under column col (1-based, in code points). A line wider than
// MaxWidth is cut to a window around the caret, marked with "…".
func (p *textPrinter) snippet(text []byte, n, col int, sev string) {
	width := p.opts.MaxWidth
	// Only the code points the window can show are decoded: up to the
	// caret plus a window's width, so a megabyte-long line costs no more
	// than its prefix up to the caret.
	caret := max(col, 1) - 1
	var cells []cell
	i := 0
	for i < len(text) && len(cells) < caret+width {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			cells = append(cells, cell{text: fmt.Sprintf(`\x%02x`, text[i])})
		} else {
			cells = append(cells, cell{text: escapeRune(r), tab: r == '\t'})
		}
		i += size
	}
	more := i < len(text)
	if !more {
		caret = min(caret, len(cells)) // a column past the line's end points just after it
	}
	lo := 0
	if caret >= width {
		lo = caret - width/2
	}
	hi := min(len(cells), lo+width)
	cut := more || hi < len(cells)
	gutter := strconv.Itoa(n)
	pad := strings.Repeat(" ", len(gutter))

	p.b.WriteString("  ")
	p.paint(ansiBlue, gutter+" |")
	p.b.WriteByte(' ')
	prefix := 0
	if lo > 0 {
		p.b.WriteString("…")
		prefix = 1
	}
	for _, c := range cells[min(lo, len(cells)):hi] {
		p.b.WriteString(c.text)
	}
	if cut {
		p.b.WriteString("…")
	}
	p.b.WriteByte('\n')

	p.b.WriteString("  ")
	p.paint(ansiBlue, pad+" |")
	p.b.WriteByte(' ')
	p.b.WriteString(strings.Repeat(" ", prefix))
	for i := lo; i < caret; i++ {
		switch {
		case i >= len(cells):
			p.b.WriteByte(' ')
		case cells[i].tab:
			p.b.WriteByte('\t')
		default:
			p.b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(cells[i].text)))
		}
	}
	p.paint(sev, "^")
	p.b.WriteByte('\n')
}

// escapeRune returns r as printed: itself, or escaped when it is a control
// character (C0 but tab, DEL, C1), a line or paragraph separator (U+2028,
// U+2029, which editors and browsers break lines at) or a bidirectional
// control, which could reorder what the terminal shows.
func escapeRune(r rune) string {
	switch {
	case r == '\t':
		return "\t"
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r)
	case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, isBidiControl(r):
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// EscapeText returns s as one line of text safe to print: every control
// character (C0, DEL, C1), line or paragraph separator, bidirectional
// control and invalid byte is written as an escape (`\x0a`, `\u2028`,
// `\xff`), a tab as `\t`; everything else is left as it is. The printers
// of messages, hints, locations and of any line that quotes what an input
// controls (a title, a name, a file name) go through it, so that such a
// string can neither end a line early, forge one, nor reorder what a
// terminal shows. It is idempotent: its output has nothing left to escape.
func EscapeText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\t' || escapeRune(r) != string(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(escapeRune(r))
		}
		i += size
	}
	return b.String()
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
