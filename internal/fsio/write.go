package fsio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// WriteOptions says how WriteFile treats its destination.
type WriteOptions struct {
	// Perm is the mode of a new file (before the umask); an existing file
	// keeps its mode. Zero means 0o644.
	Perm os.FileMode
	// Inputs are the paths the command read; the destination may be none of
	// them (compared by device and inode, so a link or another spelling of
	// the same path is caught). Paths that do not exist are ignored.
	Inputs []string
	// Opened are inputs the command read through a descriptor it did not
	// open by path (standard input redirected from a file); the
	// destination may be none of them either.
	Opened []OpenedInput
	// MakeDirs creates missing parent directories (mode 0o755).
	MakeDirs bool
	// Within is the directory a command writes several files into
	// (`instruct --out DIR`), or "": the destination must lie under it, and
	// neither the destination nor any directory between Within and it may
	// be a symbolic link — the caller named the directory, not what an
	// entry of it points at, so a link there (to a file, a directory, in
	// the directory or out of it) is refused, never written through.
	// Within itself may be a link, as a single destination may.
	Within string
}

// OpenedInput is an input known by its descriptor's file information, not
// by a path: Name says which it is in messages ("<stdin>").
type OpenedInput struct {
	Name string
	Info os.FileInfo
}

// StatOpened returns f as an OpenedInput named name when f is a regular
// file (what a destination could be the same as), and false otherwise: a
// pipe or a terminal is no file a write could land on.
func StatOpened(f *os.File, name string) (OpenedInput, bool) {
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return OpenedInput{}, false
	}
	return OpenedInput{Name: name, Info: info}, true
}

// errEmptyPath is the refusal of an empty destination: no file has that
// name, and its directory would be the working one.
var errEmptyPath = errors.New("the path is empty")

// CheckDestination refuses path as the destination of a write when it is
// empty, can only name a directory (namesDirectory), is a symbolic link to a missing
// file, exists and is not a regular file, or is one of inputs or opened.
// It returns the path to write: path itself, or the target of the symbolic
// links it goes through. A missing path is fine. Nothing is made on disk
// before it has passed, parent directories included.
func CheckDestination(path string, inputs []string, opened ...OpenedInput) (string, error) {
	if path == "" {
		return "", &Error{Op: "write", Path: path, Kind: KindIO, Err: errEmptyPath}
	}
	if namesDirectory(path) {
		return "", &Error{Op: "write", Path: path, Kind: KindDirectoryName}
	}
	target, err := resolveLink(path)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return target, nil
	}
	if err != nil {
		return "", &Error{Op: "write", Path: path, Kind: KindIO, Err: err}
	}
	if !info.Mode().IsRegular() {
		return "", &Error{Op: "write", Path: path, Kind: KindNotRegular, What: describe(info.Mode())}
	}
	for _, in := range inputs {
		if inInfo, err := os.Stat(in); err == nil && os.SameFile(info, inInfo) {
			return "", &Error{Op: "write", Path: path, Kind: KindIsInput, What: in}
		}
	}
	for _, in := range opened {
		if os.SameFile(info, in.Info) {
			return "", &Error{Op: "write", Path: path, Kind: KindIsInput, What: in.Name}
		}
	}
	return target, nil
}

// namesDirectory reports whether path can only name a directory, whether
// or not one is there: it ends in a path separator (`out/`), or its last
// element is `.` or `..`. Such a destination is refused before its parent
// directories are made: the rename onto it would fail after they were.
func namesDirectory(path string) bool {
	if path == "" {
		return false
	}
	if os.IsPathSeparator(path[len(path)-1]) {
		return true
	}
	i := len(path) - 1
	for i >= 0 && !os.IsPathSeparator(path[i]) {
		i--
	}
	last := path[i+1:]
	return last == "." || last == ".."
}

// resolveLink returns the file path names: path when it is not a symbolic
// link (or does not exist), else the link's final target.
func resolveLink(path string) (string, error) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err == nil {
		return target, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		link, _ := os.Readlink(path)
		return "", &Error{Op: "write", Path: path, Kind: KindDanglingLink, What: link}
	}
	return "", &Error{Op: "write", Path: path, Kind: KindIO, Err: err}
}

// CheckWithin refuses path as a destination under the directory within
// when it does not lie under it (lexically), or when it or a directory
// between within and it is a symbolic link (KindThroughLink, naming the
// first). Components that do not exist yet are fine: they are made as
// directories, or written as the file.
func CheckWithin(path, within string) error {
	rel, err := filepath.Rel(within, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &Error{Op: "write", Path: path, Kind: KindIO, Err: fmt.Errorf("it does not lie under the directory `%s`", within)}
	}
	cur := within
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return &Error{Op: "write", Path: path, Kind: KindIO, Err: err}
		}
		if info.Mode()&os.ModeSymlink != 0 {
			return &Error{Op: "write", Path: path, Kind: KindThroughLink, What: cur}
		}
	}
	return nil
}

// WriteFile replaces the file at path with data atomically, after
// CheckDestination: the bytes go to a temporary file in the destination's
// directory, which is synced and renamed over it. On any error the
// destination is untouched and the temporary file removed.
func WriteFile(path string, data []byte, opts WriteOptions) error {
	if opts.Within != "" {
		if err := CheckWithin(path, opts.Within); err != nil {
			return err
		}
	}
	target, err := CheckDestination(path, opts.Inputs, opts.Opened...)
	if err != nil {
		return err
	}
	perm := opts.Perm
	if perm == 0 {
		perm = 0o644
	}
	if info, err := os.Stat(target); err == nil {
		perm = info.Mode().Perm()
	}
	if opts.MakeDirs {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return &Error{Op: "write", Path: path, Kind: KindIO, Err: err}
		}
	}
	if err := writeAtomic(target, data, perm); err != nil {
		return &Error{Op: "write", Path: path, Kind: KindIO, Err: err}
	}
	return nil
}

// Output is one file of a write into a directory.
type Output struct {
	// Rel is the file's path under the directory, `/`-separated.
	Rel string
	// Data is what it holds.
	Data []byte
}

// WriteFiles writes every output into the directory dir, each as WriteFile
// does with opts and Within set to dir (no symbolic link below dir is
// followed). Every destination is checked before the first is written, so
// a refusal leaves the directory as it was; then the outputs are written in
// order, and done (when not nil) is called after each. On an error it
// returns the index of the output refused or not written.
func WriteFiles(dir string, outs []Output, opts WriteOptions, done func(i int)) (int, error) {
	opts.Within = dir
	for i, o := range outs {
		path := filepath.Join(dir, filepath.FromSlash(o.Rel))
		if err := CheckWithin(path, dir); err != nil {
			return i, err
		}
		if _, err := CheckDestination(path, opts.Inputs, opts.Opened...); err != nil {
			return i, err
		}
	}
	for i, o := range outs {
		if err := WriteFile(filepath.Join(dir, filepath.FromSlash(o.Rel)), o.Data, opts); err != nil {
			return i, err
		}
		if done != nil {
			done(i)
		}
	}
	return 0, nil
}

// writeAtomic writes data to a temporary file beside target and renames it
// over target. The temporary file is known to RemoveTemps while it exists.
func writeAtomic(target string, data []byte, perm os.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	temps.add(name)
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
		temps.remove(name)
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, target)
}

// tempSet holds the temporary files being written, for RemoveTemps.
type tempSet struct {
	mu    sync.Mutex
	names map[string]bool
}

var temps = &tempSet{names: map[string]bool{}}

func (s *tempSet) add(name string) {
	s.mu.Lock()
	s.names[name] = true
	s.mu.Unlock()
}

func (s *tempSet) remove(name string) {
	s.mu.Lock()
	delete(s.names, name)
	s.mu.Unlock()
}

// RemoveTemps removes every temporary file a WriteFile in flight has
// created. A command calls it when told to stop (SIGINT, SIGTERM, SIGHUP)
// before it exits, so a kill between the write and the rename leaves no
// `.NAME.tmp-*` beside the destination. (SIGKILL cannot be caught; a
// temporary file left by it is never mistaken for the destination.)
func RemoveTemps() {
	temps.mu.Lock()
	defer temps.mu.Unlock()
	for name := range temps.names {
		os.Remove(name)
		delete(temps.names, name)
	}
}
