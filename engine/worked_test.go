package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
)

var testNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// corpusPlan resolves testdata/drive/task.yaml against the corpus tree.
func corpusPlan(t testing.TB) *Plan {
	t.Helper()
	tr, diags := LoadTree(filepath.Join(sharedDir(t), "corpus", "tree"))
	if diags.HasErrors() {
		t.Fatalf("tree: %v", diags)
	}
	data, err := os.ReadFile("testdata/drive/task.yaml")
	if err != nil {
		t.Fatal(err)
	}
	task, diags := ReadTask("testdata/drive/task.yaml", data)
	if diags.HasErrors() {
		t.Fatalf("task: %v", diags)
	}
	plan, diags := Resolve(tr, task)
	if diags.HasErrors() {
		t.Fatalf("resolve: %v", diags)
	}
	return plan
}

func driveStore(t testing.TB, empty bool) *artifact.Graph {
	t.Helper()
	if empty {
		return artifact.NewGraph(nil)
	}
	g, diags := artifact.ReadStore("testdata/drive/store")
	if diags.HasErrors() {
		t.Fatalf("store: %v", diags)
	}
	return g
}

func testRecord(suite string, passed, failed float64) evidence.Record {
	return evidence.Record{
		ObservedAt: testNow.UnixMilli() - 3_600_000,
		Producer:   evidence.Producer{Class: "verifier", Name: "test-runner"},
		Value:      evidence.Payload{Kind: "test_result", Fields: map[string]any{"suite": suite, "passed": passed, "failed": failed, "skipped": 0.0}},
	}
}

func TestInForce(t *testing.T) {
	plan := corpusPlan(t)
	var ids []string
	for _, p := range plan.InForce {
		ids = append(ids, p.ID)
	}
	want := "spec-driven test-driven static-analysis least-privilege provenance-tracking contract-testing property-based-testing approval-gates reversible-changes"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("in force:\n got %s\nwant %s", got, want)
	}
}

func reasons(t *testing.T, e *Execution) string {
	t.Helper()
	r, err := e.Clone().Transition()
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != Blocked {
		t.Fatalf("transition = %+v, want blocked", r)
	}
	return strings.Join(r.Reasons, "\n") + "\n"
}

func TestWorkedExampleA(t *testing.T) {
	plan := corpusPlan(t)
	e := NewExecution(plan, driveStore(t, false), testNow)
	e.EnterState("establish_verifiers")
	want := `establish_verifiers -> implement: guard: test.exists
establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle test-driven]
establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle test-driven]
`
	if got := reasons(t, e); got != want {
		t.Errorf("(a) reasons:\n%s\nwant:\n%s", got, want)
	}

	passing := e.Clone()
	passing.Submit(testRecord("unit", 3, 0))
	want = "establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle test-driven]\n"
	if got := reasons(t, passing); got != want {
		t.Errorf("(a) after a passing test:\n%s\nwant:\n%s", got, want)
	}

	failing := e.Clone()
	failing.Submit(testRecord("unit", 0, 1))
	r, err := failing.Transition()
	if err != nil || r.Kind != Moved || r.To != "implement" {
		t.Errorf("after a failing test: %+v, %v; want moved to implement", r, err)
	}

	empty := NewExecution(plan, driveStore(t, true), testNow)
	empty.EnterState("establish_verifiers")
	got := reasons(t, empty)
	line := "establish_verifiers -> implement: ? artifact specification (approved) which specifies this task — no specification artifact is declared [principle spec-driven]\n"
	if !strings.HasPrefix(got, "establish_verifiers -> implement: guard: test.exists\n"+line) {
		t.Errorf("(a) over an empty store:\n%s", got)
	}
}

func TestWorkedExampleB(t *testing.T) {
	plan := corpusPlan(t)
	e := NewExecution(plan, driveStore(t, true), testNow)
	e.EnterState("specify")
	want := `specify -> declined: guard: specification.declines_the_request
specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-driven]
specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle test-driven]
specify -> declined: ? regression_suite.result == passed — unobserved: regression_suite.result [principle test-driven]
specify -> declined: ? evidence.first_seq.test_result < evidence.first_seq.diff — unobserved: evidence.first_seq.test_result, evidence.first_seq.diff [principle test-driven]
specify -> declined: ? static_analysis.errors == 0 — unobserved: static_analysis.errors [principle static-analysis]
specify -> declined: ? evidence verification (independent) — 0 of 1 required record(s) submitted [principle provenance-tracking]
specify -> declined: ? evidence diff — 0 of 1 required record(s) submitted [principle provenance-tracking]
specify -> declined: ? contracts.checked > 0 — unobserved: contracts.checked [principle contract-testing]
specify -> declined: ? contracts.failed == 0 — unobserved: contracts.failed [principle contract-testing]
specify -> declined: ? contracts.breaking_changes == 0 — unobserved: contracts.breaking_changes [principle contract-testing]
specify -> declined: ? evidence.count.property_test_result >= 1 — unobserved: evidence.count.property_test_result [principle property-based-testing]
specify -> decompose: guard: artifact.specification.exists
`
	if got := reasons(t, e); got != want {
		t.Errorf("(b) reasons:\n%s\nwant:\n%s", got, want)
	}
	if v, _ := e.Facts().Lookup("evidence.missing"); v.String() != "8" {
		t.Errorf("evidence.missing = %v, want 8", v)
	}
}
