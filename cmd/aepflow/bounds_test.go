package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sparse makes a file of size bytes without writing them.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestEvaluateBoundsEvidenceInAll: --evidence documents each under the
// document bound cannot add up past maxEvidenceBytes.
func TestEvaluateBoundsEvidenceInAll(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"tree/protocols/p.yaml":  "id: p\ntitle: P\nversion: 1\nphases: [work, completion]\nobservables: ['**']\n",
		"tree/profiles/pr.yaml":  "id: prof\ntitle: Prof\nprotocol: p/1\nworkflow: w\n",
		"tree/workflows/w.yaml":  "id: w\ntitle: W\ninitial: a\nstates:\n  a: {title: A, phases: [work]}\n  b: {title: B, terminal: true, phases: [completion]}\ntransitions:\n  - {from: a, to: b}\n",
		"task.yaml":              "id: T-1\nkind: feature\nobjective: try\nprotocol: p/1\nprofile: prof\n",
		"evidence/.placeholder":  "",
		"tree/drivers/.keep.txt": "",
	})
	args := []string{"evaluate", "--root", filepath.Join(dir, "tree"), "--task", filepath.Join(dir, "task.yaml")}
	n := maxEvidenceBytes/(4<<20) + 1
	for i := range n {
		file := filepath.Join(dir, "evidence", fmt.Sprintf("e%02d.yaml", i))
		sparse(t, file, 4<<20)
		args = append(args, "--evidence", file)
	}
	var stdout, stderr bytes.Buffer
	code := run(args, nil, &stdout, &stderr)
	want := fmt.Sprintf("the --evidence documents exceed the limit of 64 MiB in all (at `%s`)", filepath.Join(dir, "evidence", fmt.Sprintf("e%02d.yaml", n-1)))
	if code != exitProblems || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want %q", code, stderr.String(), want)
	}
}
