package diag_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	. "github.com/aepflow/aepflow/diag"
)

func printText(t *testing.T, o TextOptions, l List, src Sources) string {
	t.Helper()
	var b bytes.Buffer
	if err := o.Write(&b, l, src); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTextEscapesControlCharactersAndBinary(t *testing.T) {
	src := Sources{"w.yaml": []byte("a: \x00b\x1b[31m\xff\u202e end\n")}
	d := Errorf("c", "key `a\x00\x07` and\ttab\n").At("w.yaml", Pos{Line: 1, Column: 9}).WithHint("h\x1b")
	got := printText(t, TextOptions{}, List{d}, src)
	want := "w.yaml:1:9: key `a\\x00\\x07` and\\ttab\\x0a [c]\n" +
		"  hint: h\\x1b\n" +
		"  1 | a: \\x00b\\x1b[31m\\xff\\u202e end\n" +
		"    |               ^\n" +
		"1 error, 0 warnings\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, raw := range []string{"\x00", "\x1b", "\xff", "\u202e", "\x07"} {
		if strings.Contains(got, raw) {
			t.Errorf("output holds the raw byte(s) %q", raw)
		}
	}
}

// TestEscapeText: every character that could end a line, forge one or
// reorder what a terminal shows is escaped — C0, DEL, C1 (NEL among them),
// the line and paragraph separators, the bidirectional controls, invalid
// bytes — and the result has nothing left to escape.
func TestEscapeText(t *testing.T) {
	for in, want := range map[string]string{
		"plain — text…":          "plain — text…",
		"a\r\nconformant":        `a\x0d\x0aconformant`,
		"tab\tdel\x7f":           `tab\tdel\x7f`,
		"nel\u0085c1\u009b":      `nel\u0085c1\u009b`,
		"ls\u2028ps\u2029":       `ls\u2028ps\u2029`,
		"bidi\u202e\u2066\u061c": `bidi\u202e\u2066\u061c`,
		"bad\xff\xc3":            `bad\xff\xc3`,
		"ok é 中 \U0001F600":      "ok é 中 \U0001F600",
	} {
		got := EscapeText(in)
		if got != want {
			t.Errorf("EscapeText(%q) = %q, want %q", in, got, want)
		}
		if again := EscapeText(got); again != got {
			t.Errorf("EscapeText is not idempotent on %q: %q", got, again)
		}
	}
}

func TestTextCutsWideLinesAroundTheCaret(t *testing.T) {
	line := strings.Repeat("a", 1000) + "X" + strings.Repeat("b", 1000)
	src := Sources{"w.json": []byte(line)}
	d := Errorf("c", "m").At("w.json", Pos{Line: 1, Column: 1001})
	got := printText(t, TextOptions{MaxWidth: 20}, List{d}, src)
	want := "w.json:1:1001: m [c]\n" +
		"  1 | …aaaaaaaaaaXbbbbbbbbb…\n" +
		"    |            ^\n" +
		"1 error, 0 warnings\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// At the start of the line the window starts there.
	d = Errorf("c", "m").At("w.json", Pos{Line: 1, Column: 3})
	got = printText(t, TextOptions{MaxWidth: 5}, List{d}, src)
	if !strings.Contains(got, "  1 | aaaaa…\n    |   ^\n") {
		t.Errorf("got\n%s", got)
	}
	// A column past the end of a short line points just after it.
	src = Sources{"s.yaml": []byte("ab\n")}
	got = printText(t, TextOptions{}, List{Errorf("c", "m").At("s.yaml", Pos{Line: 1, Column: 1 << 30})}, src)
	if !strings.Contains(got, "  1 | ab\n    |   ^\n") {
		t.Errorf("got\n%q", got)
	}
}

func TestTextCapsDiagnosticsPerFile(t *testing.T) {
	var l List
	for i := range 7 {
		l.Add(Errorf("c", "a%d", i).At("a.yaml", Pos{Line: 1, Column: i + 1}))
	}
	l.Add(Errorf("c", "b").At("b.yaml", Pos{Line: 1, Column: 1}))
	for i := range 4 {
		l.Add(Errorf("c", "tree %d", i).WithPath("tree"))
	}
	got := printText(t, TextOptions{MaxPerFile: 3}, l, nil)
	want := "a.yaml:1:1: a0 [c]\na.yaml:1:2: a1 [c]\na.yaml:1:3: a2 [c]\n" +
		"  … and 4 more in a.yaml\n" +
		"b.yaml:1:1: b [c]\n" +
		"tree: tree 0 [c]\ntree: tree 1 [c]\ntree: tree 2 [c]\n" +
		"  … and 1 more\n" +
		"12 errors, 0 warnings\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := printText(t, TextOptions{MaxPerFile: -1}, l, nil); strings.Contains(got, "more") {
		t.Errorf("no cap still summarised:\n%s", got)
	}
}

func TestTextColours(t *testing.T) {
	src := Sources{"w.yaml": []byte("a: b\n")}
	l := List{
		Errorf("e", "bad").At("w.yaml", Pos{Line: 1, Column: 4}).WithHint("fix it"),
		Warningf("w", "meh").At("w.yaml", Pos{Line: 1, Column: 1}),
	}
	plain := printText(t, TextOptions{}, l, src)
	if strings.Contains(plain, "\x1b") {
		t.Fatalf("colour without Color:\n%q", plain)
	}
	got := printText(t, TextOptions{Color: true}, l, src)
	for _, want := range []string{
		"\x1b[1mw.yaml:1:4:\x1b[0m bad \x1b[1;31m[e]\x1b[0m\n",
		"  \x1b[36mhint:\x1b[0m fix it\n",
		"  \x1b[34m1 |\x1b[0m a: b\n",
		"\x1b[1;31m^\x1b[0m\n",
		"\x1b[1;33mwarning:\x1b[0m meh \x1b[1;33m[w]\x1b[0m\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured output lacks %q:\n%q", want, got)
		}
	}
}

// TestTextPrinterIsLinear prints what made the old printer super-linear —
// 10,000 diagnostics on one 21 KB line and 100,000 across a 1 MB file — and
// bounds the bytes printed and allocated (never the time).
func TestTextPrinterIsLinear(t *testing.T) {
	line := "when: [" + strings.Repeat("a == 1, ", 2600) + "]"
	src := Sources{"w.yaml": []byte("id: w\n" + line + "\n")}
	var l List
	for i := range 10_000 {
		l.Add(Errorf("invalid_predicate", "item %d", i).At("w.yaml", Pos{Line: 2, Column: 8 + 8*(i%2600)}))
	}
	out, alloc := measure(t, l, src)
	if out > 64<<10 {
		t.Errorf("printed %d bytes for 10,000 diagnostics on one line; want under 64 KiB", out)
	}
	if alloc > 4<<20 {
		t.Errorf("allocated %d bytes; want under 4 MiB", alloc)
	}

	var big strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&big, "k%d: v\n", i)
	}
	src = Sources{"big.yaml": []byte(big.String())}
	l = nil
	for i := range 100_000 {
		l.Add(Errorf("unknown_field", "unknown key `k%d`", i).At("big.yaml", Pos{Line: i + 1, Column: 1}))
	}
	out, alloc = measure(t, l, src)
	if out > 16<<10 {
		t.Errorf("printed %d bytes for 100,000 diagnostics; want under 16 KiB", out)
	}
	// The line index of a 1 MB file and the cap bookkeeping, not 100,000
	// rescans of it.
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes; want under 16 MiB", alloc)
	}
}

func measure(t *testing.T, l List, src Sources) (printed int, allocated uint64) {
	t.Helper()
	var b bytes.Buffer
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := WriteText(&b, l, src); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return b.Len(), after.TotalAlloc - before.TotalAlloc
}

func BenchmarkWriteText(b *testing.B) {
	var big strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&big, "k%d: v\n", i)
	}
	src := Sources{"big.yaml": []byte(big.String())}
	var l List
	for i := range 10_000 {
		l.Add(Errorf("unknown_field", "unknown key `k%d`", i).At("big.yaml", Pos{Line: i + 1, Column: 1}))
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = WriteText(&bytes.Buffer{}, l, src)
	}
}

// FuzzWriteText prints a diagnostic anywhere in arbitrary source bytes:
// never a panic, never a raw control byte (but newline and tab), never
// more than a bounded amount of output.
func FuzzWriteText(f *testing.F) {
	f.Add([]byte("a: b\n\tc: \x00d\n"), 2, 5, "m\x1b")
	f.Add([]byte("\xff\xfe\r\n\r\n"), 1, 1<<20, "")
	f.Add([]byte(strings.Repeat("x", 5000)), 1, 4000, "wide")
	f.Fuzz(func(t *testing.T, src []byte, line, col int, msg string) {
		l := List{Errorf("c", "%s", msg).At("f", Pos{Line: line, Column: col}).WithHint("%s", msg)}
		var b bytes.Buffer
		if err := WriteText(&b, l, Sources{"f": src}); err != nil {
			t.Fatal(err)
		}
		for _, c := range b.Bytes() {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				t.Fatalf("raw control byte %#x in %q", c, b.String())
			}
		}
		if limit := 8*len(msg) + 4*DefaultMaxWidth*4 + 256; b.Len() > limit {
			t.Fatalf("printed %d bytes (limit %d)", b.Len(), limit)
		}
	})
}

// The printer finds a line where yaml.v3 counts it: after a lone CR, a
// CR LF, a NEL, an LS or a PS as after an LF.
func TestTextFindsLinesAfterEveryLineBreak(t *testing.T) {
	src := Sources{"w.yaml": []byte("one: 1\rtwo: 2\r\nthree: 3\u0085four: 4\u2028five: 5\u2029six: 6\nseven: 7")}
	for n, want := range []string{"one: 1", "two: 2", "three: 3", "four: 4", "five: 5", "six: 6", "seven: 7"} {
		d := Errorf("c", "m").At("w.yaml", Pos{Line: n + 1, Column: 1})
		got := printText(t, TextOptions{}, List{d}, src)
		if !strings.Contains(got, fmt.Sprintf("  %d | %s\n", n+1, want)) {
			t.Errorf("line %d: got\n%s\nwant the source line %q", n+1, got, want)
		}
	}
	d := Errorf("c", "m").At("w.yaml", Pos{Line: 8, Column: 1})
	if got := printText(t, TextOptions{}, List{d}, src); strings.Contains(got, " | ") {
		t.Errorf("a line past the end printed a snippet:\n%s", got)
	}
}

func TestLineBreak(t *testing.T) {
	for in, want := range map[string]int{"\n": 1, "\r\n": 2, "\r": 1, "\u0085": 2, "\u2028": 3, "\u2029": 3, "a": 0, "\xc2": 0, "\xe2\x80": 0, "\u2027": 0} {
		if got := LineBreak([]byte(in), 0); got != want {
			t.Errorf("LineBreak(%q) = %d; want %d", in, got, want)
		}
	}
}

// TestTextSummaryNote: a note ends the summary line after the counts, and
// is escaped as messages are; no note, no change.
func TestTextSummaryNote(t *testing.T) {
	l := List{Warningf("c", "m").At("f.yaml", Pos{Line: 1, Column: 1})}
	var b bytes.Buffer
	if err := (TextOptions{SummaryNote: "the analysis is incomplete\x1b"}).Write(&b, l, nil); err != nil {
		t.Fatal(err)
	}
	if want := "f.yaml:1:1: warning: m [c]\n0 errors, 1 warning; the analysis is incomplete\\x1b\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	_ = TextOptions{}.Write(&b, l, nil)
	if want := "f.yaml:1:1: warning: m [c]\n0 errors, 1 warning\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
