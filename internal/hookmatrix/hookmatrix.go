// Package hookmatrix is the consultation matrix of engine.md §8.7 as data,
// and the projects it is asked of: the rows (a stdin document, a project,
// a run, the answer wanted) and the fixtures that build a project of kind F
// or E over a tree with its runs committed the way a driver commits them.
//
// Two suites run the same matrix: package transition asks it of Decide in
// process (with its own options per row), package conformance asks it of
// the aepflow binary, as the harness does. Keeping the rows here means the
// two cannot drift apart.
//
// It is for tests only: no command imports it, and its helpers stop the
// test (tb.Fatal) on any I/O error instead of returning one.
package hookmatrix

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/project/projecttest"
)

// Answer is what a consultation must answer.
type Answer int

// The three answers of the hook (engine.md §8.6), in the order of
// transition.Kind.
const (
	// Proceed: exit 0, nothing on stdout.
	Proceed Answer = iota
	// Refuse: exit 2, `{"reason":"…"}` on stdout.
	Refuse
	// Cannot: exit 1, one line on stderr.
	Cannot
)

// Exit returns the exit code of the answer.
func (a Answer) Exit() int {
	switch a {
	case Refuse:
		return 2
	case Cannot:
		return 1
	}
	return 0
}

// Expectations are the exact reasons a fixture's tree produces: (a) and (b)
// of engine.md §5.1 and the line of §8.7 #18.
type Expectations struct {
	A, B, Passing []string
	// Workflow is the id of the fixture's workflow.
	Workflow string
}

// Leave returns the reason of a leave of state refused with lines: the
// state, then the lines grouped by move — each move once, its lines joined
// by "; ", the moves by " | ".
func (x Expectations) Leave(state string, lines []string) string {
	var groups []string
	last := ""
	for _, l := range lines {
		move, line, _ := strings.Cut(l, ": ")
		if move == last {
			groups[len(groups)-1] += "; " + line
			continue
		}
		groups = append(groups, l)
		last = move
	}
	return state + ": " + strings.Join(groups, " | ")
}

// Stripped removes the `<C> -> <T>: ` prefixes of (a) for an enter reason.
func Stripped(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, "establish_verifiers -> implement: ")
	}
	return "establish_verifiers -> implement: " + strings.Join(out, "; ")
}

// Own are the expectations of the project's own tree (testdata/project).
var Own = Expectations{
	A: []string{
		"establish_verifiers -> implement: guard: test.exists",
		"establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle tests-first]",
		"establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle tests-first]",
	},
	B: []string{
		"specify -> declined: guard: specification.declines_the_request",
		"specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-first]",
		"specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle tests-first]",
		"specify -> establish_verifiers: guard: artifact.specification.exists",
	},
	Passing:  []string{"establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle tests-first]"},
	Workflow: "fx/flow",
}

// Corpus are the expectations of the shared corpus tree: engine.md §5.1
// verbatim.
var Corpus = Expectations{
	A: []string{
		"establish_verifiers -> implement: guard: test.exists",
		"establish_verifiers -> implement: ? test.exists — unobserved: test.exists [principle test-driven]",
		"establish_verifiers -> implement: ? test.first_result == failed — unobserved: test.first_result [principle test-driven]",
	},
	B: []string{
		"specify -> declined: guard: specification.declines_the_request",
		"specify -> declined: ? specification.satisfied — unobserved: specification.satisfied [principle spec-driven]",
		"specify -> declined: ? tests.unit.failed == 0 — unobserved: tests.unit.failed [principle test-driven]",
		"specify -> declined: ? regression_suite.result == passed — unobserved: regression_suite.result [principle test-driven]",
		"specify -> declined: ? evidence.first_seq.test_result < evidence.first_seq.diff — unobserved: evidence.first_seq.test_result, evidence.first_seq.diff [principle test-driven]",
		"specify -> declined: ? static_analysis.errors == 0 — unobserved: static_analysis.errors [principle static-analysis]",
		"specify -> declined: ? evidence verification (independent) — 0 of 1 required record(s) submitted [principle provenance-tracking]",
		"specify -> declined: ? evidence diff — 0 of 1 required record(s) submitted [principle provenance-tracking]",
		"specify -> declined: ? contracts.checked > 0 — unobserved: contracts.checked [principle contract-testing]",
		"specify -> declined: ? contracts.failed == 0 — unobserved: contracts.failed [principle contract-testing]",
		"specify -> declined: ? contracts.breaking_changes == 0 — unobserved: contracts.breaking_changes [principle contract-testing]",
		"specify -> declined: ? evidence.count.property_test_result >= 1 — unobserved: evidence.count.property_test_result [principle property-based-testing]",
		"specify -> decompose: guard: artifact.specification.exists",
	},
	Passing:  []string{"establish_verifiers -> implement: ✗ test.first_result == failed — test.first_result = passed [principle test-driven]"},
	Workflow: "adp/default",
}

// Row is one consultation of the matrix: a stdin document asked of a
// project, maybe from a run, and the answer wanted.
type Row struct {
	Stdin string
	// Project is ProjectF, ProjectE or "" (a directory with no project).
	Project string
	// Run is the --run id, or "".
	Run  string
	Want Answer
	// Reason is the exact reason of a refusal, when set.
	Reason string
	// Has are substrings of the reason or message.
	Has []string
	// Prefix is the reason's prefix.
	Prefix string
}

// Doc returns the stdin document of a consultation of path at moment.
func Doc(path, moment string) string {
	return `{"hook":"transition","flow":"fx","path":"` + path + `","moment":"` + moment + `","attempt":1,"of":1,"workspace":"/ws"}`
}

// LeaveDoc returns the stdin document of a leave of path.
func LeaveDoc(path string, failed bool) string {
	f := "false"
	if failed {
		f = "true"
	}
	return `{"hook":"transition","flow":"fx","path":"` + path + `","moment":"leave","attempt":1,"of":1,"failed":` + f + `,"handoff":{},"workspace":"/ws"}`
}

// Project kinds of the matrix.
const (
	// ProjectF is a project whose store holds an approved specification
	// of the task's story, with the runs of RunEmpty … RunNoCommitted.
	ProjectF = "F"
	// ProjectE is F with an empty store and no runs/.
	ProjectE = "E"
)

// Runs of project F (engine.md §8.7, extended by the reader's cases).
const (
	RunEmpty       = "DRIVE-1/1" // no evidence
	RunLegacy      = "DRIVE-1/2" // no evidence, legacy layout
	RunFailing     = "DRIVE-1/3" // one failing unit test
	RunPassing     = "DRIVE-1/4" // one passing unit test
	RunFlipped     = "DRIVE-1/5" // run 1 with a flipped manifest byte
	RunOnlySnap    = "DRIVE-1/6" // legacy with only snapshot.json
	RunOnlyCursor  = "DRIVE-1/7" // legacy with only cursor.json
	RunNoCommitted = "DRIVE-1/8" // an empty run directory
)

// Matrix returns engine.md §8.7's consultation matrix for a fixture's
// expectations, numbered as in the spec (a row may hold several answers).
func Matrix(x Expectations) map[string][]Row {
	a := x.Leave("establish_verifiers", x.A)
	return map[string][]Row{
		"01": {{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Want: Proceed}},
		"02": {{Stdin: LeaveDoc("root.establish_verifiers", false), Project: ProjectF, Want: Refuse, Reason: a}},
		"03": {{Stdin: LeaveDoc("root.establish_verifiers", true), Want: Proceed}},
		"04": {{Stdin: Doc("root.polishing", "enter"), Project: ProjectF, Want: Refuse, Has: []string{"polishing", "not a state"}}},
		"05": {
			{Stdin: Doc("root.implement-to-verify", "enter"), Project: ProjectF, Want: Proceed},
			{Stdin: LeaveDoc("root.implement-to-verify", false), Project: ProjectF, Want: Refuse,
				Prefix: "verify: verify -> adversarial_verify: guard: tests.unit.failed == 0; ",
				Has:    []string{"? evidence test_result from test-runner (independent) — 0 of 1 required record(s) submitted [state adversarial_verify]"}},
		},
		"06": {{Stdin: `{"hook":"before-call"}`, Want: Proceed}},
		"07": {{Stdin: "this is not JSON", Want: Cannot, Has: []string{"not the loop's JSON"}}},
		"08": {{Stdin: Doc("root.implement", "between"), Project: ProjectF, Want: Cannot, Has: []string{"between"}}},
		"09": {
			{Stdin: Doc("root", "enter"), Project: ProjectF, Want: Proceed},
			{Stdin: LeaveDoc("root", false), Project: ProjectF, Want: Proceed},
		},
		"10": {{Stdin: Doc("root.establish_verifiers", "enter"), Project: ProjectF, Run: RunEmpty, Want: Proceed}},
		"11": {{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: RunEmpty, Want: Refuse, Reason: Stripped(x.A)}},
		"12": {{Stdin: Doc("root.verify", "enter"), Project: ProjectF, Run: RunEmpty, Want: Refuse,
			Has: []string{"establish_verifiers", "verify", x.Workflow}}},
		"13": {{Stdin: LeaveDoc("root.specify", false), Project: ProjectF, Run: RunEmpty, Want: Refuse,
			Has: []string{"disagree", "specify", "establish_verifiers"}}},
		"14": {{Stdin: LeaveDoc("root", false), Project: ProjectF, Run: RunEmpty, Want: Refuse, Reason: a}},
		"15": {{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: "DRIVE-9/9", Want: Cannot, Has: []string{"no run DRIVE-9/9"}}},
		"16": {{Stdin: LeaveDoc("root.establish_verifiers", false), Project: ProjectF, Run: RunLegacy, Want: Refuse, Reason: a}},
		"17": {
			{Stdin: LeaveDoc("root.establish_verifiers", false), Project: ProjectF, Run: RunFailing, Want: Proceed},
			{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: RunFailing, Want: Proceed},
		},
		"18": {{Stdin: LeaveDoc("root.establish_verifiers", false), Project: ProjectF, Run: RunPassing, Want: Refuse,
			Reason: x.Leave("establish_verifiers", x.Passing)}},
		"19": {{Stdin: LeaveDoc("root.specify", false), Project: ProjectE, Want: Refuse, Reason: x.Leave("specify", x.B)}},
		"20": {
			{Stdin: LeaveDoc("root.specify", false), Project: ProjectF, Want: Proceed},
			{Stdin: LeaveDoc("root.receive", false), Project: ProjectE, Want: Proceed},
		},
		"21": {
			{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: "../x/1", Want: Cannot, Has: []string{"bad run id", "../x/1"}},
			{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: "DRIVE-1/0", Want: Cannot, Has: []string{"bad run id", "DRIVE-1/0"}},
		},
		"22": {{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: RunFlipped, Want: Cannot,
			Has: []string{"sha256 check failed", "manifest.json"}}},
		"23": {{Stdin: Doc("root.implement", "enter"), Project: ProjectF, Run: RunOnlySnap, Want: Cannot, Has: []string{"incomplete state"}}},
	}
}

// Fixture is one way of building the matrix's projects: a tree inside the
// project, or a tree elsewhere given as --root.
type Fixture struct {
	Name string
	// Root is the --root to pass ("" for the project's own tree).
	Root string
	// Build makes a project of the kind in dir.
	Build func(tb testing.TB, dir, kind string)
}

// OwnFixture is the project at src (testdata/project: a tree of its own
// under tree/ and an .engineering/ directory); its runs' records are
// observed an hour before now.
func OwnFixture(src string, now time.Time) Fixture {
	return Fixture{Name: "own", Build: func(tb testing.TB, dir, kind string) {
		CopyDir(tb, src, dir)
		finishProject(tb, dir, filepath.Join(dir, "tree"), kind, now)
	}}
}

// CorpusFixture is fixture F of engine.md §8.7: the .engineering/ of the
// project at src with a task and project.yaml for the corpus profile
// `development.standard`, and the tree at root (the shared corpus tree)
// given as --root.
func CorpusFixture(src, root string, now time.Time) Fixture {
	return Fixture{Name: "corpus", Root: root, Build: func(tb testing.TB, dir, kind string) {
		CopyDir(tb, filepath.Join(src, ".engineering"), filepath.Join(dir, ".engineering"))
		projecttest.WriteFile(tb, filepath.Join(dir, ".engineering", "project.yaml"),
			[]byte("version: aep.project/5\nprotocol: adp/1\nprofile: development.standard\n"))
		projecttest.WriteFile(tb, filepath.Join(dir, ".engineering", "task.yaml"), []byte(
			"id: DRIVE-1\nkind: feature\nobjective: drive-a-workflow\nprotocol: adp/1\nprofile: development.standard\nderived_from: [story:passkeys]\n"))
		finishProject(tb, dir, root, kind, now)
	}}
}

// Projects builds, under a temporary directory, one project of each kind
// for fx and a directory holding no project; the map's keys are ProjectF,
// ProjectE and "".
func Projects(tb testing.TB, fx Fixture) map[string]string {
	tb.Helper()
	base := tb.TempDir()
	out := map[string]string{"": filepath.Join(base, "nothing")}
	if err := os.MkdirAll(out[""], 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, kind := range []string{ProjectF, ProjectE} {
		out[kind] = filepath.Join(base, kind)
		fx.Build(tb, out[kind], kind)
	}
	return out
}

// finishProject empties the store for E, or writes F's runs.
func finishProject(tb testing.TB, dir, root, kind string, now time.Time) {
	tb.Helper()
	if kind == ProjectE {
		if err := os.RemoveAll(filepath.Join(dir, ".engineering", "planning")); err != nil {
			tb.Fatal(err)
		}
		return
	}
	plan, graph := PlanFor(tb, root, dir)
	empty := ExecAt(plan, graph, now).Snapshot().Encode()
	runs := filepath.Join(dir, ".engineering", "runs", "DRIVE-1")
	projecttest.WriteGeneration(tb, filepath.Join(runs, "1"), 1, empty)
	projecttest.WriteLegacy(tb, filepath.Join(runs, "2"), empty)
	projecttest.WriteGeneration(tb, filepath.Join(runs, "3"), 1, ExecAt(plan, graph, now, UnitTest(now, 0, 1)).Snapshot().Encode())
	projecttest.WriteGeneration(tb, filepath.Join(runs, "4"), 1, ExecAt(plan, graph, now, UnitTest(now, 3, 0)).Snapshot().Encode())
	projecttest.WriteGeneration(tb, filepath.Join(runs, "5"), 1, empty)
	manifest := filepath.Join(runs, "5", "generations", "1", "manifest.json")
	data, err := os.ReadFile(manifest)
	if err != nil {
		tb.Fatal(err)
	}
	data[len(data)-3] ^= 0x01 // one byte inside the cursor digest
	projecttest.WriteFile(tb, manifest, data)
	projecttest.WriteFile(tb, filepath.Join(runs, "6", "snapshot.json"), empty)
	projecttest.WriteFile(tb, filepath.Join(runs, "7", "cursor.json"), projecttest.Cursor)
	if err := os.MkdirAll(filepath.Join(runs, "8"), 0o755); err != nil {
		tb.Fatal(err)
	}
}

// PlanFor resolves the project's task (.engineering/task.yaml) against the
// tree at root and reads its store (.engineering/planning/).
func PlanFor(tb testing.TB, root, project string) (*engine.Plan, *artifact.Graph) {
	tb.Helper()
	t, diags := engine.LoadTree(root)
	if diags.HasErrors() {
		tb.Fatalf("tree: %v", diags)
	}
	file := filepath.Join(project, ".engineering", "task.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	task, diags := engine.ReadTask(file, data)
	if diags.HasErrors() {
		tb.Fatalf("task: %v", diags)
	}
	plan, diags := engine.Resolve(t, task)
	if diags.HasErrors() {
		tb.Fatalf("resolve: %v", diags)
	}
	graph, diags := artifact.ReadStore(filepath.Join(project, ".engineering", "planning"))
	if diags.HasErrors() {
		tb.Fatalf("store: %v", diags)
	}
	return plan, graph
}

// ExecAt builds an execution at establish_verifiers (through specify)
// holding recs, its clock at now.
func ExecAt(plan *engine.Plan, graph *artifact.Graph, now time.Time, recs ...evidence.Record) *engine.Execution {
	e := engine.NewExecution(plan, graph, now)
	e.EnterState("specify")
	e.EnterState("establish_verifiers")
	e.Submit(recs...)
	return e
}

// VerifierRecord returns a record of payload p produced by verifier name,
// observed an hour before now.
func VerifierRecord(now time.Time, name string, p evidence.Payload) evidence.Record {
	return evidence.Record{
		ObservedAt: now.UnixMilli() - 3_600_000,
		Producer:   evidence.Producer{Class: "verifier", Name: name},
		Value:      p,
	}
}

// UnitTest returns a test_result of the unit suite from test-runner,
// observed an hour before now.
func UnitTest(now time.Time, passed, failed float64) evidence.Record {
	return VerifierRecord(now, "test-runner", evidence.Payload{Kind: "test_result",
		Fields: map[string]any{"suite": "unit", "passed": passed, "failed": failed, "skipped": 0.0}})
}

// CopyDir copies the regular files and directories under src to dst,
// skipping the top-level names in skip.
func CopyDir(tb testing.TB, src, dst string, skip ...string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); slices.Contains(skip, first) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
