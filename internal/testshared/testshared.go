// Package testshared finds `../shared`, the specifications and corpus that
// CI places beside the repository, for the end-to-end suite (package
// conformance, which holds every test against the corpus) and for the
// benchmarks that take the corpus as their input. Both skip where it is
// absent, so the project's own tests pass on any machine.
//
// It is for tests only; no command depends on it.
package testshared

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// EnvVar names the variable that overrides the location of the shared
// folder: a git worktree does not sit beside ../shared.
const EnvVar = "AEPFLOW_SHARED"

// Find returns the absolute path of the shared folder: $AEPFLOW_SHARED when
// set, else `shared` beside the directory holding go.mod, searched upward
// from the working directory. The folder must contain `corpus`.
func Find() (string, error) {
	if env := os.Getenv(EnvVar); env != "" {
		return checked(env)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return checked(filepath.Join(dir, "..", "shared"))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func checked(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(abs, "corpus")); err != nil {
		return "", err
	}
	return abs, nil
}

// Dir returns the shared folder, or skips the test when it is absent.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := Find()
	if err != nil {
		tb.Skipf("../shared is absent (%v); set %s to run the conformance tests", err, EnvVar)
	}
	return dir
}

// Corpus returns the corpus sub-folder joined with elem, or skips the test.
func Corpus(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb), "corpus"}, elem...)...)
}
