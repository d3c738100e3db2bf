package transition

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
)

// benchStdin is a leave consultation answered from a run: the most work
// the verb does (documents, task, store, run, snapshot, evaluation).
const benchStdin = `{"hook":"transition","flow":"fx/flow","path":"root.establish_verifiers","moment":"leave","attempt":1,"of":1,"failed":false,"handoff":{},"workspace":"/ws"}` + "\n"

// build compiles a package of this module into dir with `go build`.
func build(b *testing.B, dir, pkg string) string {
	b.Helper()
	out := filepath.Join(dir, filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = repoRoot(b)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out
}

// benchProcess runs a command once per iteration, stdin to exit.
func benchProcess(b *testing.B, wantExit int, name string, args ...string) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(name, args...)
		cmd.Stdin = bytes.NewReader([]byte(benchStdin))
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			b.Fatal(err)
		}
		if code != wantExit {
			b.Fatalf("%s exited %d, want %d", name, code, wantExit)
		}
	}
}

// BenchmarkProcessHook times `aepflow drive transition --run DRIVE-1/4`
// as the harness runs it: one process, start to exit (it refuses: exit 2).
func BenchmarkProcessHook(b *testing.B) {
	dir := b.TempDir()
	bin := build(b, dir, "./cmd/aepflow")
	project := filepath.Join(dir, "project")
	ownFixture().Build(b, project, projectF)
	benchProcess(b, 2, bin, "drive", "transition", "--project", project, "--run", "DRIVE-1/4")
}

// BenchmarkProcessMinimal times the baseline: a Go program that reads the
// same stdin and parses the same documents with go.yaml.in/yaml/v3.
func BenchmarkProcessMinimal(b *testing.B) {
	dir := b.TempDir()
	bin := build(b, dir, "./transition/testdata/minimal")
	project := filepath.Join(dir, "project")
	ownFixture().Build(b, project, projectF)
	benchProcess(b, 0, bin, project, filepath.Join(project, "tree"), filepath.Join(project, ".engineering", "runs", "DRIVE-1", "4"))
}

// BenchmarkDecide times the decision in-process (no process start).
func BenchmarkDecide(b *testing.B) {
	project := filepath.Join(b.TempDir(), "project")
	ownFixture().Build(b, project, projectF)
	opts := Options{Project: project, Run: "DRIVE-1/4", Now: testNow}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if out := Decide([]byte(benchStdin), opts); out.Kind != Refuse {
			b.Fatal(out)
		}
	}
}

// BenchmarkProcessHookCorpus is BenchmarkProcessHook over the corpus tree
// (fixture F of engine.md §8.7); it skips without ../shared.
func BenchmarkProcessHookCorpus(b *testing.B) {
	fx := corpusFixture(b)
	dir := b.TempDir()
	bin := build(b, dir, "./cmd/aepflow")
	project := filepath.Join(dir, "project")
	fx.Build(b, project, projectF)
	benchProcess(b, 2, bin, "drive", "transition", "--project", project, "--root", fx.Root, "--run", "DRIVE-1/4")
}

// BenchmarkProcessMinimalCorpus is the baseline over the corpus tree.
func BenchmarkProcessMinimalCorpus(b *testing.B) {
	fx := corpusFixture(b)
	dir := b.TempDir()
	bin := build(b, dir, "./transition/testdata/minimal")
	project := filepath.Join(dir, "project")
	fx.Build(b, project, projectF)
	benchProcess(b, 0, bin, project, fx.Root, filepath.Join(project, ".engineering", "runs", "DRIVE-1", "4"))
}
