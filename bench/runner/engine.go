package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/evidence"
)

// The engine: `aepflow evaluate` over the bundled example tree with a
// growing evidence log, the same records in few files against many (each
// file is one Submit; issue 13: 2,000 files ≤ 2× the same records in 5),
// and the restore of growing snapshots; the engine's Go benchmarks.
func init() {
	register(&Page{
		Name: "engine",
		Go: map[string]GoBench{
			"engine": {Pkg: "./engine", Bench: "SubmitOneByOne|Restore|ResolveEvaluate|LoadDocuments", Benchtime: "5x", QuickBenchtime: "2x"},
		},
		Scalings: map[string]*Scaling{
			"records": {Unit: "records (5 per file)", Sizes: []int{200, 2000, 20000}, Setup: func(w *Work, n int) (Proc, error) {
				return evaluateProc(w, n, n/5)
			}},
			"restore": {Unit: "records in the snapshot", Sizes: []int{100, 1000, 10000}, Setup: restoreProc},
		},
		Versus: map[string]*Versus{
			"files": {A: "10,000 records in 5 files", B: "the same records in 2,000 files",
				Setup: func(w *Work) (Proc, Proc, error) {
					a, err := evaluateProc(w, 10000, 5)
					if err != nil {
						return Proc{}, Proc{}, err
					}
					b, err := evaluateProc(w, 10000, 2000)
					return a, b, err
				}},
		},
	})
}

// evidenceRecord is record i of the generated log: a unit-test result or a
// static analysis from a verifier of the example protocol, a day apart.
func evidenceRecord(i int) string {
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%300).Format("2006-01-02")
	if i%3 == 2 {
		return fmt.Sprintf("- kind: static_analysis\n  observed_at: %s\n  errors: %d\n  warnings: 1\n  producer: {producer: verifier, verifier: static-analyzer}\n", day, i%2)
	}
	return fmt.Sprintf("- kind: test_result\n  observed_at: %s\n  suite: unit%d\n  passed: %d\n  failed: %d\n  producer: {producer: verifier, verifier: test-runner}\n", day, i%7, 3+i%5, i%2)
}

const benchTask = "id: BENCH-1\nkind: feature\nobjective: measure\nprotocol: demo/1\nprofile: demo.standard\n"

// evaluateProc is `aepflow evaluate` over examples/tree with n records
// spread evenly over files evidence documents.
func evaluateProc(w *Work, n, files int) (Proc, error) {
	bin, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, err
	}
	dir, err := w.Mkdir(fmt.Sprintf("evaluate-%d-in-%d", n, files))
	if err != nil {
		return Proc{}, err
	}
	if err := writeFile(dir, "task.yaml", []byte(benchTask)); err != nil {
		return Proc{}, err
	}
	root, err := filepath.Abs(filepath.Join("examples", "tree"))
	if err != nil {
		return Proc{}, err
	}
	args := []string{bin, "evaluate", "--task", filepath.Join(dir, "task.yaml"), "--root", root}
	per := n / files
	for f := range files {
		var b strings.Builder
		for i := f * per; i < (f+1)*per; i++ {
			b.WriteString(evidenceRecord(i))
		}
		name := fmt.Sprintf("ev-%05d.yaml", f)
		if err := writeFile(dir, name, []byte(b.String())); err != nil {
			return Proc{}, err
		}
		args = append(args, "--evidence", filepath.Join(dir, name))
	}
	return Proc{Args: args}, nil
}

// restoreProc is `aepflow evaluate --snapshot` of an execution holding n
// records, written by the engine itself.
func restoreProc(w *Work, n int) (Proc, error) {
	bin, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, err
	}
	dir, err := w.Mkdir(fmt.Sprintf("restore-%d", n))
	if err != nil {
		return Proc{}, err
	}
	root, err := filepath.Abs(filepath.Join("examples", "tree"))
	if err != nil {
		return Proc{}, err
	}
	task := filepath.Join(dir, "task.yaml")
	if err := os.WriteFile(task, []byte(benchTask), 0o644); err != nil {
		return Proc{}, err
	}
	docs, ds := engine.LoadTree(root)
	if ds.HasErrors() {
		return Proc{}, ds.Err()
	}
	t, ds := engine.ReadTask(task, []byte(benchTask))
	if ds.HasErrors() {
		return Proc{}, ds.Err()
	}
	plan, ds := engine.Resolve(docs, t)
	if ds.HasErrors() {
		return Proc{}, ds.Err()
	}
	var log strings.Builder
	for i := range n {
		log.WriteString(evidenceRecord(i))
	}
	now := time.Now()
	recs, ds := evidence.ReadDocument("log.yaml", []byte(log.String()), now)
	if ds.HasErrors() {
		return Proc{}, ds.Err()
	}
	e := engine.NewExecution(plan, nil, now)
	e.Submit(recs...)
	snap := filepath.Join(dir, "snapshot.json")
	if err := os.WriteFile(snap, e.Snapshot().Encode(), 0o644); err != nil {
		return Proc{}, err
	}
	return Proc{Args: []string{bin, "evaluate", "--task", task, "--root", root, "--snapshot", snap}}, nil
}
