//go:build !linux

package deadline

import (
	"io"
	"time"
)

// waitable is false off Linux: ReadAll reads on a goroutine of its own.
func waitable(io.Reader, time.Time) (io.Reader, bool) { return nil, false }
