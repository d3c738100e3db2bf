package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// corpusTree returns the shared corpus tree, or skips the benchmark where
// it is absent.
func corpusTree(tb testing.TB) string { return testshared.Corpus(tb, "tree") }

// The corpus checks of the tree (it loads clean, its step map is selected
// by id and by file) are in package conformance; the benchmark stays here.

func BenchmarkLoadCorpus(b *testing.B) {
	root := corpusTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Load(root); len(diags) != 0 {
			b.Fatal(diags)
		}
	}
}

// writeChain writes a tree whose one workflow is a chain of n states, each
// with a guarded transition to the next and a retreat to the first, plus a
// step map with a command step in every state.
func writeChain(b *testing.B, n int) string {
	root := b.TempDir()
	var w, m strings.Builder
	w.WriteString("id: bench/chain\ntitle: Chain\ninitial: s0\nstates:\n")
	m.WriteString("format: aep.driver-steps/1\nid: bench/steps\nworkflow: bench/chain/1\nstates:\n")
	for i := 0; i < n; i++ {
		term := ""
		if i == n-1 {
			term = ", terminal: true"
		}
		fmt.Fprintf(&w, "  s%d: {title: State %d, phases: [implementation]%s}\n", i, i, term)
		fmt.Fprintf(&m, "  s%d:\n    steps:\n      - {kind: command, run: [make, s%d], evidence: {kind: test_result, suite: unit, verifier: test-runner}}\n", i, i)
	}
	w.WriteString("transitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(&w, "  - {from: s%d, to: s%d, when: tests.unit.failed == 0}\n", i, i+1)
		if i%10 == 9 {
			fmt.Fprintf(&w, "  - {from: s%d, to: s0, when: tests.unit.failed > 0}\n", i)
		}
	}
	for dir, data := range map[string]string{"workflows": w.String(), "drivers": m.String()} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "doc.yaml"), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

func BenchmarkLoadGenerated10000States(b *testing.B) {
	root := writeChain(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		tr, diags := Load(root)
		if len(diags) != 0 || len(tr.Workflows["bench/chain"].States) != 10000 {
			b.Fatal(diags)
		}
	}
}
