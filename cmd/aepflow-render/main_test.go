package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/render/graphviz"
)

const dot = "digraph \"t\" {\n  \"a\" [label=\"A\"];\n  \"a\" -> \"b\";\n}\n"

func TestRunSVGToStdout(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, strings.NewReader(dot), &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !bytes.Contains(out.Bytes(), []byte("<svg")) || !bytes.Contains(out.Bytes(), []byte("<title>a</title>")) {
		t.Errorf("stdout is not an SVG of the graph:\n%s", out.String())
	}
}

func TestRunPNGToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.png")
	var out, errb bytes.Buffer
	if code := run([]string{"--format", "png", "--out", path}, strings.NewReader(dot), &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG", path)
	}
	if out.Len() != 0 {
		t.Errorf("stdout should be empty with --out, got %q", out.String())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestOutIsNotTheRedirectedStdin: `--out g.dot < g.dot` would replace the
// DOT text with its picture; it is refused and the file kept.
func TestOutIsNotTheRedirectedStdin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.dot")
	if err := os.WriteFile(path, []byte(dot), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out, errb bytes.Buffer
	if code := run([]string{"--format", "svg", "--out", path}, in, &out, &errb); code != exitFailed || !strings.Contains(errb.String(), "it is the input `stdin`") {
		t.Errorf("exit %d, stderr %q; want %d naming stdin", code, errb.String(), exitFailed)
	}
	if data, _ := os.ReadFile(path); string(data) != dot {
		t.Errorf("the DOT input was replaced by %q", data)
	}
}

func TestRunFailures(t *testing.T) {
	tmp := t.TempDir()
	cases := []struct {
		args  []string
		in    string
		code  int
		inErr string
	}{
		{[]string{"--format", "jpg"}, dot, exitUsage, `unsupported format "jpg"`},
		{[]string{"--format", "sv"}, dot, exitUsage, `unsupported format "sv"; want svg or png; did you mean "svg"?`},
		{[]string{"extra"}, dot, exitUsage, "unexpected argument"},
		// Usage errors read as aepflow's (internal/flagword), not as the
		// flag package's ("flag provided but not defined", "parse error").
		{[]string{"--bogus"}, dot, exitUsage, "aepflow-render: unknown flag --bogus\n"},
		{[]string{"--fromat", "png"}, dot, exitUsage, "aepflow-render: unknown flag --fromat; did you mean --format?\n"},
		{[]string{"-x"}, dot, exitUsage, "aepflow-render: unknown shorthand flag -x\n"},
		{[]string{"--timeout", "5x"}, dot, exitUsage, "aepflow-render: invalid value \"5x\" for --timeout: want a duration such as 30s or 2m\n"},
		{[]string{"--version=maybe"}, dot, exitUsage, "aepflow-render: invalid value \"maybe\" for --version: want true or false\n"},
		{[]string{"--out"}, dot, exitUsage, "aepflow-render: --out needs a value\n"},
		// An empty value is refused as aepflow refuses it: --out "" wrote
		// the picture to stdout, as if --out were absent.
		{[]string{"--out", ""}, dot, exitUsage, "aepflow-render: --out must not be empty\n"},
		{[]string{"--out="}, dot, exitUsage, "aepflow-render: --out must not be empty\n"},
		{[]string{"--format", ""}, dot, exitUsage, "aepflow-render: --format must not be empty\n"},
		{nil, "", exitFailed, "the input holds no graph"},
		{nil, "  \n\t\n", exitFailed, "the input holds no graph"},
		{[]string{"--format", "png"}, "// just a comment\n/* and another */\n", exitFailed, "the input holds no graph"},
		{nil, "digraph { a -> }", exitFailed, "syntax error"},
		{[]string{"--timeout", "0s"}, dot, exitUsage, "--timeout must be positive"},
		// A flag that takes one value, given twice, is refused as aepflow
		// refuses it (the last one won without a word), and nothing is
		// written.
		{[]string{"--out", filepath.Join(tmp, "a.svg"), "--out", filepath.Join(tmp, "b.svg")}, dot, exitUsage, "b.svg\"); it takes one value, so give it once\n"},
		{[]string{"--format", "svg", "--format=png", "--out", filepath.Join(tmp, "c.png")}, dot, exitUsage, "aepflow-render: --format is given twice (\"svg\", then \"png\"); it takes one value, so give it once\n"},
		{[]string{"--timeout", "5s", "--timeout", "5s"}, dot, exitUsage, "aepflow-render: --timeout is given twice; give it once\n"},
		{[]string{"--out", "/dev/null"}, dot, exitFailed, "it is a character device, not a regular file"},
		{[]string{"--out", filepath.Join(t.TempDir(), "missing", "x.svg")}, dot, exitFailed, "x.svg"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, strings.NewReader(c.in), &out, &errb); code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errb.String())
		}
		if !strings.Contains(errb.String(), c.inErr) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errb.String(), c.inErr)
		}
		if c.code == exitUsage && strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: a usage error is one line, not %q", c.args, errb.String())
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("a refused command line wrote %v", entries)
	}
}

// TestFormatFromOut: without --format, the picture is the one --out's
// extension names; a contradiction is a usage error and nothing is
// written (aepflow's rule and wording).
func TestFormatFromOut(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "g.png")
	var out, errb bytes.Buffer
	if code := run([]string{"--out", png}, strings.NewReader(dot), &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if data, err := os.ReadFile(png); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s is not a PNG (%v)", png, err)
	}
	svg := filepath.Join(dir, "g.svg")
	errb.Reset()
	code := run([]string{"--format", "png", "--out", svg}, strings.NewReader(dot), &out, &errb)
	if want := "aepflow-render: --format png contradicts --out " + svg + ", which names svg\n"; code != exitUsage || errb.String() != want {
		t.Errorf("exit %d, stderr %q; want %d, %q", code, errb.String(), exitUsage, want)
	}
	if _, err := os.Stat(svg); !os.IsNotExist(err) {
		t.Errorf("a refused command line wrote %s (%v)", svg, err)
	}
}

// TestFailedStdout: a failed write to standard output is exit 1 in
// aepflow's words, for the picture and for --version.
func TestFailedStdout(t *testing.T) {
	for _, args := range [][]string{nil, {"--version"}} {
		var errb bytes.Buffer
		code := run(args, strings.NewReader(dot), failingWriter{}, &errb)
		if code != exitFailed || errb.String() != "aepflow-render: cannot write to standard output: no space left on device\n" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String(), "Exit codes") || !strings.Contains(errb.String(), "Examples:") {
		t.Errorf("help lacks the exit codes: %s", errb.String())
	}
}

// TestLayoutTimeBound: a layout that does not finish within --timeout is
// given up with a clear error (the library cannot be cancelled; the real
// process exits right after).
func TestLayoutTimeBound(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	layout = func([]byte, string) ([]byte, error) { <-release; return nil, nil }
	defer func() { layout = graphviz.Render }()
	var out, errb bytes.Buffer
	code := run([]string{"--timeout", "20ms"}, strings.NewReader(dot), &out, &errb)
	if code != exitFailed || !strings.Contains(errb.String(), "graphviz did not finish the svg layout within 20ms (--timeout)") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q; want nothing", out.String())
	}
}

// TestStdinBounded: DOT beyond graphviz.MaxInput is refused after reading
// at most one byte more than the bound, whatever the stream's length.
func TestStdinBounded(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(nil, endless{}, &out, &errb)
	if code != exitFailed || !strings.Contains(errb.String(), "larger than the limit of 4 MiB") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

// TestSecurityBoundsTimeout: docs/security.md states the companion's
// default time bound.
func TestSecurityBoundsTimeout(t *testing.T) {
	row := testkit.TableRows(t, "../../docs/security.md", "## Bounds")["the companion's layout time (`aepflow-render --timeout`, `render --timeout`)"]
	if want := fmt.Sprintf("%d s;", int(DefaultTimeout.Seconds())); len(row) < 2 || !strings.HasPrefix(row[1], want) {
		t.Errorf("the row reads %v; the default is %v", row, DefaultTimeout)
	}
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "aepflow-render ") || !strings.Contains(out.String(), "go1.") || !strings.HasSuffix(out.String(), ")\n") {
		t.Errorf("--version printed %q", out.String())
	}
}

// TestErrorsEscaped: every error is one line, `aepflow-render: <err>`,
// with the control characters, line breaks and bidirectional controls of
// its message escaped (diag.EscapeText), as aepflow prints its own: a path
// or a flag name from the command line printed its LF or ANSI escape as it
// was, ending the line early or coloring the terminal.
func TestErrorsEscaped(t *testing.T) {
	out := filepath.Join(t.TempDir(), "missing", "a\nforged\x1b[31m.svg")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--out", out}, exitFailed, "aepflow-render: cannot write `" + strings.NewReplacer("\n", `\x0a`, "\x1b", `\x1b`).Replace(out) + "`: no such file or directory\n"},
		{[]string{"--format", "svg\u202e"}, exitUsage, "aepflow-render: unsupported format \"svg\\u202e\"; want svg or png; did you mean \"svg\"?\n"},
		{[]string{"--out\nforged"}, exitUsage, "aepflow-render: unknown flag --out\\x0aforged\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(dot), &stdout, &stderr)
		if code != c.code || stderr.String() != c.want {
			t.Errorf("%q: exit %d, want %d\nstderr: %q\nwant:   %q", c.args, code, c.code, stderr.String(), c.want)
		}
	}
}

// TestStdinBound: DOT text that does not end within maxStdinWait (a pipe
// left open, the companion started by hand at a terminal, a producer that
// drips) is refused (exit 1, naming stdin and the bound); it hung for
// ever. aepflow gives the companion a stdin that ends at once.
func TestStdinBound(t *testing.T) {
	old := maxStdinWait
	maxStdinWait = 200 * time.Millisecond
	t.Cleanup(func() { maxStdinWait = old })
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	go func() { _, _ = w.Write([]byte("digraph {")) }()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(nil, r, &stdout, &stderr) }()
	select {
	case code := <-done:
		want := "aepflow-render: cannot read `stdin`: it did not end within 200ms, the bound on reading the DOT text (pipe a file that ends, or redirect one)\n"
		if code != exitFailed || stderr.String() != want || stdout.Len() != 0 {
			t.Errorf("exit %d, stderr %q, stdout %q; want %d, %q", code, stderr.String(), stdout.String(), exitFailed, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("aepflow-render hung on its standard input")
	}
	rows := testkit.TableRows(t, "../../docs/security.md", "## Bounds")
	if row, want := rows["DOT text on the companion's stdin, until it ends"], fmt.Sprintf("%d s in all", int(old.Seconds())); len(row) < 2 || row[1] != want {
		t.Errorf("docs/security.md's row: %v; the code says %q", row, want)
	}
}
