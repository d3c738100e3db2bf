package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutNeverReplacesRedirectedStdin: a file given on standard input
// (`--transcript - < t.jsonl`) is an input like a named one, so --out on it
// is refused and the file kept, whichever flag read standard input.
func TestOutNeverReplacesRedirectedStdin(t *testing.T) {
	spec := readFixture(t, "../../testdata/trace/specs/events.trace.yaml")
	transcript := readFixture(t, "../../testdata/trace/transcripts/events.jsonl")
	for _, tc := range []struct {
		name, stdinFile string
		stdin           []byte
		args            func(dir string) []string
	}{
		{"transcript", "t.jsonl", transcript, func(dir string) []string {
			return []string{"trace", "evidence", "--spec", filepath.Join(dir, "spec.yaml"), "--transcript", "-", "--out", filepath.Join(dir, "t.jsonl")}
		}},
		{"spec", "spec.yaml", spec, func(dir string) []string {
			return []string{"trace", "evidence", "--spec", "-", "--transcript", filepath.Join(dir, "t.jsonl"), "--out", filepath.Join(dir, "link.yaml")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "spec.yaml"), spec)
			write(t, filepath.Join(dir, "t.jsonl"), transcript)
			if err := os.Symlink("spec.yaml", filepath.Join(dir, "link.yaml")); err != nil {
				t.Fatal(err)
			}
			in, err := os.Open(filepath.Join(dir, tc.stdinFile))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var out, errb bytes.Buffer
			code := run(tc.args(dir), in, &out, &errb)
			if code != exitProblems || !strings.Contains(errb.String(), "it is the input `<stdin>` of this command") {
				t.Errorf("exit %d, stderr %q; want exit %d naming standard input", code, errb.String(), exitProblems)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, tc.stdinFile)); !bytes.Equal(got, tc.stdin) {
				t.Errorf("%s was replaced by %q", tc.stdinFile, got)
			}
		})
	}
	// Another destination still gets the records.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "spec.yaml"), spec)
	in := bytes.NewReader(transcript)
	var out, errb bytes.Buffer
	dest := filepath.Join(dir, "evidence.yaml")
	if code := run([]string{"trace", "evidence", "--spec", filepath.Join(dir, "spec.yaml"), "--transcript", "-", "--out", dest}, in, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got, err := os.ReadFile(dest); err != nil || !bytes.Contains(got, []byte("trace_conformance")) {
		t.Errorf("%s: %v %q", dest, err, got)
	}
}

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
