package graphviz

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestCacheChild is the process TestCacheInUserCacheDir starts: this test
// binary links go-graphviz exactly as the companion does, so its package
// initialisation is the one under test. Outside that role it does nothing.
func TestCacheChild(t *testing.T) {
	if os.Getenv("AEPFLOW_CACHE_CHILD") != "1" {
		return
	}
	svg, err := Render([]byte("digraph { a -> b }"), "svg")
	dir, why := CacheStatus()
	fmt.Printf("dir=%s\nwhy=%s\ntmp=%s\nsvg=%v\nerr=%v\n", dir, why, os.Getenv("TMPDIR"), bytes.Contains(svg, []byte("<svg")), err)
}

type child struct {
	dir, why, tmp string
	svg           bool
}

// runChild runs TestCacheChild in a new process with the given cache home
// and temporary directory.
func runChild(t *testing.T, cacheHome, tmp string) child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheChild$")
	cmd.Env = append(os.Environ(), "AEPFLOW_CACHE_CHILD=1", "XDG_CACHE_HOME="+cacheHome, "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var c child
	for _, line := range strings.Split(string(out), "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "dir":
			c.dir = v
		case "why":
			c.why = v
		case "tmp":
			c.tmp = v
		case "svg":
			c.svg = v == "true"
		case "err":
			if v != "<nil>" {
				t.Fatalf("child render failed: %s", v)
			}
		}
	}
	if !c.svg {
		t.Fatalf("child drew no SVG:\n%s", out)
	}
	if c.tmp != tmp {
		t.Errorf("TMPDIR after start = %q, want it restored to %q", c.tmp, tmp)
	}
	if _, err := os.Stat(filepath.Join(tmp, "go-graphviz")); err == nil {
		t.Errorf("go-graphviz made its cache in the temporary directory %s", tmp)
	}
	return c
}

// entry returns the one compiled module in the cache under home.
func entry(t *testing.T, home string) (path string, info os.FileInfo) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(home, "aepflow", "graphviz", "go-graphviz", "wazero-*", "*"))
	for _, m := range matches {
		if !strings.HasSuffix(m, ".aepflow-ok") {
			if path != "" {
				t.Fatalf("two cache entries: %s, %s", path, m)
			}
			path = m
		}
	}
	if path == "" {
		t.Fatalf("no cache entry under %s (found %v)", home, matches)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".aepflow-ok"); err != nil {
		t.Errorf("entry without its sidecar: %v", err)
	}
	return path, info
}

// sentinel is the modification time age gives a cache entry.
var sentinel = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// age sets the modification time of the entry at path to sentinel.
func age(t *testing.T, path string) {
	t.Helper()
	if err := os.Chtimes(path, sentinel, sentinel); err != nil {
		t.Fatal(err)
	}
}

// TestCacheInUserCacheDir runs real processes: the first one compiles into
// the user's cache directory, the next loads from it, a corrupt or
// unvouched entry is replaced, and an unusable directory means no cache,
// never a failure nor a fallback to the temporary directory.
func TestCacheInUserCacheDir(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Graphviz's WebAssembly module several times (seconds each)")
	}
	home, tmp := t.TempDir(), t.TempDir()
	want := filepath.Join(home, "aepflow", "graphviz")

	c := runChild(t, home, tmp)
	if c.dir != want || c.why != "" {
		t.Fatalf("cache dir %q (off: %q), want %q", c.dir, c.why, want)
	}
	path, _ := entry(t, home)
	original, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// Whether a process rewrote the entry is told by its modification
	// time, set to a sentinel before each run: a rewritten file may get the
	// freed inode of the one it replaced, so os.SameFile cannot tell.
	age(t, path)
	runChild(t, home, tmp)
	if _, again := entry(t, home); !again.ModTime().Equal(sentinel) {
		t.Error("a vouched entry was rewritten: the second process did not load it")
	}

	corrupt := append([]byte(nil), original...)
	corrupt[len(corrupt)/2] ^= 0xff
	if err := os.WriteFile(path, corrupt, 0o600); err != nil {
		t.Fatal(err)
	}
	age(t, path)
	runChild(t, home, tmp)
	if _, replaced := entry(t, home); replaced.ModTime().Equal(sentinel) {
		t.Error("a corrupt entry was kept")
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, original) {
		t.Errorf("the corrupt entry was not replaced by the compiled module (err %v)", err)
	}

	if err := os.Remove(path + ".aepflow-ok"); err != nil {
		t.Fatal(err)
	}
	age(t, path)
	runChild(t, home, tmp)
	if _, replaced := entry(t, home); replaced.ModTime().Equal(sentinel) {
		t.Error("an entry without a sidecar was kept")
	}

	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if c := runChild(t, notDir, tmp); c.dir != "" || c.why == "" {
		t.Errorf("cache home is a file: dir %q, why %q", c.dir, c.why)
	}

	odd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(odd, "aepflow", "graphviz", "go-graphviz", "wazero-v0-x", "0123"), 0o700); err != nil {
		t.Fatal(err)
	}
	if c := runChild(t, odd, tmp); c.dir != "" || !strings.Contains(c.why, "not a regular file") {
		t.Errorf("a directory where an entry belongs: dir %q, why %q", c.dir, c.why)
	}
}

// TestCacheRefusesWhatOthersCanWrite plants what another local user could:
// a cache directory any user may write into, and an entry they own (with a
// sidecar that matches it, which anyone can compute). The cache holds
// native code, so either means no cache, never a load. A link to a
// directory of the user's own is followed, and the cache is the real path.
func TestCacheRefusesWhatOthersCanWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles Graphviz's WebAssembly module several times (seconds each)")
	}
	if runtime.GOOS == "windows" {
		t.Skip("Unix owners and modes")
	}
	tmp := t.TempDir()

	open := t.TempDir()
	dir := filepath.Join(open, "aepflow", "graphviz")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if c := runChild(t, open, tmp); c.dir != "" || !strings.Contains(c.why, "writable by other users") {
		t.Errorf("a cache directory anyone can write: dir %q, why %q", c.dir, c.why)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(open, "aepflow"), 0o777); err != nil {
		t.Fatal(err)
	}
	if c := runChild(t, open, tmp); c.dir != "" || !strings.Contains(c.why, "writable by other users") {
		t.Errorf("a cache directory whose parent anyone can write: dir %q, why %q", c.dir, c.why)
	}

	real := t.TempDir()
	linked := t.TempDir()
	if err := os.MkdirAll(filepath.Join(real, "graphviz"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(linked, "aepflow")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if c := runChild(t, linked, tmp); c.dir != filepath.Join(real, "graphviz") || c.why != "" {
		t.Errorf("a link to the user's own directory: dir %q, why %q", c.dir, c.why)
	}

	// An entry another user owns (only root can make one to test with).
	if os.Geteuid() != 0 {
		t.Log("not root: an entry owned by another user is not tested")
		return
	}
	path, _ := entry(t, linked)
	for _, p := range []string{path, path + ".aepflow-ok"} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if c := runChild(t, linked, tmp); c.dir != "" || !strings.Contains(c.why, "owned by another user") {
		t.Errorf("an entry owned by another user: dir %q, why %q", c.dir, c.why)
	}
}
