package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestRunFailures(t *testing.T) {
	cases := []struct {
		args  []string
		in    string
		code  int
		inErr string
	}{
		{[]string{"--format", "jpg"}, dot, exitUsage, `unsupported format "jpg"`},
		{[]string{"extra"}, dot, exitUsage, "unexpected argument"},
		{[]string{"--bogus"}, dot, exitUsage, "bogus"},
		{nil, "digraph { a -> }", exitFailed, "syntax error"},
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
	}
}

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errb.String(), "Exit codes") {
		t.Errorf("help lacks the exit codes: %s", errb.String())
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
