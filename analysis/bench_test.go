package analysis

import (
	"fmt"
	"runtime"
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

// TestDegreeBound is §4.6's pairwise bound: a state with 65 transitions out
// gets no shadowing or overlap claim, one analysis_incomplete per
// transition naming the bound, and its per-move checks still run.
func TestDegreeBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("id: bench/wide\nversion: 1\ntitle: Wide\ninitial: s\nstates:\n  s: {title: S}\n")
	for i := range 65 {
		fmt.Fprintf(&b, "  t%d: {title: T, terminal: true}\n", i)
	}
	b.WriteString("transitions:\n")
	b.WriteString("  - {from: s, to: t0, when: tests.unit.failed < 0}\n")
	for i := 1; i < 65; i++ {
		fmt.Fprintf(&b, "  - {from: s, to: t%d, when: diff.exists}\n", i)
	}
	w, ds := workflow.Load("wide.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		t.Fatal(ds)
	}
	tr := &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}
	counts := map[string]int{}
	for _, d := range Analyze(tr, w, Options{Now: fixedNow}) {
		counts[d.Code]++
		if d.Code == CodeIncomplete && !strings.Contains(d.Message, "more than 64 transitions") {
			t.Errorf("incomplete without the bound: %s", d.Message)
		}
	}
	want := map[string]int{CodeIncomplete: 64, CodeNeverHolds: 1, CodeNeverEntered: 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("findings %v, want %v", counts, want)
	}
}

// simChain builds §12's simulate figure: a chain of n states, each move on
// diff.exists, and a scenario submitting one diff record on every entry.
func simChain(tb testing.TB, n int) (*tree.Tree, *workflow.Workflow, *Scenario) {
	var b strings.Builder
	b.WriteString("id: bench/walk\nversion: 1\ntitle: Walk\ninitial: s0\nstates:\n")
	for i := range n {
		fmt.Fprintf(&b, "  s%d: {title: S}\n", i)
	}
	b.WriteString("  done: {title: Done, terminal: true}\ntransitions:\n")
	for i := range n {
		next := fmt.Sprintf("s%d", i+1)
		if i == n-1 {
			next = "done"
		}
		fmt.Fprintf(&b, "  - {from: s%d, to: %s, when: diff.exists}\n", i, next)
	}
	w, ds := workflow.Load("walk.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		tb.Fatal(ds)
	}
	var sc strings.Builder
	sc.WriteString("format: aep.scenario/1\nnow: 2023-11-14\non_entry:\n")
	for i := range n {
		fmt.Fprintf(&sc, "  s%d:\n    - evidence: [{kind: diff, observed_at: 2023-11-13, files_changed: %d, producer: {producer: verifier, verifier: compiler}}]\n", i, i)
	}
	scen, ds := ReadScenarios([]ScenarioFile{{"walk-scenario.yaml", []byte(sc.String())}}, w, fixedNow)
	if ds.HasErrors() {
		tb.Fatal(ds)
	}
	return &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}, w, scen
}

// BenchmarkSimulateChain walks a 1,000-state chain end to end, one record
// per state (§12).
func BenchmarkSimulateChain(b *testing.B) { benchSimulate(b, 1000) }

// BenchmarkSimulateChain100 is the same walk over 100 states, for the
// growth ratio.
func BenchmarkSimulateChain100(b *testing.B) { benchSimulate(b, 100) }

func benchSimulate(b *testing.B, n int) {
	tr, w, sc := simChain(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		run, _, err := Simulate(tr, w, sc, SimOptions{})
		if err != nil || run.Outcome.Kind != OutcomeCompleted {
			b.Fatalf("%v %+v", err, run.Outcome)
		}
	}
}

// TestSimulateAllocationsGrowLinearly: a walk of ten times the moves and
// records costs at most twelve times the allocations, in number and in
// bytes (issue 13: copying the execution on every move made the bytes
// grow by a hundred, rebinding every entered state the number).
func TestSimulateAllocationsGrowLinearly(t *testing.T) {
	cost := func(n int) (mallocs, bytes float64) {
		tr, w, sc := simChain(t, n)
		walk := func() {
			run, _, err := Simulate(tr, w, sc, SimOptions{})
			if err != nil || run.Outcome.Kind != OutcomeCompleted || run.Outcome.Moves != n {
				t.Fatalf("%v %+v", err, run.Outcome)
			}
		}
		walk() // warm up once-only tables
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		walk()
		runtime.ReadMemStats(&after)
		return float64(after.Mallocs - before.Mallocs), float64(after.TotalAlloc - before.TotalAlloc)
	}
	n1, b1 := cost(100)
	n2, b2 := cost(1000)
	t.Logf("100 moves: %.0f allocations, %.0f bytes; 1,000 moves: %.0f, %.0f (%.1f×, %.1f×)", n1, b1, n2, b2, n2/n1, b2/b1)
	if n2 > 12*n1 || b2 > 12*b1 {
		t.Errorf("100 moves: %.0f allocations, %.0f bytes; 1,000 moves: %.0f, %.0f (%.1f×, %.1f×; want ≤ 12× each)", n1, b1, n2, b2, n2/n1, b2/b1)
	}
}

// TestSimulateChain checks the walk the benchmark measures.
func TestSimulateChain(t *testing.T) {
	tr, w, sc := simChain(t, 50)
	run, _, err := Simulate(tr, w, sc, SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome.Kind != OutcomeCompleted || run.Outcome.Moves != 50 || len(run.Entered) != 51 {
		t.Errorf("outcome %+v, %d entered", run.Outcome, len(run.Entered))
	}
}
