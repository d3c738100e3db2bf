package semdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/workflow"
)

// chain returns a validated workflow of n states in a line, each with a
// retreat to the first, and its last guard spelt by last.
func chain(tb testing.TB, n int, last string) *workflow.Workflow {
	tb.Helper()
	var b strings.Builder
	b.WriteString("id: bench/chain\ntitle: Chain\ninitial: s0\nstates:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  s%d: {title: S%d}\n", i, i)
	}
	b.WriteString("  end: {title: End, terminal: true}\ntransitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: [a.x%d, b.y%d]}\n  - {from: s%d, to: s0, when: failed}\n", i, i+1, i, i, i+1)
	}
	fmt.Fprintf(&b, "  - {from: s%d, to: end, when: %s}\n", n-1, last)
	w, ds := workflow.Check("chain.yaml", []byte(b.String()))
	if ds.HasErrors() {
		tb.Fatal(ds)
	}
	return w
}

// BenchmarkCompareChain compares two 1,000-state workflows that differ in
// one guard: the comparison, the two projections and the four drawings.
func BenchmarkCompareChain(b *testing.B) {
	old, new := chain(b, 1000, "done"), chain(b, 1000, "finished")
	b.ReportAllocs()
	for b.Loop() {
		if c := Workflows(old, new); len(c.Transitions.Changed) != 1 {
			b.Fatalf("changed: %+v", c.Transitions.Changed)
		}
	}
}
