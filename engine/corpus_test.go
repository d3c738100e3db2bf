package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
)

var testNow = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// driveTask is the task of the drive fixture this package shares with
// package conformance.
var driveTask = filepath.Join("..", "testdata", "drive", "task.yaml")

// The corpus checks of the engine (the worked examples of engine.md §5.1,
// the reports, the principles in force, restoring a snapshot) are in
// package conformance. These helpers build the benchmark's plan.

// corpusPlan resolves ../testdata/drive/task.yaml against the corpus tree.
func corpusPlan(t testing.TB) *Plan {
	t.Helper()
	tr, diags := LoadTree(filepath.Join(sharedDir(t), "corpus", "tree"))
	if diags.HasErrors() {
		t.Fatalf("tree: %v", diags)
	}
	data, err := os.ReadFile(driveTask)
	if err != nil {
		t.Fatal(err)
	}
	task, diags := ReadTask(driveTask, data)
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
	g, diags := artifact.ReadStore(filepath.Join("..", "testdata", "drive", "store"))
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
