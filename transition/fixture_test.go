package transition

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/hookmatrix"
	"github.com/aepflow/aepflow/internal/testshared"
)

var testNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// projectDir is the project fixture this package shares with package
// conformance: a tree of its own under tree/ and an .engineering/.
var projectDir = filepath.Join("..", "testdata", "project")

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

// copyDir copies the regular files and directories under src to dst,
// skipping the top-level names in skip.
func copyDir(t testing.TB, src, dst string, skip ...string) { hookmatrix.CopyDir(t, src, dst, skip...) }

// planFor resolves the project's task against a tree, for building runs.
func planFor(t testing.TB, root, project string) (*engine.Plan, *artifact.Graph) {
	return hookmatrix.PlanFor(t, root, project)
}

// execAt builds an execution at establish_verifiers holding recs.
func execAt(plan *engine.Plan, graph *artifact.Graph, recs ...evidence.Record) *engine.Execution {
	return hookmatrix.ExecAt(plan, graph, testNow, recs...)
}

func verifierRecord(name string, p evidence.Payload) evidence.Record {
	return hookmatrix.VerifierRecord(testNow, name, p)
}

func unitTest(passed, failed float64) evidence.Record {
	return hookmatrix.UnitTest(testNow, passed, failed)
}

// Project kinds and runs of the matrix (hookmatrix).
const (
	projectF = hookmatrix.ProjectF
	projectE = hookmatrix.ProjectE

	runEmpty       = hookmatrix.RunEmpty
	runLegacy      = hookmatrix.RunLegacy
	runFailing     = hookmatrix.RunFailing
	runPassing     = hookmatrix.RunPassing
	runFlipped     = hookmatrix.RunFlipped
	runOnlySnap    = hookmatrix.RunOnlySnap
	runOnlyCursor  = hookmatrix.RunOnlyCursor
	runNoCommitted = hookmatrix.RunNoCommitted
)

// fixture is one way of building the matrix's projects (hookmatrix).
type fixture = hookmatrix.Fixture

// ownFixture is the project under ../testdata/project with its own tree.
func ownFixture() fixture { return hookmatrix.OwnFixture(projectDir, testNow) }

// corpusFixture is fixture F of engine.md §8.7: the corpus tree as --root.
// The corpus matrix runs in package conformance; the corpus benchmarks use
// this one.
func corpusFixture(t testing.TB) fixture {
	return hookmatrix.CorpusFixture(projectDir, testshared.Corpus(t, "tree"), testNow)
}
