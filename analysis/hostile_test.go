package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// hostileGuard is a guard of a few dozen kilobytes that, within every bound
// of §4.6, asks for a million pair intersections of conjuncts of hundreds
// of atoms: a conjunction of n leaves and two disjunctions of m values of
// one path that contradict each other pairwise.
func hostileGuard(n, m int) string {
	var all, any1, any2 []string
	for i := range n {
		all = append(all, fmt.Sprintf("a%d.x", i))
	}
	for i := range m {
		any1 = append(any1, fmt.Sprintf("p.q == %d", i))
		any2 = append(any2, fmt.Sprintf("p.q == %d", i+m))
	}
	return fmt.Sprintf("{all: [{all: [%s]}, {any: [%s]}, {any: [%s]}]}", strings.Join(all, ", "), strings.Join(any1, ", "), strings.Join(any2, ", "))
}

func hostileWorkflow(t *testing.T, transitions int, guard string) (*tree.Tree, *workflow.Workflow) {
	var b strings.Builder
	b.WriteString("id: hostile/w\nversion: 1\ntitle: W\ninitial: s\nstates:\n  s: {title: S}\n")
	for i := range transitions {
		fmt.Fprintf(&b, "  t%d: {title: T, terminal: true}\n", i)
	}
	b.WriteString("transitions:\n")
	for i := range transitions {
		fmt.Fprintf(&b, "  - from: s\n    to: t%d\n    when: %s\n", i, guard)
	}
	w, ds := workflow.Load("w.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		t.Fatal(ds)
	}
	return &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}, w
}

// TestHostileGuards: a guard built to cost minutes is decided (the
// contradictions are found without copying conjuncts), and a few of them
// stop at the work bounds, reported as analysis_incomplete, not a hang.
// The counters, not a clock, are what the test checks.
func TestHostileGuards(t *testing.T) {
	tr, w := hostileWorkflow(t, 1, hostileGuard(500, 1000))
	a := newAnalyzer(tr, w, Options{Now: fixedNow})
	a.run()
	codes := map[string]int{}
	for _, d := range a.diags {
		codes[d.Code]++
	}
	if codes[CodeNeverHolds] != 1 || a.wfWork > MaxWorkflowWork {
		t.Errorf("one hostile guard: %v, work %d", codes, a.wfWork)
	}

	tr, w = hostileWorkflow(t, 5, hostileGuard(300, 1000))
	a = newAnalyzer(tr, w, Options{Now: fixedNow})
	a.run()
	cut := false
	for _, d := range a.diags {
		cut = cut || d.Code == CodeIncomplete && strings.Contains(d.Message, "stopped early")
	}
	if !cut || a.wfWork > MaxWorkflowWork+MaxDecisionWork {
		t.Errorf("five hostile guards: no workflow-wide cut (work %d)", a.wfWork)
	}
}
