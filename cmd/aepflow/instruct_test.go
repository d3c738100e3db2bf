package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/yamldoc"
)

// TestInstructRefusesAnOversizedMap: a --map file over the document bound
// is refused from its size, as input_too_large, not read as a map id.
func TestInstructRefusesAnOversizedMap(t *testing.T) {
	dir := t.TempDir()
	root := instructTree(t, dir)
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#"), yamldoc.MaxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"instruct", "--root", root, "--id", "demo/a", "--map", big}, nil, &stdout, &stderr); code != exitProblems {
		t.Errorf("exit %d, want %d\n%s", code, exitProblems, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the file is 4194305 bytes, over the limit of 4194304 bytes [input_too_large]") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("a refused run printed a document:\n%s", stdout.String())
	}
}

// TestInstructRefusesNamedPipes: a named pipe where instruct reads a map,
// compares a document or writes one is refused at once (a pipe with no
// writer would block an ordinary open forever).
func TestInstructRefusesNamedPipes(t *testing.T) {
	dir := t.TempDir()
	root := instructTree(t, dir)
	fifo := func(path string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(path); err != nil {
			t.Skipf("cannot make a named pipe: %v", err)
		}
		return path
	}
	pipe := fifo(filepath.Join(dir, "pipe"))
	fifo(filepath.Join(dir, "out", "demo", "a.md"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--id", "demo/a", "--map", pipe}, "it is a named pipe, not a regular file [io_error]"},
		{[]string{"--id", "demo/a", "--out", pipe, "--check"}, "it is a named pipe, not a regular file"},
		{[]string{"--id", "demo/a", "--out", pipe}, "it is a named pipe, not a regular file [io_error]"},
		{[]string{"--out", filepath.Join(dir, "out"), "--check"}, "it is a named pipe, not a regular file [io_error]"},
		{[]string{"--out", filepath.Join(dir, "out")}, "it is a named pipe, not a regular file [io_error]"},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"instruct", "--root", root}, c.args...)
		if code := run(args, nil, &stdout, &stderr); code != exitProblems {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, exitProblems, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.want, stderr.String())
		}
	}
	if info, err := os.Lstat(pipe); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", info, err)
	}
}

// instructTree writes a one-workflow tree (demo/a) under dir and returns
// its root.
func instructTree(t *testing.T, dir string) string {
	root := filepath.Join(dir, "tree")
	writeFiles(t, root, map[string]string{
		"workflows/a.yaml": "id: demo/a\ntitle: A\ninitial: s\nstates:\n  s: {title: S}\n  e: {title: E, terminal: true}\ntransitions:\n  - {from: s, to: e}\n",
	})
	return root
}
