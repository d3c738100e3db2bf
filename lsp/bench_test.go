package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchTree writes a tree the size of the shared corpus (25
// documents, about 88 KB) times copies: per copy 2 protocols, 16
// principles, one workflow of 12 states, 3 profiles, 2 lifecycles and a
// step map with three steps in each state. It returns the root, the first
// workflow's path and the total bytes written.
func writeBenchTree(tb testing.TB, copies int) (string, string, int) {
	tb.Helper()
	root := tb.TempDir()
	total := 0
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += len(body)
	}
	prose := strings.Repeat("Words that explain what this is for and why it matters to the people who run it. ", 10)
	const states = 12
	for c := 0; c < copies; c++ {
		write(fmt.Sprintf("protocols/base%d.yaml", c), fmt.Sprintf("id: base%d\ntitle: Base %d\nsummary: %s\nevidence_kinds: [test_result, static_analysis, review]\nverifiers: [test-runner, static-analyzer, human-review]\nphases: [work, check, review]\nobservables: ['tests.**', 'static_analysis.**', 'review.**']\n", c, c, prose))
		write(fmt.Sprintf("protocols/p%d.yaml", c), fmt.Sprintf("id: p%d\ntitle: Protocol %d\nsummary: %s\nextends: base%d/1\ncapabilities: [repository.read, repository.write]\n", c, c, prose, c))
		for i := 0; i < 16; i++ {
			write(fmt.Sprintf("principles/c%d/rule%d.yaml", c, i), fmt.Sprintf("id: rule%d-c%d\ntitle: Rule %d\nsummary: >-\n  %s\n  %s\nrequires:\n  before_review:\n    predicates:\n      - tests.unit.failed == 0\n  before_completion:\n    evidence:\n      - kind: test_result\n        verifier: test-runner\nevidence:\n  - kind: static_analysis\nverification:\n  - verifier: test-runner\non_failure: block\n", i, c, i, prose, prose))
		}
		var w, m strings.Builder
		fmt.Fprintf(&w, "id: flow%d/work\nversion: 1\ntitle: Work %d\nsummary: %s\ninitial: s0\nstates:\n", c, c, prose)
		fmt.Fprintf(&m, "format: aep.driver-steps/1\nid: flow%d/steps\nworkflow: flow%d/work/1\nstates:\n", c, c)
		for s := 0; s < states; s++ {
			term := ""
			if s == states-1 {
				term = "\n    terminal: true"
			}
			fmt.Fprintf(&w, "  s%d:\n    title: State %d\n    summary: %s\n    phases: [work]%s\n", s, s, prose, term)
			fmt.Fprintf(&m, "  s%d:\n    visit_budget: 4\n    steps:\n", s)
			fmt.Fprintf(&m, "      - kind: llm\n        description: Do the work of state %d.\n        prompt: >-\n          %s\n          %s\n        scope:\n          - paths: [\"src/**\"]\n            write: allowed\n          - paths: [\"**\"]\n            write: denied\n", s, prose, prose)
			fmt.Fprintf(&m, "      - kind: command\n        description: Unit tests.\n        run: [go, test, ./...]\n        evidence: {kind: test_result, suite: unit, verifier: test-runner}\n")
			fmt.Fprintf(&m, "      - kind: operator\n        description: Look at it.\n        prompt: %s\n", prose)
		}
		w.WriteString("transitions:\n")
		for s := 0; s+1 < states; s++ {
			fmt.Fprintf(&w, "  - from: s%d\n    to: s%d\n    when: tests.unit.failed == 0\n", s, s+1)
			if s%3 == 2 {
				fmt.Fprintf(&w, "  - from: s%d\n    to: s0\n    when: review.approved == false\n    description: Back to the start.\n", s)
			}
		}
		write(fmt.Sprintf("workflows/flow%d.yaml", c), w.String())
		write(fmt.Sprintf("drivers/steps%d.yaml", c), m.String())
		for i := 0; i < 3; i++ {
			write(fmt.Sprintf("profiles/c%d-%d.yaml", c, i), fmt.Sprintf("id: prof%d.v%d\ntitle: Profile\nsummary: %s\nprotocol: p%d/1\nworkflow: flow%d/work\nprinciples: [rule0-c%d, rule1-c%d, rule2-c%d]\ncompletion:\n  all:\n    - tests.unit.failed == 0\n", c, i, prose, c, c, c, c, c))
		}
		for i := 0; i < 2; i++ {
			write(fmt.Sprintf("artifacts/lifecycles/c%d-%d.yaml", c, i), fmt.Sprintf("kind: note-c%d-%d\ninitial: draft\ntransitions:\n  draft: [approved, archived]\n  approved: [archived]\n  archived: []\nrequires:\n  approved:\n    - evidence: review\n      at_least: 1\n", c, i))
		}
	}
	return root, filepath.Join(root, "workflows", "flow0.yaml"), total
}

// BenchmarkDiagnosticsAfterOneLineChange measures, over the pipe, the time
// from a one-line didChange of a workflow in a tree ten times the corpus
// to the publication of its new diagnostics: the change alternates between
// a typo'd `to:` (diagnostics appear) and the original (they clear).
func BenchmarkDiagnosticsAfterOneLineChange(b *testing.B) {
	root, wfPath, total := writeBenchTree(b, 10)
	c := startServer(b, Options{Debounce: -1})
	c.initialize(root)
	good := c.open(wfPath)
	bad := strings.Replace(good, "    to: s5\n", "    to: s55\n", 1)
	if good == bad {
		b.Fatal("the edit changes nothing")
	}
	// The first validation loads the whole tree; wait for it with a
	// change that publishes, then start timing.
	c.change(wfPath, 1, bad)
	c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
	b.ReportMetric(float64(total), "tree-bytes")
	b.ReportAllocs()
	for version := 2; b.Loop(); version++ {
		text, clean := good, true
		if version%2 == 1 {
			text, clean = bad, false
		}
		c.change(wfPath, version, text)
		c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool { return (len(ds) == 0) == clean })
	}
	b.StopTimer()
	if err := c.exit(true); err != nil {
		b.Fatal(err)
	}
}

// TestBenchTreeIsClean: the benchmark's tree validates clean, so the
// benchmark measures the one change, not a tree full of problems.
func TestBenchTreeIsClean(t *testing.T) {
	root, _, total := writeBenchTree(t, 10)
	if diags := validated(root); len(diags) != 0 {
		t.Fatalf("%d problems, first %v", len(diags), diags[0])
	}
	if total < 800_000 {
		t.Errorf("the tree is %d bytes, smaller than ten corpora", total)
	}
}

// BenchmarkFullRevalidation is what the server would pay without
// incremental re-reading: load and check the whole tree of
// BenchmarkDiagnosticsAfterOneLineChange from disk.
func BenchmarkFullRevalidation(b *testing.B) {
	root, _, _ := writeBenchTree(b, 10)
	b.ReportAllocs()
	for b.Loop() {
		if diags := validated(root); len(diags) != 0 {
			b.Fatal(diags)
		}
	}
}
