// Package fsio reads and writes the files aepflow is given, fail closed.
//
// Every file aepflow reads goes through ReadFile or Open: the path is opened
// without blocking (a named pipe cannot hang the process), refused unless it
// is a regular file (a directory, a pipe, a socket, a device such as
// /dev/zero, or a symbolic link to one of them), and refused when it holds
// more bytes than the caller's limit — checked on the size the file reports
// before a byte is read, and again while reading, since a file may grow.
// Standard input is read through ReadAll with the same cap.
//
// Every file aepflow writes goes through WriteFile: the bytes go to a
// temporary file beside the destination, synced and renamed over it, so a
// reader sees the old bytes or the new ones. The destination is refused when
// its path can only name a directory (`out/`, `out/.`), when
// it exists and is not a regular file, when it is one of the command's
// inputs (the same file by device and inode), and when it is a symbolic
// link whose target is missing; a link to a regular file is written through
// (its target is replaced), except in a write into a directory
// (WriteOptions.Within), where no link below the directory is followed.
// Temporary files still in flight when the
// process is told to stop are removed by RemoveTemps.
//
// It is not a policy: the limits are the callers' (each input kind has its
// own, documented in docs/security.md), and the mapping of an Error to a
// diagnostic code is the caller's too.
package fsio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/internal/deadline"
)

// Kind says why a path was refused.
type Kind int

const (
	// KindIO: the operating system refused (missing file, permission, …);
	// Err holds its error.
	KindIO Kind = iota
	// KindNotRegular: the path is a directory, a named pipe, a socket or a
	// device (or a symbolic link to one).
	KindNotRegular
	// KindTooLarge: the input holds more bytes than the limit.
	KindTooLarge
	// KindIsInput: the destination of a write is one of the command's
	// inputs.
	KindIsInput
	// KindDanglingLink: the destination of a write is a symbolic link to a
	// missing file.
	KindDanglingLink
	// KindDirectoryName: the destination of a write can only name a
	// directory, whether or not it exists: it ends in a path separator,
	// or its last element is `.` or `..`.
	KindDirectoryName
	// KindThroughLink: the destination of a write into a directory
	// (WriteOptions.Within) is, or lies under, a symbolic link below that
	// directory; What is the link, as a path under the directory.
	KindThroughLink
	// KindTooManyEntries: a directory holds more entries than the limit
	// (ReadDir); Limit is the count.
	KindTooManyEntries
)

// Error is a refusal to read or write Path.
type Error struct {
	// Op is "read" or "write".
	Op string
	// Path is the path as the caller gave it.
	Path string
	// Kind says why.
	Kind Kind
	// Limit is the cap in bytes, for KindTooLarge; in entries, for
	// KindTooManyEntries.
	Limit int64
	// What names the kind of a non-regular file ("a directory", "a named
	// pipe", …), for KindNotRegular; the input it is, for KindIsInput.
	What string
	// Err is the operating system's error, for KindIO.
	Err error
}

// Error returns a one-line description that names the path.
func (e *Error) Error() string {
	switch e.Kind {
	case KindNotRegular:
		return fmt.Sprintf("cannot %s `%s`: it is %s, not a regular file", e.Op, e.Path, e.What)
	case KindTooLarge:
		return fmt.Sprintf("cannot %s `%s`: it is larger than the limit of %s", e.Op, e.Path, FormatSize(e.Limit))
	case KindIsInput:
		return fmt.Sprintf("cannot write `%s`: it is the input `%s` of this command", e.Path, e.What)
	case KindDanglingLink:
		return fmt.Sprintf("cannot write `%s`: it is a symbolic link to the missing file `%s`", e.Path, e.What)
	case KindDirectoryName:
		return fmt.Sprintf("cannot write `%s`: the path names a directory, not a file", e.Path)
	case KindThroughLink, KindTooManyEntries:
		return fmt.Sprintf("cannot %s `%s`: %s", e.Op, e.Path, e.Reason())
	}
	return fmt.Sprintf("cannot %s `%s`: %s", e.Op, e.Path, errText(e.Err))
}

// Unwrap returns the operating system's error, so errors.Is(err,
// fs.ErrNotExist) works on a missing file.
func (e *Error) Unwrap() error { return e.Err }

// Reason returns the refusal without the path and operation: "it is a named
// pipe, not a regular file", "no such file or directory", … — for messages
// that name the path themselves.
func (e *Error) Reason() string {
	switch e.Kind {
	case KindNotRegular:
		return fmt.Sprintf("it is %s, not a regular file", e.What)
	case KindTooLarge:
		return "it is larger than the limit of " + FormatSize(e.Limit)
	case KindIsInput:
		return fmt.Sprintf("it is the input `%s` of this command", e.What)
	case KindDanglingLink:
		return fmt.Sprintf("it is a symbolic link to the missing file `%s`", e.What)
	case KindDirectoryName:
		return "the path names a directory, not a file"
	case KindTooManyEntries:
		return fmt.Sprintf("the directory holds more than %d entries", e.Limit)
	case KindThroughLink:
		if e.What == e.Path {
			return "it is a symbolic link, and a file written into a directory is never written through one"
		}
		return fmt.Sprintf("`%s` is a symbolic link, and a file written into a directory is never written through one", e.What)
	}
	return errText(e.Err)
}

// Reason returns the reason of err for a message that names the path
// itself: the refusal's Reason when err is or wraps an *Error, else err's
// own message.
func Reason(err error) string {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Reason()
	}
	return err.Error()
}

// errText returns the bare cause of an operating-system error: the
// *PathError's inner error, without Go's "open x:" prefix.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// IsTooLarge reports whether err is a KindTooLarge refusal.
func IsTooLarge(err error) bool { return kindOf(err) == KindTooLarge }

// IsTooManyEntries reports whether err is ReadDir's refusal of a directory
// holding more entries than its limit.
func IsTooManyEntries(err error) bool { return kindOf(err) == KindTooManyEntries }

// IsNotRegular reports whether err is a KindNotRegular refusal.
func IsNotRegular(err error) bool { return kindOf(err) == KindNotRegular }

func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return -1
}

// FormatSize prints a byte count the way the limits are documented: whole
// MiB or KiB where exact, else bytes.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// describe names the kind of a non-regular file mode.
func describe(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a file"
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// File is an open regular file whose reads stop with a KindTooLarge Error
// once more than its limit has been read.
type File struct {
	f     *os.File
	path  string
	limit int64
	read  int64
	size  int64
	mode  os.FileMode
}

// Open opens path for reading: it must be a regular file (after following
// symbolic links) of at most limit bytes. Opening never blocks, even on a
// named pipe.
func Open(path string, limit int64) (*File, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, &Error{Op: "read", Path: path, Kind: KindIO, Err: err}
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, &Error{Op: "read", Path: path, Kind: KindIO, Err: err}
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Op: "read", Path: path, Kind: KindNotRegular, What: describe(info.Mode())}
	}
	if info.Size() > limit {
		f.Close()
		return nil, &Error{Op: "read", Path: path, Kind: KindTooLarge, Limit: limit}
	}
	return &File{f: f, path: path, limit: limit, size: info.Size(), mode: info.Mode()}, nil
}

// Size returns the size the file reported when it was opened, in bytes.
func (f *File) Size() int64 { return f.size }

// Mode returns the file's mode when it was opened.
func (f *File) Mode() os.FileMode { return f.mode }

// ReadAt reads len(p) bytes from offset off, as io.ReaderAt does, for the
// readers that seek (an executable's build information); nothing past the
// limit is read: such a read returns a KindTooLarge Error.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > f.limit || int64(len(p)) > f.limit-off {
		return 0, &Error{Op: "read", Path: f.path, Kind: KindTooLarge, Limit: f.limit}
	}
	return f.f.ReadAt(p, off)
}

// Read reads from the file; past the limit it returns a KindTooLarge Error.
func (f *File) Read(p []byte) (int, error) {
	if f.read > f.limit {
		return 0, &Error{Op: "read", Path: f.path, Kind: KindTooLarge, Limit: f.limit}
	}
	if room := f.limit + 1 - f.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := f.f.Read(p)
	f.read += int64(n)
	if f.read > f.limit {
		return n, &Error{Op: "read", Path: f.path, Kind: KindTooLarge, Limit: f.limit}
	}
	return n, err
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// ReadFile returns the contents of the regular file at path, refusing it
// (without reading) when it is not a regular file or reports more than
// limit bytes, and while reading when it holds more.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 0, f.size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			var fe *Error
			if errors.As(err, &fe) {
				return nil, err
			}
			return nil, &Error{Op: "read", Path: path, Kind: KindIO, Err: err}
		}
	}
}

// Expiring returns r, a reader bounded in time by package deadline, whose
// reads past the bound fail with an *Error reading name, the bound's
// ErrExpired worded by reason (which bound it was, and what to do).
func Expiring(r io.Reader, name, reason string) io.Reader {
	return &expiring{r: r, name: name, reason: reason}
}

type expiring struct {
	r            io.Reader
	name, reason string
}

func (e *expiring) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if errors.Is(err, deadline.ErrExpired) {
		err = &Error{Op: "read", Path: e.name, Kind: KindIO, Err: errors.New(e.reason)}
	}
	return n, err
}

// ReadAll reads r (standard input, say) to its end, refusing it with a
// KindTooLarge Error, named name, once it yields more than limit bytes.
// At most limit+1 bytes are ever held. An error of r's that is an *Error
// already (a bound r enforces itself) is returned as it is.
func ReadAll(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if fe, ok := errors.AsType[*Error](err); ok {
		return nil, fe // r's own refusal, which names what it reads
	}
	if err != nil {
		return nil, &Error{Op: "read", Path: name, Kind: KindIO, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &Error{Op: "read", Path: name, Kind: KindTooLarge, Limit: limit}
	}
	return data, nil
}

// ReadDir returns the entries of dir sorted by name, as os.ReadDir does,
// and refuses (KindTooManyEntries) a directory holding more than limit:
// the entries are read a batch at a time, so a directory of millions is
// refused without holding its names. A directory's size is not known
// before it is read, and os.ReadDir holds every name at once.
func ReadDir(dir string, limit int) ([]fs.DirEntry, error) {
	f, err := openNoBlock(dir) // dir may be a named pipe by now
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: dir, Err: fmt.Errorf("it is %s, not a directory", describe(st.Mode()))}
	}
	var entries []fs.DirEntry
	for {
		batch, err := f.ReadDir(min(512, limit+1))
		entries = append(entries, batch...)
		if len(entries) > limit {
			return nil, &Error{Op: "read", Path: dir, Kind: KindTooManyEntries, Limit: int64(limit)}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}
