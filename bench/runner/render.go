package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The companion: aepflow-render (go-graphviz, Graphviz compiled to
// WebAssembly) against native `dot -Tsvg` on the same DOT text, its cold
// start (no compilation cache) against its warm one, and the start-up of
// both binaries (issue 13: only the first render on a machine pays the
// compilation; the warm ratio to native dot recorded as it is).
func init() {
	versus := map[string]*Versus{
		"cold": {A: "`aepflow-render`, warm cache", B: "`aepflow-render`, no cache (what the first render on a machine pays)", Rounds: 5,
			Setup: func(w *Work) (Proc, Proc, error) {
				warm, err := companion(w, 90)
				if err != nil {
					return Proc{}, Proc{}, err
				}
				cold := warm
				noCache := filepath.Join(w.Dir, "no-cache-home")
				if err := os.WriteFile(noCache, nil, 0o600); err != nil { // a file: no cache directory can be made in it
					return Proc{}, Proc{}, err
				}
				cold.Env = []string{"XDG_CACHE_HOME=" + noCache}
				return warm, cold, nil
			}},
		"start": {A: "`aepflow version`", B: "`aepflow-render --help`, warm cache", Rounds: 15,
			Setup: func(w *Work) (Proc, Proc, error) {
				main, err := w.Binary("./cmd/aepflow")
				if err != nil {
					return Proc{}, Proc{}, err
				}
				comp, err := companion(w, 9)
				comp.Args = []string{comp.Args[0], "--help"}
				comp.Stdin = nil
				return Proc{Args: []string{main, "version"}}, comp, err
			}},
	}
	for _, n := range []int{9, 90, 900} {
		versus[fmt.Sprintf("svg-%03d", n)] = &Versus{A: fmt.Sprintf("`dot -Tsvg`, %d states", n), B: fmt.Sprintf("`aepflow-render`, %d states, warm cache", n),
			Setup: func(w *Work) (Proc, Proc, error) {
				dot, err := exec.LookPath("dot")
				if err != nil {
					return Proc{}, Proc{}, fmt.Errorf("native Graphviz is not installed (Debian: apt-get install graphviz): %v", err)
				}
				comp, err := companion(w, n)
				native := comp
				native.Args = []string{dot, "-Tsvg"}
				native.Env = nil
				return native, comp, err
			}}
	}
	register(&Page{
		Name: "render",
		Go: map[string]GoBench{
			"graphviz": {Pkg: "./render/graphviz", Bench: ".", Benchtime: "5x", QuickBenchtime: "1x"},
		},
		Versus: versus,
		Facts:  binarySizes,
	})
}

// companion is `aepflow-render --format svg` reading the DOT of a generated
// n-state workflow, with its compilation cache under the scratch directory
// (the warm-up run of each comparison fills it).
func companion(w *Work, n int) (Proc, error) {
	main, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, err
	}
	comp, err := w.Binary("./cmd/aepflow-render")
	if err != nil {
		return Proc{}, err
	}
	dir, err := w.Mkdir(fmt.Sprintf("render-%d", n))
	if err != nil {
		return Proc{}, err
	}
	if err := writeChainWorkflow(dir, n); err != nil {
		return Proc{}, err
	}
	dot, err := exec.Command(main, "render", "--root", dir, "--id", "bench/gen", "--format", "dot").Output()
	if err != nil {
		return Proc{}, fmt.Errorf("aepflow render --format dot: %v", err)
	}
	cache := filepath.Join(w.Dir, "cache-home")
	return Proc{Args: []string{comp, "--format", "svg"}, Stdin: dot, Env: []string{"XDG_CACHE_HOME=" + cache}}, nil
}

// binarySizes reports the size of both binaries as `go build` makes them.
func binarySizes(w *Work) (map[string]string, error) {
	facts := map[string]string{}
	for key, pkg := range map[string]string{"aepflow": "./cmd/aepflow", "aepflow-render": "./cmd/aepflow-render"} {
		bin, err := w.Binary(pkg)
		if err != nil {
			return nil, err
		}
		info, err := os.Stat(bin)
		if err != nil {
			return nil, err
		}
		facts[key+"-size"] = mib(float64(info.Size()))
	}
	out, err := exec.Command("go", "list", "-deps", "./cmd/aepflow").Output()
	if err != nil {
		return nil, err
	}
	n := 0
	for _, line := range splitLines(string(out)) {
		if strings.Contains(line, "graphviz") {
			n++
		}
	}
	facts["aepflow-graphviz-deps"] = fmt.Sprint(n)
	return facts, nil
}
