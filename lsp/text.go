package lsp

import (
	"bytes"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is a document's bytes with the two line indexes a position needs.
//
// aepflow's positions (diag.Pos) are 1-based lines and columns in code
// points, with lines broken the way go.yaml.in/yaml/v3 breaks them: LF,
// CR, CRLF, and also NEL (U+0085), LS (U+2028) and PS (U+2029). LSP
// positions are 0-based lines and UTF-16 columns, with lines broken at LF,
// CR and CRLF only. So a diag.Pos becomes a byte offset under YAML's line
// rules, and the offset an LSP position under LSP's: every conversion in
// the server goes through here, written once.
type text struct {
	s    string
	lsp  []int // byte offset of the start of each line, LSP's breaks
	yaml []int // byte offset of the start of each line, YAML's breaks
}

func newText(s string) *text {
	t := &text{s: s, lsp: []int{0}, yaml: []int{0}}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			i += 2
			t.lsp, t.yaml = append(t.lsp, i), append(t.yaml, i)
		case c == '\n' || c == '\r':
			i++
			t.lsp, t.yaml = append(t.lsp, i), append(t.yaml, i)
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if r == '\u0085' || r == '\u2028' || r == '\u2029' {
				t.yaml = append(t.yaml, i)
			}
		}
	}
	return t
}

// lineEnd returns the offset where line i of the index starts ends, before
// its line break.
func (t *text) lineEnd(starts []int, i int) int {
	if i+1 >= len(starts) {
		return len(t.s)
	}
	next := starts[i+1]
	switch {
	case next-2 >= starts[i] && t.s[next-2:next] == "\r\n":
		return next - 2
	case t.s[next-1] == '\n' || t.s[next-1] == '\r':
		return next - 1
	}
	_, n := utf8.DecodeLastRuneInString(t.s[:next]) // NEL, LS or PS
	return next - n
}

// units returns the UTF-16 length of r: 2 above the Basic Multilingual
// Plane, else 1 (an invalid byte decodes as U+FFFD, one unit).
func units(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1
}

// offsetOf returns the byte offset of p (1-based line, column in code
// points, YAML's line breaks), clamped into the document: a line past the
// last is the end of the text, a column past the line's end its end, and
// the zero Pos the start.
func (t *text) offsetOf(p diag.Pos) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(t.yaml) {
		return len(t.s)
	}
	off, end := t.yaml[p.Line-1], t.lineEnd(t.yaml, p.Line-1)
	for col := 1; col < p.Column && off < end; col++ {
		_, n := utf8.DecodeRuneInString(t.s[off:end])
		off += n
	}
	return off
}

// posOf returns the diag.Pos of a byte offset (clamped into the text).
func (t *text) posOf(off int) diag.Pos {
	off = max(0, min(off, len(t.s)))
	line := sort.Search(len(t.yaml), func(i int) bool { return t.yaml[i] > off }) - 1
	col := 1
	for i := t.yaml[line]; i < off; col++ {
		_, n := utf8.DecodeRuneInString(t.s[i:])
		if i+n > off {
			break // inside a character: its start
		}
		i += n
	}
	return diag.Pos{Line: line + 1, Column: col}
}

// position returns the LSP position of a byte offset: its 0-based line
// under LSP's line breaks and its column in UTF-16 code units. An offset
// inside a multi-byte character counts from that character's start.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.s)))
	line := sort.Search(len(t.lsp), func(i int) bool { return t.lsp[i] > off }) - 1
	col := 0
	for i := t.lsp[line]; i < off; {
		r, n := utf8.DecodeRuneInString(t.s[i:])
		if i+n > off {
			break
		}
		col += units(r)
		i += n
	}
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)}
}

// offsetAt returns the byte offset of an LSP position. A line past the
// last is the end of the text; a character past the line's end is its end
// (as LSP asks); a character in the middle of a surrogate pair is the
// start of that character.
func (t *text) offsetAt(p protocol.Position) int {
	if int64(p.Line) >= int64(len(t.lsp)) {
		return len(t.s)
	}
	line := int(p.Line)
	off, end := t.lsp[line], t.lineEnd(t.lsp, line)
	for col := int64(0); off < end; {
		r, n := utf8.DecodeRuneInString(t.s[off:end])
		if col+int64(units(r)) > int64(p.Character) {
			break
		}
		col += int64(units(r))
		off += n
	}
	return off
}

// lspOf returns the LSP position of p.
func (t *text) lspOf(p diag.Pos) protocol.Position { return t.position(t.offsetOf(p)) }

// rangeOf returns the LSP range between two byte offsets.
func (t *text) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(max(start, end))}
}

// lineBefore returns the text of the LSP line holding offset off, up to
// off.
func (t *text) lineBefore(off int) string {
	off = max(0, min(off, len(t.s)))
	line := sort.Search(len(t.lsp), func(i int) bool { return t.lsp[i] > off }) - 1
	return t.s[t.lsp[line]:off]
}

// editor applies a didChange's incremental changes to a buffer, keeping
// its LSP line index (what text.lsp holds) up to date from change to
// change instead of indexing the whole buffer again for each: a client may
// send thousands of changes in one notification (a replace-all, many
// cursors), each placed by LSP positions in the text its predecessors
// left. work counts the bytes the changes went through, so that didChange
// can bound a notification's cost (Options.MaxChangeWork).
type editor struct {
	b      []byte
	starts []int // the byte offset of each LSP line's start
	mid    []int // scratch: the line starts a change brings
	work   int
}

func newEditor(s string) *editor {
	e := &editor{b: make([]byte, len(s), len(s)+len(s)/8+64)}
	copy(e.b, s)
	e.starts = appendStarts([]int{0}, e.b, 0, len(e.b))
	e.work = len(s)
	return e
}

// appendStarts appends the LSP line starts q of b with from < q <= to:
// the offsets just after an LF, or after a CR that no LF follows.
func appendStarts(out []int, b []byte, from, to int) []int {
	if bytes.IndexByte(b[from:to], '\r') < 0 {
		for i := from; ; {
			j := bytes.IndexByte(b[i:to], '\n')
			if j < 0 {
				return out
			}
			i += j + 1
			out = append(out, i)
		}
	}
	for i := from; i < to; i++ {
		if c := b[i]; c == '\n' || (c == '\r' && (i+1 == len(b) || b[i+1] != '\n')) {
			out = append(out, i+1)
		}
	}
	return out
}

// offset returns the byte offset of an LSP position, as text.offsetAt
// does.
func (e *editor) offset(p protocol.Position) int {
	if int64(p.Line) >= int64(len(e.starts)) {
		return len(e.b)
	}
	line := int(p.Line)
	off, end := e.starts[line], len(e.b)
	if line+1 < len(e.starts) {
		next := e.starts[line+1]
		end = next - 1
		if next-2 >= off && e.b[next-2] == '\r' && e.b[next-1] == '\n' {
			end = next - 2
		}
	}
	from := off
	for col := int64(0); off < end; {
		u, n := int64(1), 1
		if e.b[off] >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRune(e.b[off:end])
			u = int64(units(r))
		}
		if col+u > int64(p.Character) {
			break
		}
		col += u
		off += n
	}
	e.work += off - from
	return off
}

// replace replaces the bytes from start to end with text and brings the
// line index along: the lines before the one holding start-1 keep their
// starts (a start depends on the two bytes around it), the starts from
// there to the end of the new text are found again (a CR and an LF may
// meet or part at either edge), and those after end move by the change
// in length.
func (e *editor) replace(start, end int, text string) {
	lineOf := func(off int) int {
		return sort.Search(len(e.starts), func(i int) bool { return e.starts[i] > off }) - 1
	}
	l := lineOf(max(start-1, 0))
	r := sort.Search(len(e.starts), func(i int) bool { return e.starts[i] > end })
	delta := len(text) - (end - start)
	moved := len(e.b) - end
	e.b = splice(e.b, start, end, text)
	e.mid = appendStarts(e.mid[:0], e.b, e.starts[l], start+len(text))
	old, n := len(e.starts), l+1+len(e.mid)+len(e.starts)-r
	if n > old {
		e.starts = append(e.starts, make([]int, n-old)...)
	}
	copy(e.starts[l+1+len(e.mid):], e.starts[r:old])
	copy(e.starts[l+1:], e.mid)
	e.starts = e.starts[:n]
	for i := l + 1 + len(e.mid); i < n; i++ {
		e.starts[i] += delta
	}
	// Moving bytes and starts is a memmove and an add, far cheaper than
	// reading a byte of a line.
	e.work += start + len(text) - e.starts[l] + moved/16 + (n-l)/4
}

// splice replaces b[start:end] with text, in place when b has the room.
func splice(b []byte, start, end int, text string) []byte {
	n := len(b) - (end - start) + len(text)
	if n > cap(b) {
		out := make([]byte, n, n+n/4+64)
		copy(out, b[:start])
		copy(out[start:], text)
		copy(out[start+len(text):], b[end:])
		return out
	}
	old := len(b)
	b = b[:max(n, old)]
	copy(b[start+len(text):], b[end:old])
	copy(b[start:], text)
	return b[:n]
}
