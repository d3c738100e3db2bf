package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// The hook: `aepflow drive transition` as the harness runs it, a process
// per consultation, against the floor (transition/testdata/minimal: a Go
// program that reads the same stdin and parses the same documents with the
// same YAML library, deciding nothing), on the fixture tree at 1×, 10× and
// 100× its documents (issue 13: answer ≤ 1.25× the floor, peak memory
// ≤ 1.5× the floor's on the 100× tree).
func init() {
	versus := map[string]*Versus{}
	for _, k := range []int{1, 10, 100} {
		versus[fmt.Sprintf("hook-%03d", k)] = &Versus{
			A: fmt.Sprintf("floor (`transition/testdata/minimal`), %d× tree", k),
			B: fmt.Sprintf("`aepflow drive transition`, %d× tree", k), Rounds: 31,
			Setup: func(w *Work) (Proc, Proc, error) { return hookPair(w, k) }}
	}
	register(&Page{
		Name: "transition",
		Go: map[string]GoBench{
			"decide": {Pkg: "./transition", Bench: "Decide", Benchtime: "200x", QuickBenchtime: "50x"},
		},
		Versus: versus,
		Facts: func(w *Work) (map[string]string, error) {
			facts := map[string]string{}
			for key, pkg := range map[string]string{"aepflow-size": "./cmd/aepflow", "minimal-size": "./transition/testdata/minimal"} {
				bin, err := w.Binary(pkg)
				if err != nil {
					return nil, err
				}
				info, err := os.Stat(bin)
				if err != nil {
					return nil, err
				}
				facts[key] = mib(float64(info.Size()))
			}
			return facts, nil
		},
	})
}

// benchStdin is the consultation of transition/bench_test.go: a leave of
// root.establish_verifiers, answered from run DRIVE-1/4 (the most work the
// verb does; it refuses, exit 2).
const benchStdin = `{"hook":"transition","flow":"fx/flow","path":"root.establish_verifiers","moment":"leave","attempt":1,"of":1,"failed":false,"handoff":{},"workspace":"/ws"}` + "\n"

// hookProjects writes the fixture projects at every scale once per run,
// through the transition package's own test (which also checks that every
// scale gets the same answer).
func hookProjects(w *Work) (string, error) {
	dir := filepath.Join(w.Dir, "hook-projects")
	if _, err := os.Stat(filepath.Join(dir, "scale-100")); err == nil {
		return dir, nil
	}
	cmd := exec.Command("go", "test", "./transition", "-run", "^TestScaledTreeAnswersAlike$", "-count=1")
	cmd.Env = append(os.Environ(), "AEPFLOW_BENCH_PROJECTS="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("writing the hook's fixture projects: %v\n%s", err, out)
	}
	return dir, nil
}

func hookPair(w *Work, k int) (Proc, Proc, error) {
	dir, err := hookProjects(w)
	if err != nil {
		return Proc{}, Proc{}, err
	}
	hook, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, Proc{}, err
	}
	floor, err := w.Binary("./transition/testdata/minimal")
	if err != nil {
		return Proc{}, Proc{}, err
	}
	p := filepath.Join(dir, fmt.Sprintf("scale-%d", k))
	run := filepath.Join(p, ".engineering", "runs", "DRIVE-1", "4")
	return Proc{Args: []string{floor, p, filepath.Join(p, "tree"), run}, Stdin: []byte(benchStdin)},
		Proc{Args: []string{hook, "drive", "transition", "--project", p, "--run", "DRIVE-1/4"}, Stdin: []byte(benchStdin), Exit: 2}, nil
}
