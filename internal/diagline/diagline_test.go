package diagline

import (
	"testing"

	"github.com/aepflow/aepflow/diag"
)

func TestJoin(t *testing.T) {
	var list diag.List
	list.Add(
		diag.Errorf("b_code", "second\nline").At("b.yaml", diag.Pos{Line: 2, Column: 1}),
		diag.Warningf("w_code", "left out").At("a.yaml", diag.Pos{Line: 1, Column: 1}),
		diag.Errorf("a_code", "first\x1b[31m").At("a.yaml", diag.Pos{Line: 3, Column: 4}),
	)
	want := `a.yaml:3:4: first\x1b[31m [a_code]; b.yaml:2:1: second\x0aline [b_code]`
	if got := Join(list); got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if got := Join(nil); got != "" {
		t.Errorf("Join(nil) = %q, want empty", got)
	}
}

// TestJoinEscapesAsThePrinter: a line break inside a message reads as the
// text printer writes it (`\x0a`), not as a space, so `a\nb` and `a b`
// no longer read alike; the line is what diag.EscapeText makes of each
// diagnostic, and escaping it again changes nothing.
func TestJoinEscapesAsThePrinter(t *testing.T) {
	for _, msg := range []string{"a\nb", "a\r\nb", "a\rb", "a\u2028b", "a\tb"} {
		d := diag.Errorf("c", "%s", msg)
		got := Join(diag.List{d})
		if want := diag.EscapeText(d.Error()); got != want {
			t.Errorf("Join(%q) = %q, want %q", msg, got, want)
		}
		if got == Join(diag.List{diag.Errorf("c", "a b")}) {
			t.Errorf("Join(%q) reads as `a b`: %q", msg, got)
		}
		if diag.EscapeText(got) != got {
			t.Errorf("Join(%q) = %q is not left alone by a second escaping", msg, got)
		}
	}
}
