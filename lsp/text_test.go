package lsp

import (
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
