package deadline

import (
	"errors"
	"io"
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

// slowReader yields its chunks one per Read, each after a pause, then EOF.
type slowReader struct {
	chunks []string
	pause  time.Duration
}

func (s *slowReader) Read(p []byte) (int, error) {
	if len(s.chunks) == 0 {
		return 0, io.EOF
	}
	time.Sleep(s.pause)
	n := copy(p, s.chunks[0])
	s.chunks[0] = s.chunks[0][n:]
	if s.chunks[0] == "" {
		s.chunks = s.chunks[1:]
	}
	return n, nil
}

// TestReader: the bound is on each pause, not on the whole read: a stream
// whose every read arrives within it is read to its end however long it
// takes in all; a read that does not return within it fails with
// ErrExpired, and so does every read after it.
func TestReader(t *testing.T) {
	slow := &slowReader{chunks: []string{"a", "b", "c", "d", "e"}, pause: 20 * time.Millisecond}
	data, err := io.ReadAll(Reader(slow, 200*time.Millisecond))
	if string(data) != "abcde" || err != nil {
		t.Errorf("a slow stream within the bound: %q, %v", data, err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = pw.Write([]byte("first")) }()
	r := Reader(pr, 50*time.Millisecond)
	buf := make([]byte, 64)
	if n, err := r.Read(buf); string(buf[:n]) != "first" || err != nil {
		t.Fatalf("the first read: %q, %v", buf[:n], err)
	}
	start := time.Now()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, ErrExpired) {
		t.Errorf("a pipe left open: %d, %v", n, err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("gave up before the bound")
	}
	go func() { _, _ = pw.Write([]byte("late")) }()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, ErrExpired) {
		t.Errorf("a read after the bound passed: %d, %v", n, err)
	}
}

// TestReaderWithin: the bound is on the whole read, from the first Read: a
// stream that ends within it is read whole; one that keeps sending, each
// byte well within the bound, but does not end within it fails with
// ErrExpired, and so does every read after it; so does one left open.
func TestReaderWithin(t *testing.T) {
	fast := &slowReader{chunks: []string{"a", "b", "c"}, pause: time.Millisecond}
	data, err := io.ReadAll(ReaderWithin(fast, time.Minute))
	if string(data) != "abc" || err != nil {
		t.Errorf("a stream that ends within the bound: %q, %v", data, err)
	}
	drip := &slowReader{chunks: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}, pause: 20 * time.Millisecond}
	start := time.Now()
	r := ReaderWithin(drip, 90*time.Millisecond)
	data, err = io.ReadAll(r)
	if !errors.Is(err, ErrExpired) || len(data) == 0 || len(data) >= 10 {
		t.Errorf("a drip longer than the bound in all: %q, %v", data, err)
	}
	if took := time.Since(start); took < 90*time.Millisecond || took > 10*time.Second {
		t.Errorf("gave up after %v, not at the bound", took)
	}
	if n, err := r.Read(make([]byte, 8)); n != 0 || !errors.Is(err, ErrExpired) {
		t.Errorf("a read after the bound passed: %d, %v", n, err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	if n, err := ReaderWithin(pr, 50*time.Millisecond).Read(make([]byte, 8)); n != 0 || !errors.Is(err, ErrExpired) {
		t.Errorf("a pipe left open: %d, %v", n, err)
	}
}
