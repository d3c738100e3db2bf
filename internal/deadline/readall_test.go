package deadline

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// readAll is the read ReadAll is given in these tests.
func readAll(r io.Reader) ([]byte, error) { return io.ReadAll(r) }

// TestReadAllPipe: an OS pipe (the loop's stdin) is read to its end when
// its writer closes it in time, across pauses; one its writer keeps open
// fails with ErrExpired once the bound has passed, and not before.
func TestReadAllPipe(t *testing.T) {
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
	data, err := ReadAll(pr, time.Minute, readAll)
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
	data, err = ReadAll(open, 50*time.Millisecond, readAll)
	if !errors.Is(err, ErrExpired) {
		t.Errorf("a pipe left open: %q, %v; want ErrExpired", data, err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("gave up before the bound")
	}
}

// TestReadAllFile: a regular file is read at once, whatever the bound.
func TestReadAllFile(t *testing.T) {
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
	data, err := ReadAll(f, time.Second, readAll)
	if string(data) != want || err != nil {
		t.Errorf("a regular file: %d bytes, %v", len(data), err)
	}
}

// TestReadAllFileOnCallersGoroutine: on Linux a file is waited on and read
// where ReadAll is called, without a goroutine of its own; any other reader
// is read on one (Call), so a read that never returns cannot hold the
// caller.
func TestReadAllFileOnCallersGoroutine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a file is waited on in place on Linux only; elsewhere ReadAll reads on a goroutine")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	_, _ = pw.WriteString("done")
	pw.Close()
	before := runtime.NumGoroutine()
	var during int
	_, _ = ReadAll(pr, time.Minute, func(r io.Reader) ([]byte, error) {
		during = runtime.NumGoroutine()
		return io.ReadAll(r)
	})
	if during != before {
		t.Errorf("%d goroutines during the read of a pipe, %d before: it was read on another", during, before)
	}
	block := make(chan struct{})
	defer close(block)
	_, err = ReadAll(blockingReader{block}, 20*time.Millisecond, readAll)
	if !errors.Is(err, ErrExpired) {
		t.Errorf("a reader that never returns: %v; want ErrExpired", err)
	}
}

// blockingReader's reads return once its channel closes.
type blockingReader struct{ block chan struct{} }

func (b blockingReader) Read([]byte) (int, error) { <-b.block; return 0, io.EOF }
