package project_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/project/projecttest"
)

// TestRunSymlinksOutOfTheProjectRefused: runs/ itself, a task directory, a
// run directory or a file of a run that is a symbolic link leading out of
// the project is refused, naming the link; links that stay inside are
// followed.
func TestRunSymlinksOutOfTheProjectRefused(t *testing.T) {
	outside := t.TempDir()
	projecttest.WriteLegacy(t, filepath.Join(outside, "DRIVE-1", "1"), snapshotBytes)
	projecttest.WriteFile(t, filepath.Join(outside, "snapshot.json"), snapshotBytes)

	newProject := func(t *testing.T) (*project.Project, string) {
		dir := t.TempDir()
		projecttest.WriteFile(t, filepath.Join(dir, ".engineering", "project.yaml"), []byte("version: aep.project/5\n"))
		p, err := project.ReadProject(dir, ".engineering")
		if err != nil {
			t.Fatal(err)
		}
		return p, p.Runs()
	}
	link := func(t *testing.T, target, name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	wantRefused := func(t *testing.T, p *project.Project, id, linkName string) {
		t.Helper()
		_, err := p.ReadRun(id)
		if err == nil || !strings.Contains(err.Error(), "`"+linkName+"` is a symbolic link to `") || !strings.Contains(err.Error(), "outside") {
			t.Errorf("ReadRun(%s) = %v; want a refusal naming %s", id, err, linkName)
		}
	}

	t.Run("runs itself", func(t *testing.T) {
		p, runs := newProject(t)
		link(t, outside, runs)
		wantRefused(t, p, "DRIVE-1/1", runs)
	})
	t.Run("task directory", func(t *testing.T) {
		p, runs := newProject(t)
		link(t, filepath.Join(outside, "DRIVE-1"), filepath.Join(runs, "DRIVE-1"))
		wantRefused(t, p, "DRIVE-1/1", filepath.Join(runs, "DRIVE-1"))
	})
	t.Run("run directory", func(t *testing.T) {
		p, runs := newProject(t)
		link(t, filepath.Join(outside, "DRIVE-1", "1"), filepath.Join(runs, "DRIVE-1", "1"))
		wantRefused(t, p, "DRIVE-1/1", filepath.Join(runs, "DRIVE-1", "1"))
	})
	t.Run("file of a run", func(t *testing.T) {
		p, runs := newProject(t)
		run := filepath.Join(runs, "DRIVE-1", "1")
		projecttest.WriteFile(t, filepath.Join(run, "cursor.json"), projecttest.Cursor)
		link(t, filepath.Join(outside, "snapshot.json"), filepath.Join(run, "snapshot.json"))
		wantRefused(t, p, "DRIVE-1/1", filepath.Join(run, "snapshot.json"))
	})
	t.Run("inside is followed", func(t *testing.T) {
		p, runs := newProject(t)
		projecttest.WriteLegacy(t, filepath.Join(runs, "DRIVE-1", "1"), snapshotBytes)
		link(t, "1", filepath.Join(runs, "DRIVE-1", "2"))
		if r, err := p.ReadRun("DRIVE-1/2"); err != nil || string(r.Snapshot) != string(snapshotBytes) {
			t.Errorf("a link to a sibling run inside runs/: %v", err)
		}
	})
	t.Run("a file linked inside the run is followed", func(t *testing.T) {
		p, runs := newProject(t)
		run := filepath.Join(runs, "DRIVE-1", "1")
		projecttest.WriteFile(t, filepath.Join(run, "cursor.json"), projecttest.Cursor)
		projecttest.WriteFile(t, filepath.Join(run, "kept", "snapshot.json"), snapshotBytes)
		link(t, filepath.Join("kept", "snapshot.json"), filepath.Join(run, "snapshot.json"))
		if r, err := p.ReadRun("DRIVE-1/1"); err != nil || string(r.Snapshot) != string(snapshotBytes) {
			t.Errorf("a snapshot linked to a file inside the run: %v", err)
		}
	})
	t.Run("a project reached through a link", func(t *testing.T) {
		real := t.TempDir()
		projecttest.WriteFile(t, filepath.Join(real, ".engineering", "project.yaml"), []byte("version: aep.project/5\n"))
		projecttest.WriteLegacy(t, filepath.Join(real, ".engineering", "runs", "DRIVE-1", "1"), snapshotBytes)
		alias := filepath.Join(t.TempDir(), "alias")
		link(t, real, alias)
		p, err := project.ReadProject(alias, ".engineering")
		if err != nil {
			t.Fatal(err)
		}
		if r, err := p.ReadRun("DRIVE-1/1"); err != nil || string(r.Snapshot) != string(snapshotBytes) {
			t.Errorf("a run of a project whose own path is a link: %v", err)
		}
	})
}

// TestRunSpecialFilesRefused: a run file that is a named pipe or a link to
// /dev/zero is refused without blocking or reading it (the link as one
// leading out of the run, before its target is opened).
func TestRunSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "DRIVE-1", "1")
	projecttest.WriteFile(t, filepath.Join(run, "cursor.json"), projecttest.Cursor)
	if err := syscall.Mkfifo(filepath.Join(run, "snapshot.json"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(run, "launch.json")); err != nil {
		t.Fatal(err)
	}
	id, _ := project.ParseRunID("DRIVE-1/1")
	_, err := project.ReadRun(run, id)
	if err == nil || !strings.Contains(err.Error(), "launch.json` is a symbolic link to `/dev/zero`, outside the run directory") {
		t.Errorf("launch.json -> /dev/zero: %v", err)
	}
	os.Remove(filepath.Join(run, "launch.json"))
	_, err = project.ReadRun(run, id)
	if err == nil || !strings.Contains(err.Error(), "snapshot.json`: it is a named pipe, not a regular file") {
		t.Errorf("snapshot.json a named pipe: %v", err)
	}
}

// TestProjectFileSpecial: project.yaml as a named pipe is refused, not
// waited on.
func TestProjectFileSpecial(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".engineering"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, ".engineering", "project.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := project.ReadProject(dir, ".engineering")
	if err == nil || !strings.Contains(err.Error(), "it is a named pipe, not a regular file") {
		t.Errorf("ReadProject = %v", err)
	}
}

// TestRunRecordsBounded: state.json, the manifest and launch.json are a
// few hundred bytes a driver writes; they are read under the document
// bound (4 MiB), refused from their size, and decoding one allocates a
// small multiple of its size. launch.json's `map` and `plugin_dirs` were
// decoded into Go values from up to 64 MiB: 60 MB of `[{},{},…]` in `map`,
// never used, cost the hook 1.8 GB of memory, and of `["","",…]` in
// `plugin_dirs` 1.3 GB, enough to end it as a fatal error (exit 2 without
// a reason) on a small machine.
func TestRunRecordsBounded(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "DRIVE-1", "1")
	projecttest.WriteGeneration(t, run, 1, snapshotBytes)
	id, _ := project.ParseRunID("DRIVE-1/1")
	list := func(key, elem string, size int) []byte {
		n := (size - len(key) - 8) / (len(elem) + 1)
		return []byte(`{"` + key + `":[` + strings.Repeat(elem+",", n) + elem + `]}`)
	}
	// Just under the bound: read. `map` is kept as written, never decoded:
	// reading it allocates a small multiple of its size (the file, the
	// decoder's buffer and one copy), where decoding `[{},{},…]` into Go
	// values cost thirty times it. `plugin_dirs` is decoded, as the
	// reference's list of strings, under the bound.
	for _, key := range []string{"map", "plugin_dirs"} {
		elem := `{}`
		if key == "plugin_dirs" {
			elem = `""`
		}
		data := list(key, elem, project.MaxRunRecord-64)
		projecttest.WriteFile(t, filepath.Join(run, "launch.json"), data)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := project.ReadRun(run, id)
		runtime.ReadMemStats(&after)
		if err != nil || r.Launch == nil {
			t.Fatalf("%s: a launch.json of %d bytes: %v", key, len(data), err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; key == "map" && alloc > 8*uint64(len(data)) {
			t.Errorf("%s: reading a launch.json of %d bytes allocated %d bytes", key, len(data), alloc)
		}
	}
	// Over the bound: refused from the size, naming the file.
	for i, name := range []string{"launch.json", "state.json", filepath.Join("generations", "1", "manifest.json")} {
		d := filepath.Join(dir, "DRIVE-1", fmt.Sprint(2+i))
		projecttest.WriteGeneration(t, d, 1, snapshotBytes)
		projecttest.WriteFile(t, filepath.Join(d, name), list("x", "0", project.MaxRunRecord+1))
		_, err := project.ReadRun(d, id)
		if err == nil || !strings.Contains(err.Error(), name+"`: it is larger than the limit of 4 MiB") {
			t.Errorf("%s over the bound: %v", name, err)
		}
	}
}
