package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// recorder stands in for a testing.TB to see what a helper reports; its
// Fatal ends the goroutine the helper runs in, as the real one does.
type recorder struct {
	testing.TB
	errors, fatals []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
	runtime.Goexit()
}

// record runs f against a recorder in its own goroutine.
func record(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new", "sub", "x.golden")
	if r := record(func(tb testing.TB) { Golden(tb, path, []byte("a\n"), false) }); len(r.fatals) != 1 ||
		!strings.Contains(r.fatals[0], "run with -update to create it") {
		t.Fatalf("a missing golden must fail and say how to create it: %+v", r)
	}
	if r := record(func(tb testing.TB) { Golden(tb, path, []byte("a\n"), true) }); len(r.errors)+len(r.fatals) != 0 {
		t.Fatalf("update must write the golden, creating its directory: %+v", r)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\n" {
		t.Fatalf("written golden = %q, %v", data, err)
	}
	if r := record(func(tb testing.TB) { Golden(tb, path, []byte("a\n"), false) }); len(r.errors)+len(r.fatals) != 0 {
		t.Fatalf("equal bytes must pass: %+v", r)
	}
	r := record(func(tb testing.TB) { Golden(tb, path, []byte("a"), false) })
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], path) || !strings.Contains(r.errors[0], "--- got\na\n--- want\na\n") {
		t.Fatalf("a missing final newline must fail, naming the file: %+v", r)
	}
}

func TestFilesAndOutFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.yaml", "a.yaml", "a.out", "c.json", "c.out", "d.txt"} {
		write(t, filepath.Join(dir, f), "x\n")
	}
	got := Files(t, filepath.Join(dir, "*.yaml"), filepath.Join(dir, "*.json"), filepath.Join(dir, "*.out"))
	for i := range got {
		got[i] = filepath.Base(got[i])
	}
	if strings.Join(got, " ") != "a.yaml b.yaml c.json" {
		t.Errorf("Files = %v, want pattern order, sorted within, goldens left out", got)
	}
	r := record(func(tb testing.TB) { Files(tb, filepath.Join(dir, "*.toml")) })
	if len(r.fatals) != 1 || !strings.Contains(r.fatals[0], "no fixtures match") {
		t.Errorf("no match must fail: %+v", r)
	}
	r = record(func(tb testing.TB) { Files(tb, "[") })
	if len(r.fatals) != 1 {
		t.Errorf("a bad pattern must fail: %+v", r)
	}
	for in, want := range map[string]string{
		"testdata/err/x.yaml": "testdata/err/x.out", "x.json": "x.out", "dir.d/x": "dir.d/x.out", "x.a.yml": "x.a.out",
	} {
		if got := OutFile(in); got != want {
			t.Errorf("OutFile(%q) = %q, want %q", in, got, want)
		}
	}
}

// seeds records what Seed adds.
type seeds struct {
	recorder
	added []string
}

func (s *seeds) Add(args ...any) { s.added = append(s.added, string(args[0].([]byte))) }

func TestSeed(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.yaml"), "one")
	write(t, filepath.Join(dir, "a.out"), "golden")
	write(t, filepath.Join(dir, "b.json"), "two")
	s := &seeds{}
	Seed(s, filepath.Join(dir, "*.*"))
	if strings.Join(s.added, ",") != "one,two" || len(s.fatals) != 0 {
		t.Errorf("seeds = %q, fatals %v; want the fixtures without the golden", s.added, s.fatals)
	}
}

func sample() diag.List {
	return diag.List{
		diag.Warningf("b_code", "second").At("f.yaml", diag.Pos{Line: 3, Column: 1}).WithPath("a.b"),
		diag.Errorf("a_code", "first").At("f.yaml", diag.Pos{Line: 1, Column: 2}).WithHint("do this").
			WithRelated("g.yaml", diag.Pos{Line: 4, Column: 1}, "declared here"),
		diag.Errorf("c_code", "no file").WithPath("x.y"),
	}
}

func TestPrinters(t *testing.T) {
	if got, want := Lines(sample()), "f.yaml:3:1: warning: second [b_code]\nf.yaml:1:2: first [a_code]\nx.y: no file [c_code]\n"; got != want {
		t.Errorf("Lines:\n%s\nwant:\n%s", got, want)
	}
	want := "f.yaml:1:2: first [a_code]\n  hint: do this\n  related: g.yaml: declared here\n" +
		"f.yaml:3:1: warning: second [b_code] @ a.b\n" +
		"x.y: no file [c_code]\n"
	if got := DetailedRelated(sample()); got != want {
		t.Errorf("DetailedRelated:\n%s\nwant:\n%s", got, want)
	}
	want = strings.Replace(want, "  related: g.yaml: declared here\n", "", 1)
	if got := Detailed(sample()); got != want {
		t.Errorf("Detailed:\n%s\nwant:\n%s", got, want)
	}
	if Lines(nil) != "" || Detailed(nil) != "" || DetailedRelated(nil) != "" {
		t.Error("an empty list prints nothing")
	}
}

// fixtureCheck reports one error per line `err <code>` of the fixture.
func fixtureCheck(_ *testing.T, file string, data []byte) diag.List {
	var l diag.List
	for i, line := range strings.Split(string(data), "\n") {
		if code, ok := strings.CutPrefix(line, "err "); ok {
			l.Add(diag.Errorf(code, "line %d", i+1).At(filepath.Base(file), diag.Pos{Line: i + 1, Column: 1}))
		}
		if code, ok := strings.CutPrefix(line, "warn "); ok {
			l.Add(diag.Warningf(code, "line %d", i+1).At(filepath.Base(file), diag.Pos{Line: i + 1, Column: 1}))
		}
	}
	return l
}

// TestFixturesPass runs both methods over fixtures that satisfy them, the
// goldens first written with Update and then compared.
func TestFixturesPass(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok", "a.yaml"), "fine\n")
	write(t, filepath.Join(dir, "err", "b.yaml"), "x\nerr bad_thing\n")
	write(t, filepath.Join(dir, "err", "c.yaml"), "err one\nerr two\n")
	f := Fixtures{Check: fixtureCheck, Require: RequireError}
	f.Clean(t, filepath.Join(dir, "ok", "*.yaml"))
	f.Golden(t, true, filepath.Join(dir, "err", "*.yaml"))
	f.Golden(t, false, filepath.Join(dir, "err", "*.yaml"))
	out, err := os.ReadFile(filepath.Join(dir, "err", "c.out"))
	if err != nil || string(out) != "c.yaml:1:1: line 1 [one]\nc.yaml:2:1: line 2 [two]\n" {
		t.Errorf("c.out = %q, %v", out, err)
	}
	f.Out = func(file string) string { return file + ".golden" }
	f.Print = func(l diag.List) string { return strings.Join(l.Codes(), ",") }
	f.Golden(t, true, filepath.Join(dir, "err", "c.yaml"))
	if out, _ := os.ReadFile(filepath.Join(dir, "err", "c.yaml.golden")); string(out) != "one,two" {
		t.Errorf("custom Out and Print: %q", out)
	}
}

// failingCases are run in a child test binary, each of which must fail.
var failingCases = map[string]struct {
	require  Requirement
	fixture  string
	golden   string
	clean    bool
	mentions string
}{
	"dirty-clean":     {fixture: "err x\n", clean: true, mentions: "want no diagnostics"},
	"warning-only":    {require: RequireError, fixture: "warn w\n", golden: "f.yaml:1:1: warning: line 1 [w]\n", mentions: "want errors, got none"},
	"no-diagnostic":   {require: RequireDiagnostic, fixture: "fine\n", golden: "", mentions: "want diagnostics, got none"},
	"golden-mismatch": {fixture: "err x\n", golden: "f.yaml:1:1: line 1 [y]\n", mentions: "differs from the golden"},
}

// TestFixturesFail runs each failing case in a child process and checks
// that the child fails for the stated reason.
func TestFixturesFail(t *testing.T) {
	if name := os.Getenv("TESTKIT_FAILING_CASE"); name != "" {
		c := failingCases[name]
		dir := t.TempDir()
		write(t, filepath.Join(dir, "f.yaml"), c.fixture)
		write(t, filepath.Join(dir, "f.out"), c.golden)
		f := Fixtures{Check: fixtureCheck, Require: c.require}
		if c.clean {
			f.Clean(t, filepath.Join(dir, "*.yaml"))
		} else {
			f.Golden(t, false, filepath.Join(dir, "*.yaml"))
		}
		return
	}
	for name, c := range failingCases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestFixturesFail$")
			cmd.Env = append(os.Environ(), "TESTKIT_FAILING_CASE="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the case passed:\n%s", out)
			}
			if !strings.Contains(string(out), c.mentions) {
				t.Errorf("output lacks %q:\n%s", c.mentions, out)
			}
		})
	}
}

func TestSVGTitles(t *testing.T) {
	svg := []byte(`<svg><g class="graph"><title>g</title>` +
		`<g class="node"><title>a</title><text>A</text></g>` +
		`<g class="node"><title>b</title></g>` +
		`<g class="edge"><title>a&#45;&gt;b</title></g></g></svg>`)
	if got := SVGTitles(t, svg, "node"); strings.Join(got, ",") != "a,b" {
		t.Errorf("nodes %q, want a,b", got)
	}
	if got := SVGTitles(t, svg, "edge"); strings.Join(got, ",") != "a->b" {
		t.Errorf("edges %q, want a->b", got)
	}
	if nodes, edges := SVGGraph(t, svg); strings.Join(nodes, ",") != "a,b" || edges != 1 {
		t.Errorf("graph %q, %d edges, want a,b and 1", nodes, edges)
	}
}
