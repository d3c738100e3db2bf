package project_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/project/projecttest"
)

// FuzzReadRun: the run reader never panics and never writes, whatever
// state.json, the manifest, the snapshot and launch.json hold; a run it
// accepts hashes as its manifest says.
func FuzzReadRun(f *testing.F) {
	snap := snapshotBytes
	sha := projecttest.SHA256
	man := []byte(`{"format":"aep.driver-state-generation/1","generation":1,"snapshot_sha256":"` + sha(snap) + `","cursor_sha256":"` + sha(projecttest.Cursor) + `"}`)
	state := []byte(`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"` + sha(man) + `"}`)
	f.Add(state, man, snap, []byte(`{"root":"x"}`), true)
	f.Add([]byte(`{}`), man, snap, []byte(``), false)
	f.Add([]byte(`{"format":"aep.driver-state-current/1","generation":18446744073709551615,"manifest_sha256":""}`), man, snap, []byte(`[]`), true)
	f.Fuzz(func(t *testing.T, state, man, snap, launch []byte, withState bool) {
		dir := t.TempDir()
		run := filepath.Join(dir, "runs", "T", "1")
		if withState {
			projecttest.WriteFile(t, filepath.Join(run, "state.json"), state)
		}
		projecttest.WriteFile(t, filepath.Join(run, "generations", "1", "manifest.json"), man)
		projecttest.WriteFile(t, filepath.Join(run, "generations", "1", "snapshot.json"), snap)
		projecttest.WriteFile(t, filepath.Join(run, "generations", "1", "cursor.json"), projecttest.Cursor)
		projecttest.WriteFile(t, filepath.Join(run, "snapshot.json"), snap)
		if len(launch) > 0 {
			projecttest.WriteFile(t, filepath.Join(run, "launch.json"), launch)
		}
		before := projecttest.TreeHash(t, dir)
		r, err := project.ReadRun(run, project.RunID{Task: "T", N: 1})
		if projecttest.TreeHash(t, dir) != before {
			t.Fatal("ReadRun changed the run directory")
		}
		if err != nil {
			if r != nil {
				t.Errorf("a run and an error: %v", err)
			}
			return
		}
		if withState && (r.Layout != project.LayoutGeneration || sha(man) != manifestDigest(state)) {
			t.Errorf("accepted a generation whose manifest digest differs: %+v", r)
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
