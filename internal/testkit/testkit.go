// Package testkit holds the test helpers the packages share: golden-file
// comparison, the fixture runner of the `testdata/err/*.yaml` + sibling
// `.out` pattern, and the printers those `.out` files are written with.
//
// It is for tests only; no command or library code may import it. It
// defines no flags: each test binary keeps its own
// `var update = flag.Bool("update", ...)` and passes `*update` in.
package testkit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
)

// Golden compares got with the file at path and fails t when they differ.
// With update it writes got to path instead (creating its directory), so
// `go test -update` regenerates every golden for review as a diff.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := fsio.WriteFile(path, got, fsio.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Files returns the files matching the glob patterns, pattern by pattern,
// each pattern's matches in lexical order. Files ending in `.out` are the
// goldens of the others and are left out. It fails t when nothing matches:
// a fixture directory that lost its files must not pass silently.
func Files(t testing.TB, patterns ...string) []string {
	t.Helper()
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".out") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures match %s", strings.Join(patterns, " "))
	}
	return files
}

// Seeder is what [Seed] adds to: *testing.F.
type Seeder interface {
	testing.TB
	Add(args ...any)
}

// Seed adds the bytes of every file matching the patterns (as [Files]
// finds them) to the fuzz corpus of f, one file an entry.
func Seed(f Seeder, patterns ...string) {
	f.Helper()
	for _, file := range Files(f, patterns...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// OutFile returns the golden of a fixture: its path with the extension
// replaced by `.out` (`testdata/err/x.yaml` → `testdata/err/x.out`).
func OutFile(file string) string {
	return strings.TrimSuffix(file, filepath.Ext(file)) + ".out"
}

// Requirement is what each fixture run by [Fixtures.Golden] must report at
// the least, besides matching its golden.
type Requirement int

// The requirements, from none to at least one error.
const (
	// RequireNothing accepts any output, an empty one included.
	RequireNothing Requirement = iota
	// RequireDiagnostic wants at least one diagnostic, of any severity.
	RequireDiagnostic
	// RequireError wants at least one diagnostic of severity error.
	RequireError
)

// Fixtures describes how one package checks its fixture files and prints
// what they report. Its methods run each file in its own subtest, named by
// the file's path below `testdata/`.
type Fixtures struct {
	// Check loads and checks one fixture and returns its diagnostics. It may
	// fail t itself for what only its package can tell (a missing model,
	// an unpositioned diagnostic).
	Check func(t *testing.T, file string, data []byte) diag.List
	// Print renders diagnostics as the `.out` files hold them; [Lines] when
	// nil.
	Print func(diag.List) string
	// Out names the golden of a fixture; [OutFile] when nil.
	Out func(file string) string
	// Require is what [Fixtures.Golden] wants from every fixture.
	Require Requirement
}

// Clean checks every file matching the patterns and fails each one that
// reports any diagnostic.
func (f Fixtures) Clean(t *testing.T, patterns ...string) {
	t.Helper()
	f.each(t, patterns, func(t *testing.T, _ string, l diag.List) {
		if len(l) > 0 {
			t.Fatalf("want no diagnostics, got:\n%s", f.print(l))
		}
	})
}

// Golden checks every file matching the patterns and compares the printed
// diagnostics with the file's golden, after enforcing f.Require. With
// update (the package's `-update` flag) it rewrites the goldens instead.
func (f Fixtures) Golden(t *testing.T, update bool, patterns ...string) {
	t.Helper()
	f.each(t, patterns, func(t *testing.T, file string, l diag.List) {
		switch {
		case f.Require == RequireDiagnostic && len(l) == 0:
			t.Fatal("want diagnostics, got none")
		case f.Require == RequireError && !l.HasErrors():
			t.Fatalf("want errors, got none:\n%s", f.print(l))
		}
		out := OutFile
		if f.Out != nil {
			out = f.Out
		}
		Golden(t, out(file), []byte(f.print(l)), update)
	})
}

// each reads every fixture and hands its diagnostics to judge in a subtest.
func (f Fixtures) each(t *testing.T, patterns []string, judge func(t *testing.T, file string, l diag.List)) {
	t.Helper()
	for _, file := range Files(t, patterns...) {
		name := filepath.ToSlash(file)
		if i := strings.LastIndex(name, "testdata/"); i >= 0 {
			name = name[i+len("testdata/"):]
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			judge(t, file, f.Check(t, file, data))
		})
	}
}

func (f Fixtures) print(l diag.List) string {
	if f.Print == nil {
		return Lines(l)
	}
	return f.Print(l)
}

// Lines prints each diagnostic's Error() on its own line, in list order.
func Lines(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

// Detailed prints the sorted list one diagnostic a line, Error() followed by
// ` @ path` when the diagnostic has both a file and a document path, then
// its hint indented below it.
func Detailed(l diag.List) string { return detailed(l, false) }

// DetailedRelated prints as [Detailed] does and adds each related location
// below the hint.
func DetailedRelated(l diag.List) string { return detailed(l, true) }

func detailed(l diag.List, related bool) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		b.WriteString(d.Error())
		if d.Path != "" && d.File != "" {
			b.WriteString(" @ " + d.Path)
		}
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
		if !related {
			continue
		}
		for _, r := range d.Related {
			b.WriteString("  related: " + r.File + ": " + r.Message + "\n")
		}
	}
	return b.String()
}

// LineBound is an upper bound of the lines a YAML reader counts in data:
// one, and one more for every line break YAML reads (CR and LF each, and
// NEL, LS and PS, which yaml.v3 counts as line breaks too). A fuzz target
// holds every diagnostic's line to it.
func LineBound(data []byte) int {
	s := string(data)
	n := 1 + strings.Count(s, "\n") + strings.Count(s, "\r")
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		n += strings.Count(s, brk)
	}
	return n
}
