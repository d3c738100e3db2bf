package deadline

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestReaderWithinPipe: an OS pipe (the loop's stdin) is read to its end when
// its writer closes it in time, across pauses; one its writer keeps open
// fails with ErrExpired once the bound has passed, and not before.
func TestReaderWithinPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for _, part := range []string{`{"hook":`, `"transition"}`, "\n"} {
			_, _ = pw.WriteString(part)
			time.Sleep(10 * time.Millisecond)
		}
		pw.Close()
	}()
	data, err := io.ReadAll(ReaderWithin(pr, time.Minute))
	pr.Close()
	if string(data) != `{"hook":"transition"}`+"\n" || err != nil {
		t.Errorf("a pipe closed in time: %q, %v", data, err)
	}

	open, held, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	defer held.Close()
	_, _ = held.WriteString("part of it")
	start := time.Now()
	data, err = io.ReadAll(ReaderWithin(open, 50*time.Millisecond))
	if !errors.Is(err, ErrExpired) {
		t.Errorf("a pipe left open: %q, %v; want ErrExpired", data, err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("gave up before the bound")
	}
}

// TestReaderWithinFile: a regular file is read at once, whatever the bound.
func TestReaderWithinFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := strings.Repeat("x", 100_000)
	if _, err := f.WriteString(want); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(ReaderWithin(f, time.Second))
	if string(data) != want || err != nil {
		t.Errorf("a regular file: %d bytes, %v", len(data), err)
	}
}

// blockingReader's reads return once its channel closes.
type blockingReader struct{ block chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.block; return 0, io.EOF }
