package instruct

import (
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/instructcheck"
	"github.com/aepflow/aepflow/internal/testshared"
)

// checkerFacts are the facts ../shared/tools/instruct_facts.py reads from a
// document (instructions.md §12.3), as far as the tests compare them.
type checkerFacts = instructcheck.Facts

// checkerPath returns the checker script, skipping the test (with a
// message) where python3 or ../shared is absent, as in a CI without them.
func checkerPath(t testing.TB) string { return instructcheck.Script(t) }

// runChecker runs the checker with --strict on file and returns its facts.
func runChecker(t testing.TB, checker, file string) checkerFacts {
	return instructcheck.Run(t, checker, file)
}

// sharedTreeIfPresent returns ../shared/corpus/tree when it exists.
func sharedTreeIfPresent() (string, error) {
	dir, err := testshared.Find()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "corpus", "tree"), nil
}
