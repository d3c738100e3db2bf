package engine

import (
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// sharedDir returns ../shared, or skips the test where it is absent.
func sharedDir(t testing.TB) string { return testshared.Dir(t) }
