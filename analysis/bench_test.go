package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// chainWorkflow generates §12's chain: s0 … s{n-1} and done; s_i -> s_{i+1}
// on tests.unit.failed == 0, s_i -> s_{i-1} on tests.unit.failed > 0, and
// every 7th state first an extra s_i -> done on static_analysis.errors == 0.
func chainWorkflow(tb testing.TB, n int) (*tree.Tree, *workflow.Workflow) {
	var b strings.Builder
	b.WriteString("id: bench/chain\nversion: 1\ntitle: Chain\ninitial: s0\nstates:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  s%d: {title: S}\n", i)
	}
	b.WriteString("  done: {title: Done, terminal: true}\ntransitions:\n")
	for i := 0; i < n; i++ {
		if i%7 == 0 {
			fmt.Fprintf(&b, "  - {from: s%d, to: done, when: static_analysis.errors == 0}\n", i)
		}
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		if !(i%7 == 0 && next == "done") {
			fmt.Fprintf(&b, "  - {from: s%d, to: %s, when: tests.unit.failed == 0}\n", i, next)
		}
		if i > 0 {
			fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: tests.unit.failed > 0}\n", i, i-1)
		}
	}
	w, ds := workflow.Load("chain.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		tb.Fatalf("chain: %v", ds)
	}
	if ds := w.Validate(); ds.HasErrors() {
		tb.Fatalf("chain: %v", ds)
	}
	t := &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}
	return t, w
}

func benchChain(b *testing.B, n int) {
	t, w := chainWorkflow(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Analyze(t, w, Options{Now: fixedNow})
	}
}

// BenchmarkAnalyzeChain is §12's figure: a 10,000-state chain.
func BenchmarkAnalyzeChain(b *testing.B) { benchChain(b, 10_000) }

// BenchmarkAnalyzeChain1000 is the tenth of it, for the scaling ratio.
func BenchmarkAnalyzeChain1000(b *testing.B) { benchChain(b, 1_000) }

// TestChainFindings checks what the benchmark analyses: one overlap per
// 7th state (witnessed), nothing else, and an allocation bound.
func TestChainFindings(t *testing.T) {
	tr, w := chainWorkflow(t, 200)
	ds := Analyze(tr, w, Options{Now: fixedNow})
	for _, d := range ds {
		if d.Code != CodeOverlapping {
			t.Errorf("unexpected %s", d.Error())
		}
	}
	if want := 200 / 7; len(ds) < want {
		t.Errorf("%d overlaps, want at least %d", len(ds), want)
	}
	allocs := testing.AllocsPerRun(1, func() { Analyze(tr, w, Options{Now: fixedNow}) })
	if perState := allocs / 200; perState > 2000 {
		t.Errorf("%.0f allocations per state, want at most 2000", perState)
	}
}
