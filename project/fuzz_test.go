package project_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/project/projecttest"
)

// FuzzReadRun: the run reader never panics and never writes, whatever
// state.json, the manifest, the snapshot and launch.json hold; a run it
// accepts hashes as its manifest says.
//
// Each worker process builds one run directory and brings it to the input
// (removing state.json and launch.json when the input has none), instead of
// creating a temporary tree per input: creating six files and removing the
// tree held the target near 120 execs/s. Go's mutator changes one argument
// per input, so only the files whose bytes changed are rewritten; the
// others are read back and compared. The record of what is on disk is a
// copy (the fuzzer mutates its inputs in place) kept only after a call that
// ended with the tree unchanged. The tree hash is still taken before and after every
// read, so a write is caught wherever it lands.
func FuzzReadRun(f *testing.F) {
	snap := snapshotBytes
	sha := projecttest.SHA256
	man := []byte(`{"format":"aep.driver-state-generation/1","generation":1,"snapshot_sha256":"` + sha(snap) + `","cursor_sha256":"` + sha(projecttest.Cursor) + `"}`)
	state := []byte(`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"` + sha(man) + `"}`)
	f.Add(state, man, snap, []byte(`{"root":"x"}`), true)
	f.Add([]byte(`{}`), man, snap, []byte(``), false)
	f.Add([]byte(`{"format":"aep.driver-state-current/1","generation":18446744073709551615,"manifest_sha256":""}`), man, snap, []byte(`[]`), true)
	// A pointer naming a field twice, and launch.json keys in another case
	// (both read as a field by encoding/json).
	f.Add([]byte(`{"format":"aep.driver-state-current/1","generation":2,"manifest_sha256":"x","generation":1}`), man, snap, []byte(`{"TASK_DOCUMENT":"t","root":"a","root":"b"}`), true)
	dir := f.TempDir()
	run := filepath.Join(dir, "runs", "T", "1")
	onDisk := runFiles{}
	f.Fuzz(func(t *testing.T, state, man, snap, launch []byte, withState bool) {
		want := runFiles{
			"state.json":                  present(state, withState),
			"generations/1/manifest.json": man,
			"generations/1/snapshot.json": snap,
			"generations/1/cursor.json":   projecttest.Cursor,
			"snapshot.json":               snap,
			"launch.json":                 present(launch, len(launch) > 0),
		}
		trusted := onDisk
		onDisk = nil // until this call ends with the tree unchanged
		want.sync(t, run, trusted)
		before := projecttest.TreeHash(t, dir)
		r, err := project.ReadRun(run, project.RunID{Task: "T", N: 1})
		if projecttest.TreeHash(t, dir) != before {
			t.Fatal("ReadRun changed the run directory")
		}
		onDisk = want.clone() // the fuzzer mutates its inputs in place
		if err != nil {
			if r != nil {
				t.Errorf("a run and an error: %v", err)
			}
			return
		}
		if withState && (r.Layout != project.LayoutGeneration || sha(man) != manifestDigest(state)) {
			t.Errorf("accepted a generation whose manifest digest differs: %+v", r)
		}
		if !bytes.Equal(r.Snapshot, snap) {
			t.Errorf("read snapshot %q, the input holds %q", r.Snapshot, snap)
		}
		if !withState {
			t.Errorf("accepted a legacy run without cursor.json")
		}
	})
}

// manifestDigest decodes state.json's manifest digest as the reader does.
func manifestDigest(state []byte) string {
	var v struct {
		D string `json:"manifest_sha256"`
	}
	_ = json.Unmarshal(state, &v)
	return v.D
}

// runFiles maps a path below the run directory (slash-separated) to its
// bytes; nil means the file is absent.
type runFiles map[string][]byte

// present returns data, or nil (absent) when the file is not to exist.
func present(data []byte, exists bool) []byte {
	if !exists {
		return nil
	}
	if data == nil {
		return []byte{}
	}
	return data
}

// clone copies the contents, keeping absent files nil.
func (fs runFiles) clone() runFiles {
	c := make(runFiles, len(fs))
	for name, data := range fs {
		if data != nil {
			data = bytes.Clone(data)
		}
		c[name] = data
	}
	return c
}

// sync brings the run directory to fs, rewriting or removing only the
// files whose recorded contents (onDisk, nil when unknown) differ. The
// files it skips are read back and compared, so a stale record fails the
// test instead of feeding the reader other bytes than the input's.
func (fs runFiles) sync(t *testing.T, run string, onDisk runFiles) {
	t.Helper()
	for name, data := range fs {
		file := filepath.Join(run, filepath.FromSlash(name))
		old, known := onDisk[name]
		if known && (old == nil) == (data == nil) && bytes.Equal(old, data) {
			got, err := os.ReadFile(file)
			if (data == nil) != errors.Is(err, os.ErrNotExist) || !bytes.Equal(got, data) {
				t.Fatalf("%s on disk is not what the last call left (%v)", name, err)
			}
			continue
		}
		if data != nil {
			projecttest.WriteFile(t, file, data)
		} else if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

// FuzzReadProject: the project reader never panics, whatever project.yaml
// holds; every error is one line (the hook prints it as its one line on
// stderr), and a project it accepts has its engineering directory, task
// and planning store where engine.md §7.1 puts them.
func FuzzReadProject(f *testing.F) {
	f.Add([]byte("version: aep.project/5\nprotocols: ../tree\nprotocol: fx/1\nprofile: fx.standard\n"))
	f.Add([]byte("version: aep.project/5\ntask: /abs/task.yaml\nstore: {git: {}}\nprinciples: p\nprofiles: q\n"))
	f.Add([]byte("version: aep.project/5\nprotocols: git+https://example.com/x\nstore: sqlite\n"))
	f.Add([]byte("version: aep.project/4\n"))
	f.Add([]byte("version: [a]\nprotocols: {x: 1}\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("a: &a [*a]\n"))
	dir := f.TempDir()
	eng := filepath.Join(dir, ".engineering")
	if err := os.MkdirAll(eng, 0o755); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(eng, "project.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := project.ReadProject(dir, ".engineering")
		if err != nil {
			if msg := err.Error(); bytes.ContainsAny([]byte(msg), "\r\n") {
				t.Fatalf("an error of more than one line: %q", msg)
			}
			return
		}
		if p.Eng != eng || p.Task == "" || p.Store != filepath.Join(eng, "planning") {
			t.Fatalf("project %+v: want its engineering directory %s, a task and the planning store", p, eng)
		}
		for _, e := range []error{p.RootErr, p.StoreErr} {
			if e != nil && bytes.ContainsAny([]byte(e.Error()), "\r\n") {
				t.Fatalf("an error of more than one line: %q", e.Error())
			}
		}
	})
}
