// Package deadline waits for a call that may never return, up to a bound:
// the companion's layout, each read of a stream that may pause for ever
// (Reader) and the whole read of a stream that may never end
// (ReaderWithin: the hook's stdin, a document read from `-`), none of
// which can be cancelled once started.
package deadline

import (
	"errors"
	"io"
	"time"
)

// ErrExpired is Call's error when the call has not returned within its
// bound.
var ErrExpired = errors.New("deadline: the call did not return in time")

// Call runs f on its own goroutine and returns what it returns, or
// ErrExpired once wait has passed. A call that never returns stays behind
// on its goroutine: the callers are processes that exit with their answer
// right after. A panic in f is raised again here, on the caller's
// goroutine, where the caller's recover can see it (on f's goroutine it
// would end the process past any recover).
func Call[T any](wait time.Duration, f func() (T, error)) (T, error) {
	type result struct {
		v        T
		err      error
		panicked any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panicked: p}
			}
		}()
		v, err := f()
		done <- result{v: v, err: err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.panicked != nil {
			panic(r.panicked)
		}
		return r.v, r.err
	case <-timer.C:
		var zero T
		return zero, ErrExpired
	}
}

// maxReadChunk bounds what one Read of a Reader asks of the stream it
// reads, so that the buffer it reads into stays small whatever the
// caller's is.
const maxReadChunk = 64 << 10

// Reader returns a reader of r that bounds each pause, not the whole read:
// every Read returns what r's Read returns, or ErrExpired once idle has
// passed without r's Read returning. A stream that keeps sending is read
// to its end however long it takes in all; one left open and silent (a
// pipe whose writer never closes it, a terminal) fails within idle
// instead of hanging. After ErrExpired every Read returns ErrExpired: the
// read in flight stays behind on its goroutine, with a buffer of its own,
// so the caller's is never written after Read returns.
func Reader(r io.Reader, idle time.Duration) io.Reader {
	return &idleReader{r: r, idle: idle}
}

// ReaderWithin returns a reader of r that bounds the whole read: the clock
// starts at the first Read, and every Read returns what r's Read returns,
// or ErrExpired once total has passed since then. It suits a stream whose
// size is small and known (a document of a few MiB arrives in well under
// a second from any producer; the hook's one line): a stream left open,
// silent or dripping a byte at a time fails within total whatever it
// sends. After ErrExpired every Read returns ErrExpired, as Reader's do.
//
// Where r is a file the system can wait on (standard input on Linux: a
// pipe, a terminal, a regular file), each Read waits for input with
// poll(2) and reads on the caller's goroutine: the hook reads its stdin
// once per consultation, and a goroutine per read cost each process a
// thread woken and a hand-over. Any other reader is read on a goroutine
// per Read (Call).
func ReaderWithin(r io.Reader, total time.Duration) io.Reader {
	if p, ok := polledWithin(r, total); ok {
		return p
	}
	return &idleReader{r: r, idle: total, whole: true}
}

type idleReader struct {
	r    io.Reader
	idle time.Duration
	// whole makes idle the bound of the whole read, from the first Read
	// (end), rather than of each Read.
	whole bool
	end   time.Time
	buf   []byte
	err   error
}

func (i *idleReader) Read(p []byte) (int, error) {
	if i.err != nil {
		return 0, i.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(p) > maxReadChunk {
		p = p[:maxReadChunk]
	}
	if cap(i.buf) < len(p) {
		i.buf = make([]byte, len(p))
	}
	wait := i.idle
	if i.whole {
		now := time.Now()
		if i.end.IsZero() {
			i.end = now.Add(i.idle)
		}
		if wait = i.end.Sub(now); wait <= 0 {
			i.err = ErrExpired
			return 0, ErrExpired
		}
	}
	buf := i.buf[:len(p)]
	n, err := Call(wait, func() (int, error) { return i.r.Read(buf) })
	if errors.Is(err, ErrExpired) && n == 0 {
		i.err, i.buf = ErrExpired, nil // the read in flight keeps buf
		return 0, ErrExpired
	}
	return copy(p, buf[:n]), err
}
