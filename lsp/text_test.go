package lsp

import (
	"slices"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
	protocol "github.com/tliron/glsp/protocol_3_16"
	yaml "go.yaml.in/yaml/v3"
)

func TestPositionConversion(t *testing.T) {
	// 😀 and 𝄞 are astral (two UTF-16 units, one code point, four bytes);
	// é is two bytes, one unit; the LS character breaks a YAML line but
	// not an LSP one.
	src := "a: 😀x\r\nb: é𝄞y\n\"c\u2028d\": z\n"
	tx := newText(src)
	tests := []struct {
		pos  diag.Pos
		want protocol.Position
	}{
		{diag.Pos{Line: 1, Column: 1}, protocol.Position{Line: 0, Character: 0}},
		{diag.Pos{Line: 1, Column: 4}, protocol.Position{Line: 0, Character: 3}}, // 😀
		{diag.Pos{Line: 1, Column: 5}, protocol.Position{Line: 0, Character: 5}}, // x, after the pair
		{diag.Pos{Line: 1, Column: 99}, protocol.Position{Line: 0, Character: 6}},
		{diag.Pos{Line: 2, Column: 5}, protocol.Position{Line: 1, Character: 4}}, // 𝄞
		{diag.Pos{Line: 2, Column: 6}, protocol.Position{Line: 1, Character: 6}}, // y
		{diag.Pos{Line: 4, Column: 5}, protocol.Position{Line: 2, Character: 7}}, // z, YAML line 4 is LSP line 2
		{diag.Pos{Line: 9, Column: 1}, protocol.Position{Line: 3, Character: 0}},
		{diag.Pos{}, protocol.Position{Line: 0, Character: 0}},
	}
	for _, tt := range tests {
		if got := tx.lspOf(tt.pos); got != tt.want {
			t.Errorf("lspOf(%v) = %v, want %v", tt.pos, got, tt.want)
		}
	}
	// Back from LSP: inside a surrogate pair is the character's start; past
	// the end of a line is its end.
	back := []struct {
		p    protocol.Position
		want int
	}{
		{protocol.Position{Line: 0, Character: 4}, 3},
		{protocol.Position{Line: 0, Character: 5}, 7},
		{protocol.Position{Line: 0, Character: 1 << 31}, 8},
		{protocol.Position{Line: 1, Character: 6}, len("a: 😀x\r\nb: é𝄞")},
		{protocol.Position{Line: 1 << 31, Character: 0}, len(src)},
	}
	for _, tt := range back {
		if got := tx.offsetAt(tt.p); got != tt.want {
			t.Errorf("offsetAt(%v) = %d, want %d", tt.p, got, tt.want)
		}
	}
	for off := 0; off <= len(src); off++ {
		if p := tx.posOf(off); tx.offsetOf(p) > off {
			t.Errorf("posOf(%d) = %v, which maps back to %d", off, p, tx.offsetOf(p))
		}
	}
}

// TestPositionsMatchTheParser: every node position the YAML parser
// reports maps onto the bytes of that node's value, astral characters and
// unusual line breaks included.
func TestPositionsMatchTheParser(t *testing.T) {
	src := "k😀: v𝄞\nlist: [😀, \"é\", x]\nx: \"a\u2028b\"\nd: \"e\u0085f\"\nlast: 😀😀end\r\nz: 1\n"
	doc, diags := yamldoc.Parse("x.yaml", []byte(src))
	if doc == nil || diags.HasErrors() {
		t.Fatal(diags)
	}
	tx := newText(src)
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Style == 0 {
			off := tx.offsetOf(yamldoc.PosOf(n))
			if got := src[off:min(len(src), off+len(n.Value))]; got != n.Value {
				t.Errorf("node %q at %d:%d maps to %q", n.Value, n.Line, n.Column, got)
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc.Root)
}

// FuzzEditor: didChange's editor, which keeps its line index from change
// to change, places and applies every change as indexing the whole text
// again (newText) would, whatever line breaks, astral characters and
// invalid bytes the text and the changes mix: the positions and texts of
// a sequence of changes are drawn from the fuzzer's bytes.
func FuzzEditor(f *testing.F) {
	f.Add("a: 😀x\r\nb: é𝄞y\n\"c\u2028d\": z\n", []byte{0, 3, 1, 0, 2, 1, 4, 9, 0, 0, 5, 5})
	f.Add("\r\r\n\n\r", []byte{1, 0, 1, 0, 0, 2, 0, 0, 3, 1, 0, 0})
	f.Add("x\ry\rz", []byte{0, 1, 0, 1, 1, 1, 2, 0, 0, 0, 0, 4})
	f.Add("", []byte{9, 9, 9, 9, 3, 0})
	f.Fuzz(func(t *testing.T, src string, ops []byte) {
		if len(src) > 4096 || len(ops) > 600 {
			return // each step indexes the text again: keep a step cheap
		}
		pieces := []string{"", "\r", "\n", "\r\n", "x", "😀", "é\n", "\xff", "a\rb", "\u2028"}
		ed, want := newEditor(src), src
		for ; len(ops) >= 6; ops = ops[6:] {
			tx := newText(want)
			p1 := protocol.Position{Line: protocol.UInteger(ops[0] % 8), Character: protocol.UInteger(ops[1] % 12)}
			p2 := protocol.Position{Line: protocol.UInteger(ops[2] % 8), Character: protocol.UInteger(ops[3] % 12)}
			start, end := tx.offsetAt(p1), tx.offsetAt(p2)
			if got := ed.offset(p1); got != start {
				t.Fatalf("%q at %v: editor %d, index %d", want, p1, got, start)
			}
			if got := ed.offset(p2); got != end {
				t.Fatalf("%q at %v: editor %d, index %d", want, p2, got, end)
			}
			if end < start {
				continue
			}
			text := pieces[int(ops[4])%len(pieces)] + pieces[int(ops[5])%len(pieces)]
			ed.replace(start, end, text)
			want = want[:start] + text + want[end:]
			if string(ed.b) != want {
				t.Fatalf("the text is %q, want %q", ed.b, want)
			}
			if idx := newText(want).lsp; !slices.Equal(ed.starts, idx) {
				t.Fatalf("%q: the line starts are %v, want %v", want, ed.starts, idx)
			}
		}
	})
}
