package deadline

import (
	"errors"
	"testing"
	"time"
)

// TestCall: a call that returns in time gives its value and error; one
// that never returns gives ErrExpired after the bound; a panic in the call
// is raised again on the caller's goroutine.
func TestCall(t *testing.T) {
	want := errors.New("its own error")
	if v, err := Call(time.Minute, func() (int, error) { return 7, want }); v != 7 || err != want {
		t.Errorf("in time: %v, %v", v, err)
	}
	never := make(chan struct{})
	defer close(never)
	start := time.Now()
	if v, err := Call(20*time.Millisecond, func() (int, error) { <-never; return 1, nil }); v != 0 || !errors.Is(err, ErrExpired) {
		t.Errorf("never returns: %v, %v", v, err)
	}
	if time.Since(start) < 20*time.Millisecond {
		t.Error("gave up before the bound")
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the call's panic", p)
		}
	}()
	_, _ = Call(time.Minute, func() (int, error) { panic("boom") })
	t.Error("the panic was not raised again")
}
