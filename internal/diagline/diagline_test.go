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
		diag.Errorf("a_code", "first").At("a.yaml", diag.Pos{Line: 3, Column: 4}),
	)
	want := "a.yaml:3:4: first [a_code]; b.yaml:2:1: second line [b_code]"
	if got := Join(list); got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if got := Join(nil); got != "" {
		t.Errorf("Join(nil) = %q, want empty", got)
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"a\r\nb\nc\rd": "a b c d",
		"plain":        "plain",
		"\r\n\r\n":     "  ",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}
