package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStoreRefusesSpecialFiles: a planning file that is a named pipe, a
// link to /dev/zero, or larger than the bound (a sparse file, never
// written out) is refused without blocking or being read; so is a store
// path that is itself a named pipe.
func TestStoreRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "specification")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "pipe.md"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(sub, "zero.md")); err != nil {
		t.Fatal(err)
	}
	huge, err := os.Create(filepath.Join(sub, "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := huge.Truncate(MaxPlanningFile + 1); err != nil {
		t.Fatal(err)
	}
	huge.Close()
	g, diags := ReadStore(dir)
	if g != nil {
		t.Fatal("a store with unreadable files built a graph")
	}
	want := map[string]string{
		"pipe.md": "store_unreadable: cannot read a planning file: it is a named pipe, not a regular file",
		"zero.md": "store_unreadable: cannot read a planning file: it is a character device, not a regular file",
		"huge.md": "input_too_large: the planning file is larger than the limit of 4 MiB",
	}
	for _, d := range diags {
		if w := want[filepath.Base(d.File)]; w != d.Code+": "+d.Message {
			t.Errorf("%s: %s: %s; want %s", d.File, d.Code, d.Message, w)
		}
	}
	if len(diags) != len(want) {
		t.Errorf("%d diagnostics, want %d: %v", len(diags), len(want), diags)
	}

	fifo := filepath.Join(t.TempDir(), "planning")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if g, diags := ReadStore(fifo); g != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, "is not a directory") {
		t.Errorf("a named pipe as the store: %v %v", g, diags)
	}
}

// TestStoreBytesBounded: planning files each under the per-file bound
// cannot take the store past MaxStoreBytes (sparse files, never written
// out; the one past the bound is not read).
func TestStoreBytesBounded(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "story")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range MaxStoreBytes/MaxPlanningFile + 1 {
		f, err := os.Create(filepath.Join(sub, fmt.Sprintf("s%03d.md", i)))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(MaxPlanningFile); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	g, diags := ReadStore(dir)
	if g != nil {
		t.Fatal("an oversized store built a graph")
	}
	found := false
	for _, d := range diags {
		found = found || (d.Code == "input_too_large" && strings.Contains(d.Message, "exceed the limit of 64 MiB in all"))
	}
	if !found {
		t.Errorf("no store bound refusal in %v", diags)
	}
}

// TestStoreRefusesALinkedDirectory: a directory of the store that is a
// symbolic link was passed over in silence, so its planning files (the
// artifacts a guard reads) were missing. It is refused, naming the link.
func TestStoreRefusesALinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, "specification")); err != nil {
		t.Fatal(err)
	}
	g, diags := ReadStore(dir)
	if g != nil || len(diags) != 1 || diags[0].Code != "store_unreadable" ||
		!strings.Contains(diags[0].Message, "is a symbolic link to a directory, which is not followed") ||
		filepath.Base(diags[0].File) != "specification" {
		t.Errorf("a linked directory in the store: %v %v", g, diags)
	}
}

// TestStoreRefusesADanglingLink: a symbolic link at the top of the store
// that leads nowhere (a moved directory of planning files) was passed over
// in silence; it is refused, naming the link.
func TestStoreRefusesADanglingLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(t.TempDir(), "moved"), filepath.Join(dir, "specification")); err != nil {
		t.Fatal(err)
	}
	g, diags := ReadStore(dir)
	if g != nil || len(diags) != 1 || diags[0].Code != "store_unreadable" ||
		!strings.Contains(diags[0].Message, "is a symbolic link that leads nowhere") ||
		filepath.Base(diags[0].File) != "specification" {
		t.Errorf("a dangling link in the store: %v %v", g, diags)
	}
}

// TestStoreEntriesBounded: the store's directories were read whole,
// however many entries they held (os.ReadDir holds every name at once, on
// every consultation of the hook). Past storeEntryLimit entries in all the
// store is refused, input_too_large at its root; at the limit it is read.
func TestStoreEntriesBounded(t *testing.T) {
	defer func(limit int) { storeEntryLimit = limit }(storeEntryLimit)
	storeEntryLimit = 5
	dir := t.TempDir()
	for _, name := range []string{"story/notes.txt", "story/.hidden", "other/x.txt", "other/y.txt"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// story/, other/ and three of the four files: five entries.
	if err := os.Remove(filepath.Join(dir, "other", "y.txt")); err != nil {
		t.Fatal(err)
	}
	if g, diags := ReadStore(dir); g == nil || len(diags) != 0 {
		t.Fatalf("at the limit: %v %v", g, diags)
	}
	if err := os.WriteFile(filepath.Join(dir, "other", "y.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	g, diags := ReadStore(dir)
	if g != nil || len(diags) != 1 || diags[0].Code != "input_too_large" || diags[0].File != dir ||
		!strings.Contains(diags[0].Message, "more than 5 entries") {
		t.Errorf("past the limit: %v %v", g, diags)
	}
}
