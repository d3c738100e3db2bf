package transition

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/hookmatrix"
)

// scaleTree adds k-1 copies of every protocol, principle, workflow and
// profile of the tree at root, each under an identity of its own
// (`<id>-copy<i>`, protocols `<id>copy<i>`), so that a consultation loads
// and validates k times the documents while the task resolves as before.
func scaleTree(t testing.TB, root string, k int) {
	t.Helper()
	idLine := regexp.MustCompile(`(?m)^id: (\S+)$`)
	for _, dir := range []string{"protocols", "principles", "workflows", "profiles"} {
		var files []string
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(filepath.Join(root, dir), f)
			for i := 1; i < k; i++ {
				suffix := "-copy" + strconv.Itoa(i)
				if dir == "protocols" {
					suffix = "copy" + strconv.Itoa(i) // protocol ids take no `-`
				}
				copied := idLine.ReplaceAll(data, []byte("id: ${1}"+suffix))
				target := filepath.Join(root, dir, "copies", strconv.Itoa(i), rel)
				if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(target, copied, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestScaledTreeAnswersAlike builds project F over the fixture tree at 1×,
// 10× and 100× its documents: the consultation of the benchmark gets the
// same answer from each. With AEPFLOW_BENCH_PROJECTS=DIR set, the projects
// are written to DIR/scale-<k> and kept: bench/run measures the hook and its
// baseline process on them.
func TestScaledTreeAnswersAlike(t *testing.T) {
	dir := os.Getenv("AEPFLOW_BENCH_PROJECTS")
	if dir == "" {
		dir = t.TempDir()
	}
	got := map[int]Outcome{}
	for k, project := range scaledProjects(t, dir, 1, 10, 100) {
		got[k] = Decide([]byte(benchStdin), Options{Project: project, Run: runPassing, Now: testNow})
	}
	if got[1].Kind != Refuse {
		t.Fatalf("1×: %+v, want the benchmark's refusal", got[1])
	}
	for _, k := range []int{10, 100} {
		if got[k] != got[1] {
			t.Errorf("%d×: %+v, want %+v as at 1×", k, got[k], got[1])
		}
	}
}

// scaledProjects builds project F over the fixture tree at each scale,
// in dir/scale-<k>, returning the project directories.
func scaledProjects(tb testing.TB, dir string, scales ...int) map[int]string {
	tb.Helper()
	out := map[int]string{}
	for _, k := range scales {
		project := filepath.Join(dir, fmt.Sprintf("scale-%d", k))
		if err := os.RemoveAll(project); err != nil {
			tb.Fatal(err)
		}
		src := filepath.Join(dir, fmt.Sprintf("source-%d", k))
		if err := os.RemoveAll(src); err != nil {
			tb.Fatal(err)
		}
		copyDir(tb, projectDir, src)
		scaleTree(tb, filepath.Join(src, "tree"), k)
		hookmatrix.OwnFixture(src, testNow).Build(tb, project, projectF)
		out[k] = project
	}
	return out
}

// TestDecideAllocationsGrowLinearly: a tree of ten times the documents
// costs the consultation about ten times the allocations.
func TestDecideAllocationsGrowLinearly(t *testing.T) {
	projects := scaledProjects(t, t.TempDir(), 10, 100)
	allocs := func(p string) float64 {
		return testing.AllocsPerRun(2, func() {
			Decide([]byte(benchStdin), Options{Project: p, Run: runPassing, Now: testNow})
		})
	}
	a, b := allocs(projects[10]), allocs(projects[100])
	if b > 12*a {
		t.Errorf("10× tree: %.0f allocations; 100×: %.0f (%.1f×, want at most 12×)", a, b, b/a)
	}
}

// BenchmarkDecideScaled is BenchmarkDecide over the fixture tree at 1×,
// 10× and 100× its documents.
func BenchmarkDecideScaled(b *testing.B) {
	projects := scaledProjects(b, b.TempDir(), 1, 10, 100)
	for _, k := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("tree=%dx", k), func(b *testing.B) {
			opts := Options{Project: projects[k], Run: runPassing, Now: testNow}
			b.ReportAllocs()
			for b.Loop() {
				if out := Decide([]byte(benchStdin), opts); out.Kind != Refuse {
					b.Fatal(out)
				}
			}
		})
	}
}
