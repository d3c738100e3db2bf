package flow

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// TestReadFileRefusesSpecialFiles: a named pipe would block the reader
// forever and /dev/zero would be read until memory runs out; both are
// refused as flow_unreadable, naming what they are.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "flow.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{fifo: "a named pipe", zero: "a character device", dir: "a directory"} {
		raw, ds := ReadFile(path)
		if raw != nil || len(ds) != 1 || ds[0].Code != "flow_unreadable" || !strings.Contains(ds[0].Message, "it is "+what+", not a regular file") {
			t.Errorf("%s: %v", path, ds)
		}
	}
}

func TestDetectFormat(t *testing.T) {
	for in, want := range map[string]string{
		`{"id":"x"}`:      "JSON",
		"\n  \t{\"a\":1}": "JSON",
		"\ufeff{}":        "JSON",
		"id: x\n":         "YAML",
		"# {json?}\n{}":   "YAML",
		"":                "YAML",
	} {
		if got := DetectFormat([]byte(in)); got != want {
			t.Errorf("DetectFormat(%q) = %s; want %s", in, got, want)
		}
	}
	raw, ds := ReadAs("<stdin>", DetectFormat([]byte(`{"id":"x"}`)), []byte(`{"id":"x"}`))
	if raw == nil || raw.Format != "JSON" || len(ds) != 0 {
		t.Errorf("ReadAs JSON: %v %v", raw, ds)
	}
}

// TestReadJSONOneLineIsLinear: a document on one line (as a JSON encoder
// writes it) read in time quadratic in its size: each position counted the
// characters from the line's start, so 20,000 nodes took 37 s and the
// 200,000 that fit in MaxSize about an hour. The test counts the bytes
// positions are counted over (no time is asserted): at most the
// document's size now, 4.3 billion for 4,000 nodes before.
func TestReadJSONOneLineIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"id":"x","root":{"id":"root","nodes":[`)
	const n = 4000
	for i := range n {
		if i > 0 {
			fmt.Fprintf(&b, `,{"id":"n%d","needs":["n%d"],"run":{"prompt":"é"}}`, i, i-1)
		} else {
			b.WriteString(`{"id":"n0","run":{"prompt":"é"}}`)
		}
	}
	b.WriteString(`]}}`)
	data := []byte(b.String())
	r := newJSONReader("one-line.json", data)
	if _, d := r.value(0); d != nil {
		t.Fatalf("refused: %v", d)
	}
	// Positions asked for in order count each byte once at most (each
	// counted the line from its start).
	if r.counted > len(data) {
		t.Fatalf("reading a one-line document of %d nodes (%d bytes) counted characters over %d bytes", n, len(data), r.counted)
	}
	if _, ds := CheckBytes("one-line.json", data, CheckOptions{FindingsOnly: true}); ds.HasErrors() {
		t.Fatalf("refused: %v", ds)
	}
}

// TestJSONPositionsCounted: positions counted on from the previous one
// are those counted from the line's start, forwards, backwards, across
// lines and after multi-byte characters.
func TestJSONPositionsCounted(t *testing.T) {
	data := []byte("{\"é\": [\"ü\", 1],\n  \"k\":\t\"日本\", \"z\": null}\n")
	r := newJSONReader("positions.json", data)
	var offs []int // every character boundary, forwards, then some backwards
	for off := range len(data) + 1 {
		if off == len(data) || utf8.RuneStart(data[off]) {
			offs = append(offs, off)
		}
	}
	offs = append(offs, 29, 4, 32, 0, 26, 26, len(data))
	for _, off := range offs {
		got := r.pos(off)
		if want := lfPos(data, off); got != want {
			t.Errorf("pos(%d) = %v, want %v", off, got, want)
		}
	}
}

// TestReadJSONRefusesLoneSurrogates: `\ud800` without its low half stands
// for no character; encoding/json read U+FFFD in its place and the plan
// exited 0, where serde_json, the harness's reader, refuses the document.
// A pair, an escaped backslash before `ud800` and U+FFFD itself are text.
func TestReadJSONRefusesLoneSurrogates(t *testing.T) {
	doc := func(prompt string) string {
		return `{"id":"x","root":{"id":"root","nodes":[{"id":"a","run":{"prompt":"` + prompt + `"}}]}}`
	}
	for _, c := range []struct{ src, esc string }{
		{doc(`p\ud800`), `\ud800`},
		{doc(`p\udc00q`), `\udc00`},
		{doc(`p\ud83d\u0041`), `\ud83d`},
		{doc(`é\ud800\ud800\udc00`), `\ud800`},
		{`{"id":"x","root":{"id":"root","nodes":[{"id":"a","run":{"\udbff":"p"}}]}}`, `\udbff`},
	} {
		_, ds := CheckBytes("s.json", []byte(c.src), CheckOptions{})
		at := strings.Index(c.src, c.esc)
		want := lfPos([]byte(c.src), at)
		if len(ds) != 1 || ds[0].Code != "flow_parse_error" || ds[0].Pos != want ||
			!strings.Contains(ds[0].Message, "`"+c.esc+"` is half of a UTF-16 surrogate pair without its other half") {
			t.Errorf("%s: %v, want one flow_parse_error at %v", c.src, ds, want)
		}
	}
	for _, prompt := range []string{`ok \ud83d\ude00`, `\\ud800`, `\ufffd`, "\uFFFD", `\\\ud83d\ude00`} {
		if _, ds := CheckBytes("ok.json", []byte(doc(prompt)), CheckOptions{}); ds.HasErrors() {
			t.Errorf("%s refused: %v", prompt, ds)
		}
	}
}
