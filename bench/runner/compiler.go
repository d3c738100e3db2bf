package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// The projection: `aepflow flow` as a whole process over workflows of
// growing size (issue 13: 10× the states ≤ 11.5× the time, 80,000 states
// ≤ 400 MiB peak), and the compiler's Go benchmarks.
func init() {
	register(&Page{
		Name: "compiler",
		Go: map[string]GoBench{
			"compiler": {Pkg: "./compiler", Bench: "Project|Generate", Benchtime: "5x", QuickBenchtime: "2x"},
		},
		Scalings: map[string]*Scaling{
			"flow": {Unit: "states", Sizes: []int{800, 8000, 80000}, Setup: flowProcess},
		},
		Facts: flowSizes,
		Versus: map[string]*Versus{
			// The same 80,000-state projection without the command's soft
			// memory limit, to show what the limit buys and costs.
			"flow-nolimit": {A: "`aepflow flow`, 80,000 states", B: "the same with `GOMEMLIMIT=off`", Rounds: 5,
				Setup: func(w *Work) (Proc, Proc, error) {
					a, err := flowProcess(w, 80000)
					b := a
					b.Env = []string{"GOMEMLIMIT=off"}
					return a, b, err
				}},
		},
	})
}

// flowProcess is `aepflow flow` over a generated tree of n states.
func flowProcess(w *Work, n int) (Proc, error) {
	bin, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, err
	}
	dir, err := w.Mkdir(fmt.Sprintf("flow-%d", n))
	if err != nil {
		return Proc{}, err
	}
	if err := writeChainWorkflow(dir, n); err != nil {
		return Proc{}, err
	}
	return Proc{Args: []string{bin, "flow", "--root", dir, "--id", "bench/gen"}}, nil
}

// flowSizes reports the size of the 80,000-state workflow and of the flow
// document projected from it.
func flowSizes(w *Work) (map[string]string, error) {
	p, err := flowProcess(w, 80000)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(filepath.Join(p.Args[3], "workflows", "bench", "gen.yaml"))
	if err != nil {
		return nil, err
	}
	out, err := exec.Command(p.Args[0], p.Args[1:]...).Output()
	if err != nil {
		return nil, fmt.Errorf("aepflow flow: %v", err)
	}
	return map[string]string{"workflow-80000": mib(float64(info.Size())), "flow-80000": mib(float64(len(out)))}, nil
}
