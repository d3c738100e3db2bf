// Package wasmcache puts go-graphviz's WebAssembly compilation cache in the
// user's cache directory, os.UserCacheDir()/aepflow/graphviz, so that only
// the first render on a machine pays the compilation (about half a second);
// later processes load the compiled module in milliseconds.
//
// go-graphviz v0.2.10 compiles its module in its package init and keeps the
// cache under os.TempDir()/go-graphviz: a directory any local user may have
// created first (wazero's cache holds native code, and its documentation
// asks the embedder to "safeguard this directory from external changes"),
// and one that a reboot empties. Nothing but the TMPDIR variable reaches
// that init, so this package sets TMPDIR in its own init and Done puts it
// back once go-graphviz has started. That ordering is the language's: a
// program initialises its packages, among those whose imports are ready, in
// the order of their import paths (the Go specification, "Package
// initialization"), and this package's path sorts before go-graphviz's
// while everything it imports is imported by go-graphviz too.
// TestCacheInUserCacheDir checks it on a real process.
//
// Fail safe: an unusable cache directory (none known, not creatable, not
// writable) means no cache, never a failure. wazero fails, and go-graphviz's
// init panics, when a cache entry cannot be read or does not deserialize, so
// the cache is only trusted entry by entry: after go-graphviz started, Done
// records each entry's size and CRC-32C in a sidecar file; before it starts,
// an entry whose sidecar is missing or does not match is deleted (wazero
// then compiles again and rewrites it), and when one cannot be deleted, or
// anything in the directory is not what wazero writes, the cache is off.
//
// It is not a general cache: it only prepares go-graphviz's.
package wasmcache

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/aepflow/aepflow/internal/fsio"
)

const (
	// tmpEnv is the variable os.TempDir reads on Unix.
	tmpEnv = "TMPDIR"
	// libDir is the directory go-graphviz makes under os.TempDir().
	libDir = "go-graphviz"
	// sidecarSuffix names the file holding an entry's size and checksum.
	sidecarSuffix = ".aepflow-ok"
	// maxEntry bounds what is read to check an entry (the compiled module
	// is about 6 MiB).
	maxEntry = 256 << 20
)

// state is what init found, for Done.
var state struct {
	prepared bool
	dir      string // the cache directory in use; "" when the cache is off
	why      string // why the cache is off
	tmp      string // TMPDIR before init
	hadTmp   bool
	vouched  []os.FileInfo // the entries found sound before go-graphviz started
}

func init() { prepare() }

// prepare points TMPDIR at the cache directory, or, when it is unusable, at
// a path under which go-graphviz cannot create its directory, so that it
// runs without a cache.
func prepare() {
	state.tmp, state.hadTmp = os.LookupEnv(tmpEnv)
	state.prepared = true
	dir, err := usableDir()
	if err == nil {
		err = checkEntries(filepath.Join(dir, libDir))
	}
	if err != nil {
		state.why = err.Error()
		os.Setenv(tmpEnv, os.DevNull) // "/dev/null/go-graphviz" can never be made
		return
	}
	state.dir = dir
	os.Setenv(tmpEnv, dir)
}

// usableDir returns the cache directory, created (0700) if need be, once a
// file could be created and removed in it.
func usableDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, "aepflow", "graphviz")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	// The cache holds native code that wazero runs: a directory another
	// user can write into, or could have made first, is no cache. The
	// check is made on the path with its links resolved, and that path is
	// the one go-graphviz is given, so a link swapped later changes
	// nothing.
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return "", err
	}
	if err := safePath(dir); err != nil {
		return "", err
	}
	probe, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return "", err
	}
	probe.Close()
	if err := os.Remove(probe.Name()); err != nil {
		return "", err
	}
	return dir, nil
}

// checkEntries deletes the entries under root (root/wazero-*/<key>) whose
// sidecar does not vouch for them. It fails when root holds anything that
// is not wazero's, or an entry cannot be deleted.
func checkEntries(root string) error {
	if info, err := os.Lstat(root); errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	} else if err := ownedDir(root, info); err != nil {
		return err
	}
	versions, err := os.ReadDir(root)
	if err != nil {
		return err
	}
	for _, v := range versions {
		vdir := filepath.Join(root, v.Name())
		if !v.IsDir() || !strings.HasPrefix(v.Name(), "wazero-") {
			return fmt.Errorf("%s is not a wazero cache directory", vdir)
		}
		if info, err := os.Lstat(vdir); err != nil {
			return err
		} else if err := ownedDir(vdir, info); err != nil {
			return err
		}
		files, err := os.ReadDir(vdir)
		if err != nil {
			return err
		}
		for _, f := range files {
			name := f.Name()
			path := filepath.Join(vdir, name)
			switch {
			case strings.HasSuffix(name, sidecarSuffix), strings.HasSuffix(name, ".tmp"), strings.HasPrefix(name, "."):
				// sidecars, and temporary files (wazero's and ours) that
				// wazero never reads
			case !f.Type().IsRegular():
				return fmt.Errorf("%s is not a regular file", path)
			case !ownedFile(path):
				return fmt.Errorf("%s is owned by another user, or writable by one", path)
			case vouched(path):
				if info, err := os.Stat(path); err == nil {
					state.vouched = append(state.vouched, info)
				}
			default:
				if err := os.Remove(path); err != nil {
					return err
				}
				if err := os.Remove(path + sidecarSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
	}
	return nil
}

// ownedDir checks that the directory at path (info from Lstat: a link is
// no directory) is this user's and writable by no one else.
func ownedDir(path string, info os.FileInfo) error {
	if !info.IsDir() {
		return fmt.Errorf("%s is not a directory", path)
	}
	shared, err := ownedSafely(path, info, false)
	if err == nil && shared {
		err = fmt.Errorf("%s is writable by other users (mode %v)", path, info.Mode().Perm())
	}
	return err
}

// ownedFile reports whether the file at path is this user's and writable
// by no one else.
func ownedFile(path string) bool {
	info, err := os.Lstat(path)
	if err != nil {
		return false
	}
	_, err = ownedSafely(path, info, false)
	return err == nil
}

// vouched reports whether the sidecar of the entry at path matches it.
func vouched(path string) bool {
	want, err := fsio.ReadFile(path+sidecarSuffix, 256)
	if err != nil {
		return false
	}
	got, err := fingerprint(path)
	return err == nil && string(want) == got
}

// fingerprint is the sidecar's content for the entry at path. The entry is
// streamed through the checksum, not held.
func fingerprint(path string) (string, error) {
	f, err := fsio.Open(path, maxEntry)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(h, f)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("size %d crc32c %08x\n", n, h.Sum32()), nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Done restores TMPDIR and vouches for the entries go-graphviz's start has
// just read or written. Package graphviz calls it from its init, which runs
// after go-graphviz's. Errors only mean the next process recompiles.
func Done() {
	if !state.prepared {
		return
	}
	if state.hadTmp {
		os.Setenv(tmpEnv, state.tmp)
	} else {
		os.Unsetenv(tmpEnv)
	}
	if state.dir == "" {
		return
	}
	entries, _ := filepath.Glob(filepath.Join(state.dir, libDir, "wazero-*", "*"))
	for _, path := range entries {
		name := filepath.Base(path)
		if strings.HasSuffix(name, sidecarSuffix) || strings.HasSuffix(name, ".tmp") || strings.HasPrefix(name, ".") || unchanged(path) {
			continue
		}
		if fp, err := fingerprint(path); err == nil {
			_ = fsio.WriteFile(path+sidecarSuffix, []byte(fp), fsio.WriteOptions{Perm: 0o600})
		}
	}
}

// unchanged reports whether the entry at path is one prepare vouched for,
// untouched since (go-graphviz loaded it rather than rewrote it).
func unchanged(path string) bool {
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	for _, v := range state.vouched {
		if os.SameFile(v, info) && v.Size() == info.Size() && v.ModTime().Equal(info.ModTime()) {
			return true
		}
	}
	return false
}

// Status says where the cache is, or why there is none: for tests and
// diagnostics.
func Status() (dir, whyOff string) { return state.dir, state.why }
