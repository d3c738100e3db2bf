package tree

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFilesRefused puts a named pipe, a link to /dev/zero and a
// directory named like a document into a tree: each is refused with
// io_error naming what it is, without blocking on the pipe or reading the
// device until memory runs out; the regular document beside them loads.
func TestSpecialFilesRefused(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "workflows")
	if err := os.MkdirAll(filepath.Join(dir, "dir.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	ok := "id: t/ok\ntitle: OK\ninitial: a\nstates:\n  a: {title: A}\n  b: {title: B, terminal: true}\ntransitions:\n  - {from: a, to: b}\n"
	if err := os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, diags := Load(root)
	want := map[string]string{"pipe.yaml": "a named pipe", "zero.yaml": "a character device"}
	for _, d := range diags {
		name := filepath.Base(d.File)
		what, expected := want[name]
		if !expected || d.Code != CodeIOError || !strings.Contains(d.Message, "it is "+what+", not a regular file") {
			t.Errorf("unexpected diagnostic: %v", d)
			continue
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("%s was not refused", name)
	}
	if tr.Workflows["t/ok"] == nil {
		t.Errorf("the regular workflow beside them did not load")
	}
}
