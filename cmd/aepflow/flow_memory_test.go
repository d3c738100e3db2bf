package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: `aepflow flow` lowers the soft memory limit to
// flowMemoryLimit, unless GOMEMLIMIT is set or the limit is already lower.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	old, had := os.LookupEnv("GOMEMLIMIT")
	defer func() {
		if had {
			os.Setenv("GOMEMLIMIT", old)
		} else {
			os.Unsetenv("GOMEMLIMIT")
		}
	}()

	os.Unsetenv("GOMEMLIMIT")
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != flowMemoryLimit {
		t.Errorf("without GOMEMLIMIT: limit %d, want %d", got, flowMemoryLimit)
	}

	debug.SetMemoryLimit(64 << 20)
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Errorf("a lower limit was raised to %d", got)
	}

	os.Setenv("GOMEMLIMIT", "off")
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT=off was overridden: limit %d", got)
	}
}
