package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/workflow"
)

// generated returns a workflow of n states in a chain, with a retreat every
// tenth state and a terminal at the end: the shape of real workflows,
// stretched.
func generated(tb testing.TB, n int) *workflow.Workflow {
	tb.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "id: bench/gen%d\ntitle: Generated\ninitial: s0\nstates:\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  s%d: {title: S%d, summary: \"State %d does its part.\"}\n", i, i, i)
	}
	b.WriteString("  done: {title: Done, terminal: true}\ntransitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: s%d.ok}\n", i, i+1, i)
		if i%10 == 9 {
			fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: not s%d.ok}\n", i, i-5, i)
		}
	}
	fmt.Fprintf(&b, "  - {from: s%d, to: done}\n", n-1)
	w, ds := workflow.Load("gen.yaml", []byte(b.String()))
	ds.Extend(w.Validate())
	if ds.HasErrors() {
		tb.Fatal(ds.Err())
	}
	return w
}

func BenchmarkProject(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		w := generated(b, n)
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ds := Project(w, Options{}); ds.HasErrors() {
					b.Fatal(ds.Err())
				}
			}
		})
	}
}

// BenchmarkGenerate includes writing the YAML and the flow check of the
// written bytes, as `aepflow flow` does.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		w := generated(b, n)
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if out, _, ds := Generate(w, Options{}, YAML); out == nil {
					b.Fatal(ds.Err())
				}
			}
		})
	}
}

func TestGeneratedLargeWorkflowProjects(t *testing.T) {
	w := generated(t, 10000)
	out, facts, ds := Generate(w, Options{}, YAML)
	if out == nil {
		t.Fatal(ds.Err())
	}
	// Retreats every ten states, five back, touch their neighbours' spans
	// only when they overlap: s5..s9, s15..s19, … are separate groups.
	if facts.TopLevel < 1000 {
		t.Errorf("top-level nodes = %d", facts.TopLevel)
	}
}

// TestGenerateAllocationsGrowLinearly: projecting, writing and checking ten
// times the states allocates about ten times as much (the layout once
// probed maps per step, and the reader held the YAML tree and the values
// whole).
func TestGenerateAllocationsGrowLinearly(t *testing.T) {
	small, large := generated(t, 500), generated(t, 5000)
	a := testing.AllocsPerRun(2, func() { Generate(small, Options{}, YAML) })
	b := testing.AllocsPerRun(2, func() { Generate(large, Options{}, YAML) })
	if b > 12*a {
		t.Errorf("500 states: %.0f allocations; 5,000: %.0f (%.1f×, want at most 12×)", a, b, b/a)
	}
}
