package deadline

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// TestReaderWithinFileOnCallersGoroutine: on Linux a file is waited on and
// read where Read is called, without a goroutine of its own; any other
// reader is read on one (Call), so a read that never returns cannot hold
// the caller.
func TestReaderWithinFileOnCallersGoroutine(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	_, _ = pw.WriteString("done")
	pw.Close()
	r := ReaderWithin(pr, time.Minute)
	if _, inPlace := r.(*polled); !inPlace {
		t.Errorf("a pipe is read through %T, not waited on in place", r)
	}
	if data, err := io.ReadAll(r); string(data) != "done" || err != nil {
		t.Errorf("the pipe: %q, %v", data, err)
	}
	block := make(chan struct{})
	defer close(block)
	_, err = io.ReadAll(ReaderWithin(blockingReader{block}, 20*time.Millisecond))
	if !errors.Is(err, ErrExpired) {
		t.Errorf("a reader that never returns: %v; want ErrExpired", err)
	}
}
