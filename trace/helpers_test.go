package trace

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sharedCorpus returns ../shared/corpus/trace beside the repository root, or
// skips the test when it is absent.
func sharedCorpus(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	corpus := filepath.Join(dir, "..", "shared", "corpus", "trace")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("../shared is absent")
	}
	return corpus
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustRead(t testing.TB, data []byte) *IR {
	t.Helper()
	ir, _, refusals := Read(data)
	if len(refusals) > 0 {
		t.Fatalf("transcript refused: %v", refusals)
	}
	return ir
}

func mustSpec(t testing.TB, data []byte) *Spec {
	t.Helper()
	s, refusals := ReadSpec(data)
	if len(refusals) > 0 {
		t.Fatalf("spec refused: %v", refusals)
	}
	return s
}

// golden compares got with testdata/golden/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}
