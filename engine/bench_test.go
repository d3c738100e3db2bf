package engine

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/engine/evidence"
)

// BenchmarkResolveEvaluate resolves the corpus task and evaluates it at
// adversarial_verify with 1,000 evidence records.
func BenchmarkResolveEvaluate(b *testing.B) {
	root := filepath.Join(sharedDir(b), "corpus", "tree")
	tr, _ := LoadTree(root)
	plan := corpusPlan(b)
	graph := driveStore(b, false)
	recs := make([]evidence.Record, 1000)
	for i := range recs {
		recs[i] = testRecord(fmt.Sprintf("suite-%d", i%7), float64(i), float64(i%2))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p, diags := Resolve(tr, plan.Task)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		e := NewExecution(p, graph, testNow)
		e.EnterState("adversarial_verify")
		e.Submit(recs...)
		if _, err := e.Evaluate(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadTree loads the corpus tree (25 documents) as the engine
// reads it: the hook pays this on every consultation.
func BenchmarkLoadTree(b *testing.B) {
	root := filepath.Join(sharedDir(b), "corpus", "tree")
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := LoadTree(root); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}
