package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The hook as `aepflow hooks` names it — aepflow-hook, the hook in a binary
// of its own — run as the harness runs it, a process per consultation,
// against the floor (transition/testdata/minimal: a Go program that reads
// the same stdin and parses the same documents with the same YAML library,
// deciding nothing), on the fixture tree at 1×, 10× and 100× its documents
// (issue 13: answer ≤ 1.25× the floor, peak memory ≤ 1.5× the floor's on
// the 100× tree).
//
// Every binary is built static (StaticBuild: no cgo), and aepflow-hook as
// the project recommends installing it (StripFlags too: no symbol table,
// no DWARF); beside it the same without StripFlags, to show what they give.
// Beside the hook: `aepflow drive transition`, the same decision in the
// binary that holds every command, in that build and in the default one
// (cgo on where a C compiler is, since pflag imports net); and the
// start-up alone of each binary (`aepflow version`, `aepflow-hook --help`)
// against the floor's whole run.
// hookRounds is the rounds of each hook pair by tree size: a round on the
// fixture tree takes ten milliseconds, and a median over a few dozen of
// them still moves by several percent from one run of bench/run to the
// next on a shared machine; hundreds settle it for the same few seconds a
// round on the 100× tree takes.
var hookRounds = map[int]int{1: 201, 10: 101, 100: 41}

func init() {
	versus := map[string]*Versus{}
	rounds1 := hookRounds[1]
	for _, k := range []int{1, 10, 100} {
		versus[fmt.Sprintf("hook-%03d", k)] = &Versus{
			A: fmt.Sprintf("floor (`transition/testdata/minimal`), %d× tree", k),
			B: fmt.Sprintf("`aepflow-hook`, %d× tree", k), Rounds: hookRounds[k],
			Setup: func(w *Work) (Proc, Proc, error) { return hookPair(w, k, hookProgram) }}
	}
	versus["plain-001"] = &Versus{
		A: "floor, 1× tree",
		B: "`aepflow-hook` built without `-ldflags=\"-s -w\"`, 1× tree", Rounds: rounds1,
		Setup: func(w *Work) (Proc, Proc, error) { return hookPair(w, 1, hookProgramBuilt()) }}
	for _, k := range []int{1, 100} {
		versus[fmt.Sprintf("verb-%03d", k)] = &Versus{
			A: fmt.Sprintf("floor, %d× tree", k),
			B: fmt.Sprintf("`aepflow drive transition`, %d× tree", k), Rounds: hookRounds[k],
			Setup: func(w *Work) (Proc, Proc, error) { return hookPair(w, k, hookVerb(StaticBuild)) }}
		versus[fmt.Sprintf("cgo-%03d", k)] = &Versus{
			A: fmt.Sprintf("floor, %d× tree", k),
			B: fmt.Sprintf("`aepflow drive transition`, default build (cgo), %d× tree", k), Rounds: hookRounds[k],
			Setup: func(w *Work) (Proc, Proc, error) { return hookPair(w, k, hookVerb("")) }}
	}
	startOf := func(pkg string, args []string, exit int, flags ...string) func(w *Work) (Proc, Proc, error) {
		return func(w *Work) (Proc, Proc, error) {
			floor, _, err := hookPair(w, 1, hookProgram)
			if err != nil {
				return Proc{}, Proc{}, err
			}
			bin, err := w.BinaryBuild(pkg, StaticBuild, flags...)
			return floor, Proc{Args: append([]string{bin}, args...), Exit: exit}, err
		}
	}
	versus["start"] = &Versus{
		A: "floor, 1× tree (the whole run)", B: "`aepflow version` (start-up alone)", Rounds: rounds1,
		Setup: startOf("./cmd/aepflow", []string{"version"}, 0)}
	versus["start-hook"] = &Versus{
		A: "floor, 1× tree (the whole run)", B: "`aepflow-hook --help` (start-up alone)", Rounds: rounds1,
		Setup: startOf("./cmd/aepflow-hook", []string{"--help"}, 1, StripFlags...)}
	register(&Page{
		Name: "transition",
		Go: map[string]GoBench{
			"decide": {Pkg: "./transition", Bench: "Decide", Benchtime: "200x", QuickBenchtime: "50x"},
		},
		Versus: versus,
		Facts: func(w *Work) (map[string]string, error) {
			facts := map[string]string{}
			for key, b := range map[string]struct {
				pkg, env string
				flags    []string
			}{
				"aepflow-size":     {"./cmd/aepflow", StaticBuild, nil},
				"aepflow-cgo-size": {"./cmd/aepflow", "", nil},
				"hook-size":        {"./cmd/aepflow-hook", StaticBuild, StripFlags},
				"hook-plain-size":  {"./cmd/aepflow-hook", StaticBuild, nil},
				"minimal-size":     {"./transition/testdata/minimal", "", nil},
			} {
				bin, err := w.BinaryBuild(b.pkg, b.env, b.flags...)
				if err != nil {
					return nil, err
				}
				info, err := os.Stat(bin)
				if err != nil {
					return nil, err
				}
				facts[key] = mib(float64(info.Size()))
			}
			bin, err := w.BinaryWith("./cmd/aepflow", StaticBuild)
			if err != nil {
				return nil, err
			}
			facts["kernel"], facts["read-ahead"] = kernelRelease(), readAhead(bin)
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

// hookCommand returns the command line of a hook under test on project p.
type hookCommand func(w *Work, p string) (args []string, err error)

// hookProgram is aepflow-hook as README installs it, on the command line
// `aepflow hooks` writes.
func hookProgram(w *Work, p string) ([]string, error) { return hookProgramBuilt(StripFlags...)(w, p) }

// hookProgramBuilt is aepflow-hook built static with flags.
func hookProgramBuilt(flags ...string) hookCommand {
	return func(w *Work, p string) ([]string, error) {
		bin, err := w.BinaryBuild("./cmd/aepflow-hook", StaticBuild, flags...)
		return []string{bin, "--project", p, "--run", "DRIVE-1/4"}, err
	}
}

// hookVerb is `aepflow drive transition`, built with env.
func hookVerb(env string) hookCommand {
	return func(w *Work, p string) ([]string, error) {
		bin, err := w.BinaryWith("./cmd/aepflow", env)
		return []string{bin, "drive", "transition", "--project", p, "--run", "DRIVE-1/4"}, err
	}
}

// hookPair returns the floor and the hook on the k× project.
func hookPair(w *Work, k int, hook hookCommand) (Proc, Proc, error) {
	dir, err := hookProjects(w)
	if err != nil {
		return Proc{}, Proc{}, err
	}
	floor, err := w.Binary("./transition/testdata/minimal")
	if err != nil {
		return Proc{}, Proc{}, err
	}
	p := filepath.Join(dir, fmt.Sprintf("scale-%d", k))
	args, err := hook(w, p)
	if err != nil {
		return Proc{}, Proc{}, err
	}
	run := filepath.Join(p, ".engineering", "runs", "DRIVE-1", "4")
	return Proc{Args: []string{floor, p, filepath.Join(p, "tree"), run}, Stdin: []byte(benchStdin)},
		Proc{Args: args, Stdin: []byte(benchStdin), Exit: 2}, nil
}

// kernelRelease is the running kernel's release, or "unknown".
func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// readAhead is the read-ahead of the block device holding file, as
// "N KiB", or "unknown": how much the kernel reads, and may map, on a
// fault in a file mapping (a partition's is its disk's).
func readAhead(file string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(file, &st); err != nil {
		return "unknown"
	}
	dev := fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
	for _, p := range []string{dev + "/queue/read_ahead_kb", dev + "/../queue/read_ahead_kb"} {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(string(b)) + " KiB"
		}
	}
	return "unknown"
}
