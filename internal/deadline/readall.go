package deadline

import (
	"io"
	"time"
)

// ReadAll runs read on r, which reads it to its end, and returns what read
// returns, or ErrExpired once wait has passed without the end. Where r is a
// file the system can wait on (standard input on Linux: a pipe, a
// terminal, a regular file), every read first waits for input on the
// caller's own goroutine, up to what is left of wait, and read runs there
// too: the transition hook reads its stdin once per consultation, and a
// goroutine for the read cost each process a thread woken and a hand-over
// (bench/transition.md). Any other reader is read on a goroutine of its own
// by Call.
func ReadAll(r io.Reader, wait time.Duration, read func(io.Reader) ([]byte, error)) ([]byte, error) {
	if w, ok := waitable(r, time.Now().Add(wait)); ok {
		return read(w)
	}
	return Call(wait, func() ([]byte, error) { return read(r) })
}
