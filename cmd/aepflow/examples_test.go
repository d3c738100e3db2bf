package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesAreCurrent keeps the committed example outputs honest, the
// way a project using aepflow keeps its own: each generating command runs
// with --check and must find its file up to date. The README's first
// command projects the same tree.
func TestExamplesAreCurrent(t *testing.T) {
	// From the repository root, so that the paths the commands write into
	// their outputs (the instructions index names its own command) are the
	// ones examples/README.md gives.
	t.Chdir(filepath.Join("..", ".."))
	examples := "examples"
	tree := filepath.Join(examples, "tree")
	commands := [][]string{
		{"validate", "--root", tree},
		{"flow", "--root", tree, "--id", "demo/review", "--map", "demo/review-steps", "--check",
			"--out", filepath.Join(examples, "flows", "demo-review.yaml")},
		{"render", "--root", tree, "--id", "demo/review", "--format", "mermaid", "--check",
			"--out", filepath.Join(examples, "diagrams", "demo-review.mmd")},
		{"render", "--root", tree, "--id", "demo/review", "--format", "dot", "--check",
			"--out", filepath.Join(examples, "diagrams", "demo-review.dot")},
		{"plan", "--flow", filepath.Join(examples, "flows", "demo-review.yaml")},
		{"instruct", "--root", tree, "--check", "--out", filepath.Join(examples, "instructions")},
	}
	for _, args := range commands {
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitOK {
			t.Errorf("aepflow %s: exit %d\n%s%s(regenerate with the commands in examples/README.md)",
				strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
	}
	// The bundled tree is what a finished one looks like: analyze, whose
	// warnings exit 0, must find nothing in it either.
	var stdout, stderr bytes.Buffer
	if code := run([]string{"analyze", "--root", tree, "--format", "json"}, nil, &stdout, &stderr); code != exitOK || strings.TrimSpace(stdout.String()) != "[]" {
		t.Errorf("aepflow analyze --root %s: exit %d, findings %s%s", tree, code, stdout.String(), stderr.String())
	}
	// The example scenario walks the workflow to its merge, through both
	// retreats (a failed check, a review asking for changes).
	stdout.Reset()
	stderr.Reset()
	scenario := filepath.Join(examples, "scenarios", "demo-review.yaml")
	args := []string{"simulate", "--root", tree, "--id", "demo/review", "--map", "demo/review-steps", "--evidence", scenario}
	code := run(args, nil, &stdout, &stderr)
	out := stdout.String()
	if code != exitOK || strings.Count(out, "(retreat)") != 2 || !strings.HasSuffix(out, "completed in `merged` after 9 move(s)\n") {
		t.Errorf("aepflow %s: exit %d\n%s%s", strings.Join(args, " "), code, out, stderr.String())
	}
}
