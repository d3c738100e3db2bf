package trace

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/internal/testshared"
)

var update = flag.Bool("update", false, "rewrite golden files")

// sharedCorpus returns ../shared/corpus/trace, or skips the benchmark where
// it is absent. The corpus checks of trace.md §8 are in package
// conformance.
func sharedCorpus(t testing.TB) string { return testshared.Corpus(t, "trace") }

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
	testkit.Golden(t, filepath.Join("testdata", "golden", name), got, *update)
}
