package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryTreeCommandValidatesAsValidate: a tree validate refuses for a
// check beyond loading (a profile naming a protocol the tree lacks,
// resolution_failed, documents.md §2.5) is refused by every command that
// loads the tree — flow exited 0 on it, so `flow --check` passed in CI a
// tree the hook refuses.
func TestEveryTreeCommandValidatesAsValidate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "tree")
	if err := os.CopyFS(root, os.DirFS("../../examples/tree")); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(root, "profiles", "demo-standard.yaml")
	data, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	write(t, profile, bytes.Replace(data, []byte("protocol: demo/1"), []byte("protocol: demo/7"), 1))
	for _, args := range [][]string{
		{"validate", "--root", root},
		{"flow", "--root", root, "--id", "demo/review"},
		{"render", "--root", root, "--id", "demo/review", "--format", "dot"},
		{"instruct", "--root", root, "--id", "demo/review"},
		{"analyze", "--root", root, "--id", "demo/review"},
	} {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		// validate's report is its output; the others print nothing on a
		// refusal and report on stderr.
		report := errb.String()
		if args[0] == "validate" {
			report = out.String()
		} else if out.Len() != 0 {
			t.Errorf("%s printed %q", args[0], out.String())
		}
		if code != exitProblems || !strings.Contains(report, "[resolution_failed]") {
			t.Errorf("%s: exit %d, report %q; want %d with resolution_failed", args[0], code, report, exitProblems)
		}
	}
}
