package textdiff

import (
	"strings"
	"testing"
)

func TestUnifiedHunks(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := change[i]; ok {
				b.WriteString(s)
				continue
			}
			b.WriteString("line " + string(rune('a'+i-1)) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"one change in the middle", lines(10, nil), lines(10, map[int]string{5: "changed\n"}),
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n line b\n line c\n line d\n-line e\n+changed\n line f\n line g\n line h\n"},
		{"two distant changes make two hunks", lines(20, nil), lines(20, map[int]string{2: "X\n", 18: "Y\n"}),
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n line a\n-line b\n+X\n line c\n line d\n line e\n@@ -15,6 +15,6 @@\n line o\n line p\n line q\n-line r\n+Y\n line s\n line t\n"},
		{"from nothing", "", "a\nb\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"missing final newline", "a\nb", "a\nb\n", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
	}
	for _, tt := range tests {
		if got := Unified("a", "b", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s:\n--- got\n%s\n--- want\n%s", tt.name, got, tt.want)
		}
	}
}
