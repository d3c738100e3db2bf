package instruct

import (
	"testing"

	"github.com/aepflow/aepflow/internal/instructcheck"
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
