package deadline

import (
	"errors"
	"io"
	"math"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// waitable returns a reader of r whose every read first waits, with
// poll(2), until r has input or end of file, or until the deadline; false
// when r is not a file.
func waitable(r io.Reader, deadline time.Time) (io.Reader, bool) {
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
	return &polled{f: f, fd: int32(fd), deadline: deadline}, true
}

// polled is a file whose reads wait for input up to a deadline.
type polled struct {
	f        *os.File
	fd       int32
	deadline time.Time
}

// Read waits until the file has input, then reads it; ErrExpired once the
// deadline has passed without input.
func (p *polled) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if err := p.wait(); err != nil {
		return 0, err
	}
	return p.f.Read(b)
}

// wait returns once the file is readable (input, end of file or an error
// the read reports), or ErrExpired at the deadline.
func (p *polled) wait() error {
	fds := []unix.PollFd{{Fd: p.fd, Events: unix.POLLIN}}
	for {
		left := time.Until(p.deadline)
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
