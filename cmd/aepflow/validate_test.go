package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateRefusesHugeFile writes a sparse 120 MB file (never
// committed) and checks that validate refuses it from its size.
func TestValidateRefusesHugeFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(120 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--kind", "workflow", file}, nil, &stdout, &stderr)
	if code != exitProblems || !strings.Contains(stdout.String(), "the file is 125829120 bytes, over the limit of 4194304 bytes [input_too_large]") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
}
