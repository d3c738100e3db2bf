package instruct

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/workflow"
)

// maxFuzzInput bounds the workflows FuzzMarkdown reads, in bytes, for the
// reason workflow.maxFuzzInput gives (minimization is cubic in the size).
const maxFuzzInput = 640

// fuzzSeeds are small workflows holding the shapes that stress the
// writer: document text that starts with or holds block markers, guards
// with backticks and newlines, policies, capabilities, self-loops and
// terminals with moves.
var fuzzSeeds = []string{
	`{id: x, title: "# T", summary: "- s", initial: a, states: {a: {title: "1. A", phases: [p]}, b: {title: B, terminal: true}}, transitions: [{from: a, to: b, when: {m: "a` + "`" + `b"}, description: "> d"}]}`,
	`{id: x, title: T, initial: a, states: {a: {title: A, on_failure: {action: retry, max_attempts: 2, then: abort}, capabilities: {deny: ["deployment.create:prod"]}}, b: {title: B, terminal: true, phases: [completion]}}, transitions: [{from: a, to: a, when: "x.y"}, {from: a, to: b, when: never, requires: {evidence: [diff]}}, {from: b, to: a}]}`,
	"{id: x, title: \"T\\nwith\\tspace\", initial: a, states: {a: {title: A, summary: \"```\\n<b>\\n---\"}, b: {title: B, terminal: true}}, transitions: [{from: a, to: b, description: \"[x]: y\"}]}",
}

// FuzzMarkdown writes the instructions of any workflow that validates,
// with the principles of the cases tree: nothing may panic, and the
// document must keep the text rules of §10 and one heading per state.
func FuzzMarkdown(f *testing.F) {
	tr := loadTree(f, filepath.Join("testdata", "cases"))
	principles := principlesOf(tr)
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		w, ds := workflow.Load("fuzz.yaml", data)
		if w == nil || ds.HasErrors() || w.Validate().HasErrors() {
			return
		}
		doc := Markdown(Build(w, principles, nil))
		checkTextRules(t, doc)
		for _, id := range w.StateIDs() {
			if !bytes.Contains(doc, []byte(". "+code(id)+" — ")) {
				t.Fatalf("no heading for state %s:\n%s", id, doc)
			}
		}
		if n := strings.Count(string(doc), "\n### "); n != len(w.States)+countBinding(doc) {
			t.Fatalf("%d level-3 headings for %d states:\n%s", n, len(w.States), doc)
		}
	})
}

// countBinding counts the principle headings of doc.
func countBinding(doc []byte) int { return strings.Count(string(doc), "\n### `cases") }

// TestFuzzSeedsValidate makes sure the seeds reach the writer.
func TestFuzzSeedsValidate(t *testing.T) {
	for i, s := range fuzzSeeds {
		w, ds := workflow.Load(fmt.Sprintf("seed%d.yaml", i), []byte(s))
		if w == nil || ds.HasErrors() {
			t.Fatalf("seed %d does not load: %v", i, ds.Err())
		}
		if vs := w.Validate(); vs.HasErrors() {
			t.Fatalf("seed %d does not validate: %v", i, vs.Err())
		}
		checkTextRules(t, Markdown(Build(w, nil, nil)))
	}
}

// BenchmarkMarkdown builds and writes the instructions of a chain of n
// states, each with a retreat, against the cases tree's principles.
func BenchmarkMarkdown(b *testing.B) {
	tr := loadTree(b, filepath.Join("testdata", "cases"))
	principles := principlesOf(tr)
	for _, n := range []int{10, 100, 1000} {
		w := chain(b, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Markdown(Build(w, principles, nil))
			}
		})
	}
}

// chain returns a validated workflow of n states s0 … s<n-1> in a chain,
// each with a move back to s0 and a summary long enough to wrap.
func chain(tb testing.TB, n int) *workflow.Workflow {
	var b strings.Builder
	b.WriteString("id: bench/chain\ntitle: Chain\ninitial: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  s%d: {title: S%d, phases: [p%d], summary: %q}\n", i, i, i%7, strings.Repeat("word `code span` ", 12))
	}
	fmt.Fprintf(&b, "  end: {title: End, terminal: true, phases: [completion]}\ntransitions:\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: step.%d.done}\n  - {from: s%d, to: s0, when: step.%d.failed}\n", i, i+1, i, i+1, i)
	}
	fmt.Fprintf(&b, "  - {from: s%d, to: end}\n", n-1)
	w, ds := workflow.Load("chain.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() || w.Validate().HasErrors() {
		tb.Fatalf("the chain does not validate: %v %v", ds.Err(), w.Validate().Err())
	}
	return w
}
