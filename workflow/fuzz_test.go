package workflow

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

// maxFuzzInput bounds the workflows FuzzLoadWorkflow reads, in bytes.
//
// Why a bound: whenever the Go fuzzer finds an input with new coverage, a
// worker minimizes it before fuzzing on, trying about n²/2 cuts of an
// n-byte input, each a load, a validation and a layout — cubic in n
// overall. Seeded with the whole 2.4 KB ../testdata/workflow/ok/full.yaml, each
// interesting mutant cost millions of calls to minimize (capped only by
// -fuzzminimizetime) before its worker fuzzed again (docs/fuzzing.md).
// Every construct and every validation rule shows on a few states, the
// largest error fixture is 570 bytes, and full.yaml is split into seeds
// that fit (splitWorkflow); TestOK reads it whole.
const maxFuzzInput = 640

// FuzzLoadWorkflow feeds arbitrary bytes through Load, Validate and
// ComputeLayout: nothing may panic, every position must lie inside the
// input, and the layout must keep its invariants. Inputs over maxFuzzInput
// bytes are outside its domain (see there for why).
func FuzzLoadWorkflow(f *testing.F) {
	var seeds [][]byte
	for _, file := range testkit.Files(f, "../testdata/workflow/ok/*.yaml", "../testdata/workflow/ok/*.json", "../testdata/workflow/err/*.yaml", "../testdata/workflow/err/*.json") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= maxFuzzInput {
			seeds = append(seeds, data)
			continue
		}
		parts := splitWorkflow(data)
		for _, p := range parts {
			if w, ds := Load(file, p); w == nil || ds.HasErrors() {
				f.Fatalf("%s: a split seed does not load: %v\n%s", file, ds.Err(), p)
			}
		}
		seeds = append(seeds, parts...)
	}
	seeds = append(seeds, []byte(genWorkflow(7)), []byte(loopWorkflow))
	for _, s := range seeds {
		if len(s) > maxFuzzInput {
			f.Fatalf("a seed of %d bytes is over the bound:\n%s", len(s), s)
		}
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		w, diags := Load("f.yaml", data)
		checkPositions(t, data, diags)
		if _, again := Load("f.yaml", data); errorLines(again) != errorLines(diags) {
			t.Fatalf("Load is not deterministic:\n%s---\n%s", errorLines(diags), errorLines(again))
		}
		if w == nil || diags.HasErrors() {
			return
		}
		checkPositions(t, data, w.Validate())
		l := ComputeLayout(w)
		for id := range w.States {
			if l.Disc(id) < 0 || l.Layer(id) < 0 || l.Column(id) < 0 || l.Layer(id) >= l.Depth ||
				l.Layers[l.Layer(id)][l.Column(id)] != id {
				t.Fatalf("state %s: disc %d, layer %d, column %d (depth %d)", id, l.Disc(id), l.Layer(id), l.Column(id), l.Depth)
			}
		}
		if l.Depth > len(w.States) || (len(w.States) > 0) != (l.Depth > 0) {
			t.Fatalf("depth %d for %d states", l.Depth, len(w.States))
		}
		checkBackIsClosing(t, w, l)
		if d := sameAsReference(w); d != "" {
			t.Fatal(d)
		}
	})
}

// loopWorkflow is a small seed with a back edge, a self-loop and a
// branch, for the layout (genWorkflow is a back-edge-free chain below
// eight states).
const loopWorkflow = `id: gen/loop
title: Loop
initial: a
states:
  a: {title: A}
  b: {title: B}
  c: {title: C}
  d: {title: D, terminal: true}
transitions:
  - {from: a, to: b}
  - {from: b, to: c, when: b.done}
  - {from: c, to: a, when: {any: [c.failed > 0, not c.ok]}}
  - {from: c, to: c, when: not c.ready}
  - {from: b, to: d}
  - {from: c, to: d}
`

// seedStateBytes is what one state seed of splitWorkflow may hold of its
// state, so that, with the header, it stays well inside maxFuzzInput.
const seedStateBytes = 320

// splitWorkflow cuts a block-style workflow (top-level keys at column 0,
// states and transitions indented by two) into small documents, each
// loading cleanly:
//
//   - per state, its other entries packed into pieces of at most
//     seedStateBytes (an entry too large alone is split into its children,
//     recursively), each piece with the state's `title`, `terminal` and
//     `irreversible` lines the only state of a document that starts there;
//   - per transition, a document holding it and every state reduced to its
//     `title`, `terminal` and `irreversible` lines (what validation reads).
func splitWorkflow(data []byte) [][]byte {
	var header, states, transitions []string
	section := &header
	for _, l := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "":
		case l == "states:\n":
			section = &states
		case l == "transitions:\n":
			section = &transitions
		case indent(l) == 0:
			section = &header
			header = append(header, l)
		default:
			*section = append(*section, l)
		}
	}
	doc := func(initial string, parts ...[]string) []byte {
		var b strings.Builder
		for _, l := range header {
			if strings.HasPrefix(l, "initial:") && initial != "" {
				l = "initial: " + initial + "\n"
			}
			b.WriteString(l)
		}
		for _, p := range parts {
			b.WriteString(strings.Join(p, ""))
		}
		return []byte(b.String())
	}
	var out [][]byte
	skeleton := []string{"states:\n"}
	for _, st := range entries(states) {
		name := strings.TrimSpace(strings.SplitN(st[0], ":", 2)[0])
		kept, rest := st[:1:1], []string(nil)
		for _, e := range entries(st[1:]) {
			key := strings.TrimSpace(strings.SplitN(e[0], ":", 2)[0])
			if len(e) == 1 && (key == "title" || key == "terminal" || key == "irreversible") {
				kept = append(kept, e[0])
			} else {
				rest = append(rest, e...)
			}
		}
		skeleton = append(skeleton, kept...)
		pieces := pack(kept, rest, seedStateBytes)
		if len(pieces) == 0 {
			pieces = [][]string{kept}
		}
		for _, piece := range pieces {
			out = append(out, doc(name, []string{"states:\n"}, piece))
		}
	}
	for _, tr := range entries(transitions) {
		out = append(out, doc("", skeleton, []string{"transitions:\n"}, tr))
	}
	return out
}

// pack groups body, the lines below the ancestors' last line, into pieces
// of at most limit bytes, each prefixed by the ancestors. An entry that
// does not fit alone is packed from its own children; a single line that
// does not fit becomes a piece of its own.
func pack(ancestors, body []string, limit int) [][]string {
	var out [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, append(slices.Clip(ancestors), cur...))
			cur = nil
		}
	}
	for _, e := range entries(body) {
		switch {
		case size(ancestors)+size(e) > limit && len(e) > 1:
			flush()
			out = append(out, pack(append(slices.Clip(ancestors), e[0]), e[1:], limit)...)
		case size(ancestors)+size(cur)+size(e) > limit:
			flush()
			cur = e
		default:
			cur = append(cur, e...)
		}
	}
	flush()
	return out
}

// entries splits lines into the entries at their smallest indentation:
// each starts at a line of that indentation and holds the deeper lines
// after it.
func entries(lines []string) [][]string {
	base := -1
	for _, l := range lines {
		if base < 0 || indent(l) < base {
			base = indent(l)
		}
	}
	var out [][]string
	for _, l := range lines {
		if indent(l) == base || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func size(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return n
}

// checkPositions asserts that every positioned diagnostic points inside
// data: a line that exists (or the one just past a final newline) and a
// column from 1.
func checkPositions(t *testing.T, data []byte, diags diag.List) {
	t.Helper()
	lines := testkit.LineBound(data)
	for _, d := range diags {
		if d.Code == "" || d.Message == "" {
			t.Fatalf("diagnostic without code or message: %+v", d)
		}
		if !d.Pos.IsValid() {
			continue
		}
		if d.Pos.Line > lines || d.Pos.Column < 1 {
			t.Fatalf("%s: position outside the %d-line input", d.Error(), lines)
		}
	}
}
