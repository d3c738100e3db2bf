package transition

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

var testNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// repoRoot returns the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// sharedDir returns ../shared beside the repository root, skipping the test
// when it is absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	shared := filepath.Join(repoRoot(t), "..", "shared")
	if _, err := os.Stat(filepath.Join(shared, "corpus", "tree")); err != nil {
		t.Skip("../shared is absent")
	}
	return shared
}

// copyDir copies the regular files and directories under src to dst,
// skipping the top-level names in skip.
func copyDir(t testing.TB, src, dst string, skip ...string) {
	t.Helper()
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
		t.Fatal(err)
	}
}

// planFor resolves the project's task against a tree, for building runs.
func planFor(t testing.TB, root, project string) (*engine.Plan, *artifact.Graph) {
	t.Helper()
	docTree, diags := engine.LoadTree(root)
	if diags.HasErrors() {
		t.Fatalf("tree: %v", diags)
	}
	file := filepath.Join(project, ".engineering", "task.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	task, diags := engine.ReadTask(file, data)
	if diags.HasErrors() {
		t.Fatalf("task: %v", diags)
	}
	plan, diags := engine.Resolve(docTree, task)
	if diags.HasErrors() {
		t.Fatalf("resolve: %v", diags)
	}
	graph, diags := artifact.ReadStore(filepath.Join(project, ".engineering", "planning"))
	if diags.HasErrors() {
		t.Fatalf("store: %v", diags)
	}
	return plan, graph
}

// execAt builds an execution at establish_verifiers holding recs.
func execAt(plan *engine.Plan, graph *artifact.Graph, recs ...evidence.Record) *engine.Execution {
	e := engine.NewExecution(plan, graph, testNow)
	e.EnterState("specify")
	e.EnterState("establish_verifiers")
	e.Submit(recs...)
	return e
}

func verifierRecord(name string, p evidence.Payload) evidence.Record {
	return evidence.Record{
		ObservedAt: testNow.UnixMilli() - 3_600_000,
		Producer:   evidence.Producer{Class: "verifier", Name: name},
		Value:      p,
	}
}

func unitTest(passed, failed float64) evidence.Record {
	return verifierRecord("test-runner", evidence.Payload{Kind: "test_result",
		Fields: map[string]any{"suite": "unit", "passed": passed, "failed": failed, "skipped": 0.0}})
}

// Project kinds of the matrix.
const (
	projectF = "F" // the store holds an approved specification of the task's story
	projectE = "E" // F with an empty store and no runs/
)

// Runs of fixture F (engine.md §8.7, extended by the reader's cases).
const (
	runEmpty       = "DRIVE-1/1" // no evidence
	runLegacy      = "DRIVE-1/2" // no evidence, legacy layout
	runFailing     = "DRIVE-1/3" // one failing unit test
	runPassing     = "DRIVE-1/4" // one passing unit test
	runFlipped     = "DRIVE-1/5" // run 1 with a flipped manifest byte
	runOnlySnap    = "DRIVE-1/6" // legacy with only snapshot.json
	runOnlyCursor  = "DRIVE-1/7" // legacy with only cursor.json
	runNoCommitted = "DRIVE-1/8" // an empty run directory
)

// fixture is one way of building the matrix's projects: our own tree
// inside the project, or the shared corpus tree given as --root.
type fixture struct {
	name string
	// root is the --root to pass ("" for the project's own tree).
	root string
	// build makes a project of the kind in dir.
	build func(t testing.TB, dir, kind string)
}

// ownFixture is the project under testdata/project with its own tree.
func ownFixture() fixture {
	return fixture{name: "own", build: func(t testing.TB, dir, kind string) {
		copyDir(t, filepath.Join("testdata", "project"), dir)
		finishProject(t, dir, filepath.Join(dir, "tree"), kind)
	}}
}

// corpusFixture is fixture F of engine.md §8.7: the corpus tree as --root.
func corpusFixture(t testing.TB) fixture {
	root := filepath.Join(sharedDir(t), "corpus", "tree")
	return fixture{name: "corpus", root: root, build: func(t testing.TB, dir, kind string) {
		copyDir(t, filepath.Join("testdata", "project", ".engineering"), filepath.Join(dir, ".engineering"))
		projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "project.yaml"),
			[]byte("version: aep.project/5\nprotocol: adp/1\nprofile: development.standard\n"))
		projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "task.yaml"), []byte(
			"id: DRIVE-1\nkind: feature\nobjective: drive-a-workflow\nprotocol: adp/1\nprofile: development.standard\nderived_from: [story:passkeys]\n"))
		finishProject(t, dir, root, kind)
	}}
}

// finishProject empties the store for E, or writes F's runs.
func finishProject(t testing.TB, dir, root, kind string) {
	t.Helper()
	if kind == projectE {
		if err := os.RemoveAll(filepath.Join(dir, ".engineering", "planning")); err != nil {
			t.Fatal(err)
		}
		return
	}
	plan, graph := planFor(t, root, dir)
	empty := execAt(plan, graph).Snapshot().Encode()
	runs := filepath.Join(dir, ".engineering", "runs", "DRIVE-1")
	projecttest.WriteGeneration(t, filepath.Join(runs, "1"), 1, empty)
	projecttest.WriteLegacy(t, filepath.Join(runs, "2"), empty)
	projecttest.WriteGeneration(t, filepath.Join(runs, "3"), 1, execAt(plan, graph, unitTest(0, 1)).Snapshot().Encode())
	projecttest.WriteGeneration(t, filepath.Join(runs, "4"), 1, execAt(plan, graph, unitTest(3, 0)).Snapshot().Encode())
	projecttest.WriteGeneration(t, filepath.Join(runs, "5"), 1, empty)
	manifest := filepath.Join(runs, "5", "generations", "1", "manifest.json")
	data, _ := os.ReadFile(manifest)
	data[len(data)-3] ^= 0x01 // one byte inside the cursor digest
	projecttest.WriteFile(t, manifest, data)
	projecttest.WriteFile(t, filepath.Join(runs, "6", "snapshot.json"), empty)
	projecttest.WriteFile(t, filepath.Join(runs, "7", "cursor.json"), projecttest.Cursor)
	if err := os.MkdirAll(filepath.Join(runs, "8"), 0o755); err != nil {
		t.Fatal(err)
	}
}
