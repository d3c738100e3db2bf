//go:build !linux

package deadline

import (
	"io"
	"time"
)

// polledWithin is false off Linux: ReaderWithin reads each time on a
// goroutine of its own.
func polledWithin(io.Reader, time.Duration) (io.Reader, bool) { return nil, false }
