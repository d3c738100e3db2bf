//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInstructRefusesNamedPipes: a named pipe where instruct reads a map,
// compares a document or writes one is refused at once (a pipe with no
// writer would block an ordinary open forever).
func TestInstructRefusesNamedPipes(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	wf := "id: demo/a\ntitle: A\ninitial: s\nstates:\n  s: {title: S}\n  e: {title: E, terminal: true}\ntransitions:\n  - {from: s, to: e}\n"
	if err := os.WriteFile(filepath.Join(root, "workflows", "a.yaml"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := func(path string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(path, 0o644); err != nil {
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
