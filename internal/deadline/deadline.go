// Package deadline waits for a call that may never return, up to a bound:
// the hook's read of stdin and the companion's layout, neither of which
// can be cancelled once started.
package deadline

import (
	"errors"
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
