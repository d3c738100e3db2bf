package textdiff

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

func numbered(n int, edit func(i int) string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s := edit(i); s != "" {
			b.WriteString(s)
		}
	}
	return b.String()
}

func plain(i int) string { return "line " + itoa(i) + "\n" }

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// cases are the golden cases: name → old and new text.
var cases = []struct{ name, a, b string }{
	{"change-middle", numbered(20, plain), numbered(20, func(i int) string {
		if i == 10 {
			return "line ten\n"
		}
		return plain(i)
	})},
	{"two-hunks", numbered(30, plain), numbered(30, func(i int) string {
		switch i {
		case 2:
			return ""
		case 25:
			return plain(i) + "inserted\n"
		}
		return plain(i)
	})},
	{"merged-hunks", numbered(20, plain), numbered(20, func(i int) string {
		if i == 8 || i == 13 {
			return "changed " + itoa(i) + "\n"
		}
		return plain(i)
	})},
	{"from-empty", "", "a\nb\n"},
	{"to-empty", "a\nb\n", ""},
	{"no-final-newline", "a\nb\nc", "a\nb\nc\n"},
	{"url-unsafe", "x: 100%\n", "x: 100% \"q\" é\n"},
}

func TestUnified(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Unified("old/"+c.name, "new/"+c.name, []byte(c.a), []byte(c.b))
			testkit.Golden(t, filepath.Join("testdata", c.name+".diff"), []byte(got), *update)
			if back := apply(t, c.a, got); back != c.b {
				t.Errorf("applying the diff gives %q, want %q", back, c.b)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	if got := Unified("a", "b", []byte("x\n"), []byte("x\n")); got != "" {
		t.Errorf("equal texts: %q", got)
	}
}

// apply applies a unified diff made by Unified to a, to check that the hunks
// are consistent with their headers.
func apply(t *testing.T, a, diff string) string {
	t.Helper()
	old := splitLines(a)
	var out []string
	pos := 0 // next unconsumed line of old
	lines := splitLines(diff)
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "@@ -"):
			var start, n int
			spec := strings.Fields(l)[1][1:]
			parts := strings.SplitN(spec, ",", 2)
			start = atoi(parts[0])
			n = 1
			if len(parts) == 2 {
				n = atoi(parts[1])
			}
			if n == 0 {
				start++
			}
			for pos < start-1 {
				out = append(out, old[pos])
				pos++
			}
		case strings.HasPrefix(l, `\ No newline`):
			last := len(out) - 1
			if i > 0 && !strings.HasPrefix(lines[i-1], "-") {
				out[last] = strings.TrimSuffix(out[last], "\n")
			}
		case l[0] == ' ':
			out = append(out, l[1:])
			pos++
		case l[0] == '-':
			pos++
		case l[0] == '+':
			out = append(out, l[1:])
		default:
			t.Fatalf("bad diff line %q", l)
		}
	}
	out = append(out, old[pos:]...)
	return strings.Join(out, "")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
