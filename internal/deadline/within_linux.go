package deadline

import (
	"errors"
	"io"
	"math"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// polledWithin returns ReaderWithin's reader of r when r is a file: every
// read first waits with poll(2), on the caller's goroutine, until the file
// has input or end of file, or the bound has passed, then reads it there.
// It is false when r is not a file.
func polledWithin(r io.Reader, total time.Duration) (io.Reader, bool) {
	f, ok := r.(*os.File)
	if !ok || f == nil {
		return nil, false
	}
	// The descriptor, without File.Fd, which would also switch a
	// non-blocking one to blocking mode.
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	fd := -1
	if conn.Control(func(d uintptr) { fd = int(d) }) != nil || fd < 0 {
		return nil, false
	}
	return &polled{f: f, fd: int32(fd), total: total}, true
}

// polled is a file whose reads wait for input until total has passed
// since the first read.
type polled struct {
	f     *os.File
	fd    int32
	total time.Duration
	end   time.Time
	err   error
}

// Read waits until the file has input, then reads it; ErrExpired once the
// bound has passed without input, and for every read after that.
func (p *polled) Read(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	if len(b) == 0 {
		return 0, nil
	}
	if p.end.IsZero() {
		p.end = time.Now().Add(p.total)
	}
	if err := p.wait(); err != nil {
		if errors.Is(err, ErrExpired) {
			p.err = err
		}
		return 0, err
	}
	return p.f.Read(b)
}

// wait returns once the file is readable (input, end of file or an error
// the read reports), or ErrExpired at the end of the bound.
func (p *polled) wait() error {
	fds := []unix.PollFd{{Fd: p.fd, Events: unix.POLLIN}}
	for {
		left := time.Until(p.end)
		if left <= 0 {
			return ErrExpired
		}
		ms := int(min(math.Ceil(float64(left)/float64(time.Millisecond)), math.MaxInt32))
		n, err := unix.Poll(fds, ms)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return err
		case n > 0:
			return nil // POLLIN, POLLHUP or POLLERR: the read says which
		}
	}
}
