package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/workflow"
)

// requirementsWorkflow returns a validated workflow of n states in a chain,
// each state and each transition requiring one item of every flavour: the
// renderers print a line for each (package reqtext).
func requirementsWorkflow(b *testing.B, n int) *workflow.Workflow {
	b.Helper()
	var src strings.Builder
	src.WriteString("id: bench/lines\ntitle: Lines\ninitial: s0\nstates:\n")
	set := "{predicates: [tests.unit.failed == 0], evidence: [{kind: test_result, at_least: 2, verifier: test-runner, horizon: 7d}]," +
		" artifacts: [{kind: spec, status: approved, relation: {kind: specifies, target: task}}], reviews: [design], approvals: [ship]," +
		" conditional: [{when: change.big, require: {evidence: diff}}], advisory: [{owner: qa, exit_criterion: ga, require: [ready]}]}"
	for i := 0; i < n; i++ {
		fmt.Fprintf(&src, "  s%d: {title: State %d, terminal: %v, requires: %s}\n", i, i, i == n-1, set)
	}
	src.WriteString("transitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(&src, "  - {from: s%d, to: s%d, when: step.done, requires: %s}\n", i, i+1, set)
	}
	w, diags := workflow.Load("lines.yaml", []byte(src.String()))
	if w != nil {
		diags.Extend(w.Validate())
	}
	if diags.HasErrors() {
		b.Fatal(diags.Err())
	}
	return w
}

// BenchmarkDOTRequirements200 draws a 200-state workflow whose states and
// edges carry seven requirement lines each.
func BenchmarkDOTRequirements200(b *testing.B) {
	w := requirementsWorkflow(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		if len(DOT(w, Options{})) == 0 {
			b.Fatal("no DOT")
		}
	}
}

// BenchmarkMermaidRequirements200 is the Mermaid of the same workflow.
func BenchmarkMermaidRequirements200(b *testing.B) {
	w := requirementsWorkflow(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		if len(Mermaid(w, Options{})) == 0 {
			b.Fatal("no Mermaid")
		}
	}
}
