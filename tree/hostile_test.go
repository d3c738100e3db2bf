package tree

import (
	"fmt"
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

// TestTreeBytesBounded: many files under the per-file bound still cannot
// take the tree past MaxTreeBytes; the first file over it is refused once
// (sparse files: nothing is written out, and none is read). As its
// refusal says, no file after it is read: small broken files after it, in
// the same directory and in a later one, were read and reported.
func TestTreeBytesBounded(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := MaxTreeBytes/(4<<20) + 3
	for i := range n {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("w%03d.yaml", i)))
		if err != nil {
			t.Fatal(err)
		}
		// A little under the per-file bound: the budget keeps room for a
		// small file after the first one refused.
		if err := f.Truncate(4<<20 - 64<<10); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	broken := []string{filepath.Join(dir, "x-broken.yaml"), filepath.Join(root, "workflows", "zz", "broken.yaml"), filepath.Join(root, "profiles", "broken.yaml")}
	for _, p := range broken {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("id: [broken\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A load that keeps no bytes (the hook's) is held to the same budget.
	for _, opts := range []Options{{}, {NoSources: true}} {
		_, diags := LoadKindsWith(root, opts, Kinds...)
		var over []string
		for _, d := range diags {
			if strings.Contains(d.Message, "exceed the limit of 64 MiB in all") {
				over = append(over, filepath.Base(d.File))
			}
		}
		if len(over) != 1 || over[0] != fmt.Sprintf("w%03d.yaml", MaxTreeBytes/(4<<20)) {
			t.Errorf("%+v: over-budget refusals: %v; want one, at the file past 64 MiB", opts, over)
		}
		for _, d := range diags {
			if filepath.Base(d.File) == "broken.yaml" || filepath.Base(d.File) == "x-broken.yaml" {
				t.Errorf("%+v: a file after the budget was spent was read: %v", opts, d)
			}
		}
	}
}

// TestRootANamedPipe: a root that is a named pipe loads nothing and its
// empty_tree hint never opens it (which would block).
func TestRootANamedPipe(t *testing.T) {
	root := filepath.Join(t.TempDir(), "tree")
	if err := syscall.Mkfifo(root, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tr, _ := Load(root)
	if ds := tr.RequireDocuments(); len(ds) != 1 || ds[0].Code != CodeEmptyTree {
		t.Errorf("got %v", ds)
	}
}

// TestLinkedDirectoryRefused: a symbolic link to a directory under a tree
// directory was passed over in silence, so a principle kept behind it (a
// shared directory linked in) was missing from the tree and the engine
// answered without it. It is refused, naming the link; the walk goes on, and
// a link to a regular document is still read.
func TestLinkedDirectoryRefused(t *testing.T) {
	root := t.TempDir()
	shared := filepath.Join(root, "..", filepath.Base(root)+"-shared")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	wf := "id: t/%s\ntitle: W\ninitial: a\nstates:\n  a: {title: A}\n  b: {title: B, terminal: true}\ntransitions:\n  - {from: a, to: b}\n"
	if err := os.WriteFile(filepath.Join(shared, "hidden.yaml"), fmt.Appendf(nil, wf, "hidden"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, link := range []struct{ name, target string }{{"shared", shared}, {"loop", ".."}, {"z.yaml", filepath.Join(shared, "hidden.yaml")}} {
		if err := os.Symlink(link.target, filepath.Join(dir, link.name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "zz.yaml"), fmt.Appendf(nil, wf, "after"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, diags := Load(root)
	var refused []string
	for _, d := range diags {
		if d.Code != CodeIOError || !strings.Contains(d.Message, "symbolic link, which is not followed") {
			t.Errorf("unexpected diagnostic: %v", d)
			continue
		}
		refused = append(refused, filepath.Base(d.File))
	}
	if strings.Join(refused, ",") != "loop,shared" {
		t.Errorf("refused %v; want the links loop and shared", refused)
	}
	if tr.Workflows["t/hidden"] == nil || tr.Workflows["t/after"] == nil {
		t.Errorf("the linked document or the one after the links was not read: %v", tr.WorkflowIDs())
	}
}

// TestDirectoryOfTooManyEntries: a tree's directory was walked whole,
// however many entries it held (an agent can write into the tree that
// governs it: a million files cost every command time and memory in
// proportion, the names all held at once). Past dirEntryLimit entries in
// all (files and directories, documents or not, at any depth) the walk
// stops: input_too_large at the directory, none of its documents read,
// and the tree is not called empty. At the limit it is read as before.
func TestDirectoryOfTooManyEntries(t *testing.T) {
	defer func(limit int) { dirEntryLimit = limit }(dirEntryLimit)
	dirEntryLimit = 6
	root := t.TempDir()
	wf := "id: t/w%d\ntitle: W\ninitial: a\nstates:\n  a: {title: A, terminal: true}\n"
	write := func(name string, i int) {
		path := filepath.Join(root, "workflows", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, fmt.Appendf(nil, wf, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range []string{"a.yaml", "b.yaml", "notes.txt", "sub/c.yaml", "sub/d.txt"} {
		write(name, i) // 6 entries: 5 files and sub/
	}
	tr, ds := Load(root)
	if ds.HasErrors() || len(tr.Files) != 3 {
		t.Fatalf("at the limit: %d files, %v", len(tr.Files), ds)
	}
	write("sub/deeper/e.txt", 9) // 8 entries
	tr, ds = Load(root)
	if len(ds) != 1 || ds[0].Code != CodeInputTooLarge || ds[0].File != filepath.Join(root, "workflows") || !strings.Contains(ds[0].Message, "more than 6 entries") {
		t.Fatalf("past the limit: %v", ds)
	}
	if len(tr.Files) != 0 {
		t.Errorf("past the limit %d documents were read", len(tr.Files))
	}
	if ds := tr.RequireDocuments(); len(ds) != 0 {
		t.Errorf("a directory that could not be walked made the tree empty: %v", ds)
	}
}
