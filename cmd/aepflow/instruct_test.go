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
	root := filepath.Join(dir, "tree")
	if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	wf := "id: demo/a\ntitle: A\ninitial: s\nstates:\n  s: {title: S}\n  e: {title: E, terminal: true}\ntransitions:\n  - {from: s, to: e}\n"
	if err := os.WriteFile(filepath.Join(root, "workflows", "a.yaml"), []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
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
