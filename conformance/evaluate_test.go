package conformance

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/internal/hookmatrix"
	"github.com/aepflow/aepflow/internal/testkit"
)

func init() { register(evaluateCases...) }

// green is a passing first unit test, which test-driven refuses.
const green = `- kind: test_result
  observed_at: 2024-01-01
  suite: unit
  passed: 3
  producer: {producer: verifier, verifier: test-runner}
`

var evaluateCases = []Case{
	// The project's own tree, task and store (testdata/project).
	{Name: "evaluate/project-initial", Steps: []Step{
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--store", "$TESTDATA/project/.engineering/planning"}, Golden: "evaluate/project-initial.txt"},
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--store", "$TESTDATA/project/.engineering/planning", "--format", "json"}, Golden: "evaluate/project-initial.json"},
	}},
	{Name: "evaluate/project-establish-verifiers", Setup: writeGreen, Steps: []Step{
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--store", "$TESTDATA/project/.engineering/planning", "--state", "establish_verifiers"}, Golden: "evaluate/project-establish-verifiers.txt"},
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--store", "$TESTDATA/project/.engineering/planning", "--state", "establish_verifiers", "--evidence", "green.yaml"},
			Stdout: []string{`^1 evidence record|, 1 evidence record`, `✗ test.first_result == failed — test.first_result = passed \[principle tests-first\]`}},
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--state", "establish_verifiers", "--evidence", "green.yaml", "--facts"}, Golden: "evaluate/project-facts.txt"},
	}},
	{Name: "evaluate/project-snapshot", Setup: func(t *testing.T, e *Env) {
		writeFile(t, e, "other.json", strings.Replace(string(readFile(t, e.TestdataPath("snapshot", "basic.json"))), `"task": "DRIVE-1"`, `"task": "OTHER-1"`, 1))
	}, Steps: []Step{
		// The snapshot (run 3 of DRIVE-1: one failing unit test at
		// establish_verifiers) restores onto the project's task.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--store", "$TESTDATA/project/.engineering/planning", "--snapshot", "$TESTDATA/snapshot/basic.json"}, Golden: "evaluate/project-snapshot.txt"},
		// A snapshot of another task is refused.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--snapshot", "other.json"}, Exit: 1, NoStdout: true, Stderr: []string{"the snapshot is of task `OTHER-1`, not `DRIVE-1`"}},
	}},
	{Name: "evaluate/project-unknown-state", Steps: []Step{
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--state", "polishing"}, Exit: 1, Stderr: []string{"`polishing` is not a state of workflow `fx/flow/1`"}},
	}},

	// From cmd/aepflow/testdata/script/evaluate_corpus.txtar: adp/default
	// from `receive` over the corpus tree, with testdata/drive's task and
	// store.
	{Name: "evaluate/corpus-walk", Shared: true, Setup: writeGreen, Steps: []Step{
		// At the initial state the move to specify is permitted.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree"},
			Stdout: []string{`^state receive$`, `^receive -> specify: permitted$`, `^completion: not complete$`}},
		// Leaving specify over an empty store: declined is tried first,
		// decompose needs a specification.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--state", "specify"},
			Stdout: []string{`^specify -> declined: blocked$`, `^  guard: specification.declines_the_request$`,
				`^  \? evidence diff — 0 of 1 required record\(s\) submitted \[principle provenance-tracking\]$`,
				`^specify -> decompose: blocked$`, `^  guard: artifact.specification.exists$`}},
		// With the store holding the specification, decompose is permitted.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--store", "$TESTDATA/drive/store", "--state", "specify"},
			Stdout: []string{`^specify -> decompose: permitted$`}},
		// establish_verifiers with no evidence: reason (a).
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--store", "$TESTDATA/drive/store", "--state", "establish_verifiers"},
			Stdout: []string{`^establish_verifiers -> implement: blocked$`,
				`^  \? test.first_result == failed — unobserved: test.first_result \[principle test-driven\]$`}},
		// The corpus's red test moves it.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--store", "$TESTDATA/drive/store", "--state", "establish_verifiers",
			"--evidence", "$SHARED/corpus/engine-examples/development-passkeys/evidence/01-red-test.yaml"},
			Stdout: []string{`1 evidence record`, `^establish_verifiers -> implement: permitted$`}},
		// A passing first test is refused by test-driven.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--store", "$TESTDATA/drive/store", "--state", "establish_verifiers",
			"--evidence", "green.yaml"},
			Stdout: []string{`✗ test.first_result == failed — test.first_result = passed \[principle test-driven\]`}},
		// The same as JSON.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--store", "$TESTDATA/drive/store", "--state", "establish_verifiers", "--format", "json"},
			Stdout: []string{`"state": "establish_verifiers"`, `"permitted": false`, `"guard": "test.exists"`}},
		// The corpus's 03-verification.yaml predates the required
		// observed_at and is refused.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree",
			"--evidence", "$SHARED/corpus/engine-examples/development-passkeys/evidence/03-verification.yaml"},
			Exit: 1, NoStdout: true, Stderr: []string{"the required key `observed_at` is missing"}},
		// An undeclared state exits 1.
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/drive/task.yaml", "--root", "$SHARED/corpus/tree", "--state", "polishing"},
			Exit: 1, Stderr: []string{"`polishing` is not a state of workflow `adp/default/2`"}},
	}},

	// From engine/engine_test.go, engine/worked_test.go,
	// engine/load_test.go and engine/snapshot_test.go.
	{Name: "evaluate/corpus-tree-loads", Shared: true, Check: corpusEngineTree},
	{Name: "evaluate/corpus-vocabulary", Shared: true, Check: corpusVocabulary},
	{Name: "evaluate/corpus-in-force", Shared: true, Check: corpusInForce},
	{Name: "evaluate/corpus-report-goldens", Shared: true, Check: corpusReportGoldens},
	{Name: "evaluate/corpus-worked-example-a", Shared: true, Check: corpusWorkedExampleA},
	{Name: "evaluate/corpus-worked-example-b", Shared: true, Check: corpusWorkedExampleB},
	{Name: "evaluate/corpus-restore", Shared: true, Check: corpusRestore},
}

func writeGreen(t *testing.T, e *Env) { writeFile(t, e, "green.yaml", green) }

// testNow is the clock of the API checks.
var testNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// corpusPlan resolves ../testdata/drive/task.yaml against the corpus tree.
func corpusPlan(t testing.TB, e *Env) *engine.Plan {
	t.Helper()
	tr, diags := engine.LoadTree(e.SharedPath("corpus", "tree"))
	if diags.HasErrors() {
		t.Fatalf("tree: %v", diags)
	}
	file := e.TestdataPath("drive", "task.yaml")
	task, diags := engine.ReadTask(file, readFile(t, file))
	if diags.HasErrors() {
		t.Fatalf("task: %v", diags)
	}
	plan, diags := engine.Resolve(tr, task)
	if diags.HasErrors() {
		t.Fatalf("resolve: %v", diags)
	}
	return plan
}

// driveStore reads ../testdata/drive/store, or returns an empty graph.
func driveStore(t testing.TB, e *Env, empty bool) *artifact.Graph {
	t.Helper()
	if empty {
		return artifact.NewGraph(nil)
	}
	g, diags := artifact.ReadStore(e.TestdataPath("drive", "store"))
	if diags.HasErrors() {
		t.Fatalf("store: %v", diags)
	}
	return g
}

// corpusEngineTree: the engine loads the corpus tree clean, with its
// counts, and names test-driven's obligations.
func corpusEngineTree(t *testing.T, e *Env) {
	tr, diags := engine.LoadTree(e.SharedPath("corpus", "tree"))
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	if len(tr.Protocols) != 2 || len(tr.Profiles) != 3 || len(tr.Workflows) != 1 || len(tr.Principles) != 16 {
		t.Fatalf("loaded %d protocols, %d profiles, %d workflows, %d principles", len(tr.Protocols), len(tr.Profiles), len(tr.Workflows), len(tr.Principles))
	}
	var ids []string
	for _, o := range engine.Obligations(tr.Principles["test-driven"]) {
		ids = append(ids, o.ID)
	}
	if len(ids) != 2 || ids[0] != "test-driven/before-completion" || ids[1] != "test-driven/before-implementation" {
		t.Errorf("test-driven obligations = %v", ids)
	}
}

// corpusVocabulary: every fact the corpus profiles' workflow and
// completion read is observable.
func corpusVocabulary(t *testing.T, e *Env) {
	tr, _ := engine.LoadTree(e.SharedPath("corpus", "tree"))
	if d := engine.CheckVocabulary(tr); len(d) != 0 {
		t.Errorf("corpus: %v", d)
	}
}

// corpusInForce: the principles in force under development.standard, in
// order.
func corpusInForce(t *testing.T, e *Env) {
	plan := corpusPlan(t, e)
	var ids []string
	for _, p := range plan.InForce {
		ids = append(ids, p.ID)
	}
	want := "spec-driven test-driven static-analysis least-privilege provenance-tracking contract-testing property-based-testing approval-gates reversible-changes"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("in force:\n got %s\nwant %s", got, want)
	}
}

// corpusReportGoldens pins the text and JSON reports of three states
// (moved from engine/testdata/report).
func corpusReportGoldens(t *testing.T, e *Env) {
	plan := corpusPlan(t, e)
	for _, c := range []struct {
		name, state string
		empty       bool
	}{{"establish_verifiers", "establish_verifiers", false}, {"specify-empty", "specify", true}, {"receive", "receive", false}} {
		x := engine.NewExecution(plan, driveStore(t, e, c.empty), testNow)
		if c.state != x.State {
			x.EnterState(c.state)
		}
		r, err := engine.NewReport(x)
		if err != nil {
			t.Fatal(err)
		}
		var text, js bytes.Buffer
		_ = r.WriteText(&text)
		_ = r.WriteJSON(&js)
		testkit.Golden(t, filepath.Join("testdata", "evaluate", "report", c.name+".txt"), text.Bytes(), *update)
		testkit.Golden(t, filepath.Join("testdata", "evaluate", "report", c.name+".json"), js.Bytes(), *update)
	}
}

// reasons asks a copy of x to move and returns its blocking reasons.
func reasons(t *testing.T, x *engine.Execution) string {
	t.Helper()
	r, err := x.Clone().Transition()
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != engine.Blocked {
		t.Fatalf("transition = %+v, want blocked", r)
	}
	return strings.Join(r.Reasons, "\n") + "\n"
}

// corpusWorkedExampleA is engine.md §5.1 (a): leaving establish_verifiers.
func corpusWorkedExampleA(t *testing.T, e *Env) {
	plan := corpusPlan(t, e)
	x := engine.NewExecution(plan, driveStore(t, e, false), testNow)
	x.EnterState("establish_verifiers")
	want := `establish_verifiers -> implement: guard: test.exists
establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle test-driven]
establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle test-driven]
`
	if got := reasons(t, x); got != want {
		t.Errorf("(a) reasons:\n%s\nwant:\n%s", got, want)
	}

	passing := x.Clone()
	passing.Submit(hookmatrix.UnitTest(testNow, 3, 0))
	want = "establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle test-driven]\n"
	if got := reasons(t, passing); got != want {
		t.Errorf("(a) after a passing test:\n%s\nwant:\n%s", got, want)
	}

	failing := x.Clone()
	failing.Submit(hookmatrix.UnitTest(testNow, 0, 1))
	r, err := failing.Transition()
	if err != nil || r.Kind != engine.Moved || r.To != "implement" {
		t.Errorf("after a failing test: %+v, %v; want moved to implement", r, err)
	}

	empty := engine.NewExecution(plan, driveStore(t, e, true), testNow)
	empty.EnterState("establish_verifiers")
	got := reasons(t, empty)
	line := "establish_verifiers -> implement: ? artifact specification (approved) which specifies this task — no specification artifact is declared [principle spec-driven]\n"
	if !strings.HasPrefix(got, "establish_verifiers -> implement: guard: test.exists\n"+line) {
		t.Errorf("(a) over an empty store:\n%s", got)
	}
}

// corpusWorkedExampleB is engine.md §5.1 (b): leaving specify over an
// empty store.
func corpusWorkedExampleB(t *testing.T, e *Env) {
	plan := corpusPlan(t, e)
	x := engine.NewExecution(plan, driveStore(t, e, true), testNow)
	x.EnterState("specify")
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
	if got := reasons(t, x); got != want {
		t.Errorf("(b) reasons:\n%s\nwant:\n%s", got, want)
	}
	if v, _ := x.Facts().Lookup("evidence.missing"); v.String() != "8" {
		t.Errorf("evidence.missing = %v, want 8", v)
	}
}

// corpusRestore restores ../testdata/snapshot/basic.json (run 3: one
// failing unit test at establish_verifiers) onto the corpus plan, and
// refuses a snapshot of another task or at an unknown state.
func corpusRestore(t *testing.T, e *Env) {
	plan := corpusPlan(t, e)
	file := e.TestdataPath("snapshot", "basic.json")
	s, diags := engine.DecodeSnapshot("basic.json", readFile(t, file))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := engine.Restore(plan, driveStore(t, e, false), s, testNow)
	if err != nil {
		t.Fatal(err)
	}
	r, err := x.Clone().Transition()
	if err != nil || r.Kind != engine.Moved || r.To != "implement" {
		t.Errorf("restored run 3 transition = %+v, %v", r, err)
	}
	if !bytes.Equal(x.Snapshot().Encode(), s.Encode()) {
		t.Errorf("restore then snapshot differs")
	}
	other := *s
	other.Task = "OTHER-1"
	if _, err := engine.Restore(plan, nil, &other, testNow); err == nil {
		t.Error("restored a snapshot of another task")
	}
	other = *s
	other.State = "polishing"
	if _, err := engine.Restore(plan, nil, &other, testNow); err == nil {
		t.Error("restored a snapshot at an unknown state")
	}
}
