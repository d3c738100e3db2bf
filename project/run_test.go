package project_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/project/projecttest"
)

// snapshotBytes is a committed snapshot's bytes; the reader never decodes
// them.
var snapshotBytes = []byte(`{"execution":"DRIVE-1.1","task":"DRIVE-1","state":"establish_verifiers","entered":["receive"],"evidence":[],"events":[],"next_seq":1,"actor":"system"}` + "\n")

// buildRuns makes a project in dir whose runs of task DRIVE-1 are: 1 the
// generation layout, 2 the legacy layout, 6 a legacy snapshot.json alone,
// 7 a legacy cursor.json alone, 8 an empty directory. It returns the task's
// runs directory.
func buildRuns(t *testing.T, dir string) string {
	t.Helper()
	projecttest.WriteFile(t, filepath.Join(dir, project.DefaultEngineeringDir, "project.yaml"), []byte("version: aep.project/5\n"))
	runs := filepath.Join(dir, project.DefaultEngineeringDir, "runs", "DRIVE-1")
	projecttest.WriteGeneration(t, filepath.Join(runs, "1"), 1, snapshotBytes)
	projecttest.WriteLegacy(t, filepath.Join(runs, "2"), snapshotBytes)
	projecttest.WriteFile(t, filepath.Join(runs, "6", "snapshot.json"), snapshotBytes)
	projecttest.WriteFile(t, filepath.Join(runs, "7", "cursor.json"), projecttest.Cursor)
	projecttest.WriteFile(t, filepath.Join(runs, "8", ".keep"), nil)
	return runs
}

// TestReadRunCases covers both layouts and the reader's refusals; no read
// changes a byte of the
func TestReadRunCases(t *testing.T) {
	dir := t.TempDir()
	runs := buildRuns(t, dir)
	read := func(n string) (*project.Run, error) {
		id, _ := project.ParseRunID("DRIVE-1/" + n)
		before := projecttest.TreeHash(t, dir)
		r, err := project.ReadRun(filepath.Join(runs, n), id)
		if projecttest.TreeHash(t, dir) != before {
			t.Errorf("ReadRun changed the project")
		}
		return r, err
	}
	if r, err := read("1"); err != nil || r.Layout != project.LayoutGeneration || r.Generation != 1 || !strings.Contains(string(r.Snapshot), `"state":"establish_verifiers"`) ||
		r.SnapshotFile != filepath.Join(runs, "1", "generations", "1", "snapshot.json") || r.ID.String() != "DRIVE-1/1" || r.Launch != nil {
		t.Errorf("run 1: %+v, %v", r, err)
	}
	if r, err := read("2"); err != nil || r.Layout != project.LayoutLegacy || string(r.Cursor) != string(projecttest.Cursor) ||
		r.SnapshotFile != filepath.Join(runs, "2", "snapshot.json") || r.Generation != 0 {
		t.Errorf("run 2: %+v, %v", r, err)
	}
	expectErr := func(n, want string) {
		t.Helper()
		if _, err := read(n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run %s: %v, want an error with %q", n, err, want)
		}
	}
	expectErr("6", "incomplete state")
	expectErr("7", "incomplete state")
	expectErr("8", "no committed generation")
	expectErr("9", "no run DRIVE-1/9")
	projecttest.WriteFile(t, filepath.Join(runs, "10"), []byte("a file, not a directory"))
	expectErr("10", "no run DRIVE-1/10")
	var re *project.RunError
	if _, err := read("9"); !errors.As(err, &re) || !re.NoRun {
		t.Errorf("run 9: %v, want a RunError with NoRun", err)
	}
	if _, err := read("8"); !errors.As(err, &re) || re.NoRun {
		t.Errorf("run 8: %v, want a RunError without NoRun", err)
	}

	// state.json variants over a fresh copy of run 1.
	variants := map[string]struct{ state, want string }{
		"format":   {`{"format":"aep.driver-state-current/2","generation":1,"manifest_sha256":"x"}`, "format"},
		"missing":  {`{"format":"aep.driver-state-current/1","generation":1}`, "all required"},
		"negative": {`{"format":"aep.driver-state-current/1","generation":-1,"manifest_sha256":"x"}`, "state.json"},
		"gen":      {`{"format":"aep.driver-state-current/1","generation":2,"manifest_sha256":"x"}`, "generation 2"},
		"garbage":  {`not json`, "state.json"},
		"digest":   {`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"00"}`, "sha256 check failed"},
		// A pointer that names a field twice was read as its last value:
		// state.json has no digest, so it could name either generation.
		"twice": {`{"format":"aep.driver-state-current/1","generation":2,"manifest_sha256":"x","generation":1}`, "duplicate field `generation`"},
		// Keys are exact: encoding/json matched them in any case.
		"case":     {`{"FORMAT":"aep.driver-state-current/1","generation":1,"manifest_sha256":"x"}`, "all required"},
		"trailing": {`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"x"} {}`, "data after the JSON object"},
		"array":    {`[1]`, "not a JSON object"},
		// encoding/json's words ("cannot unmarshal number 1.0 into Go
		// value of type uint64") were printed as they were.
		"fraction":    {`{"format":"aep.driver-state-current/1","generation":1.0,"manifest_sha256":"x"}`, "field `generation` must be a whole number from 0 to 18446744073709551615, found the number 1.0"},
		"text":        {`{"format":"aep.driver-state-current/1","generation":"1","manifest_sha256":"x"}`, "field `generation` must be a whole number from 0 to 18446744073709551615, found the string \"1\""},
		"digest type": {`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":7}`, "field `manifest_sha256` must be a string, found the number 7"},
	}
	for name, v := range variants {
		d := filepath.Join(runs, "v"+name)
		projecttest.WriteGeneration(t, d, 1, snapshotBytes)
		projecttest.WriteFile(t, filepath.Join(d, "state.json"), []byte(v.state))
		if _, err := project.ReadRun(d, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), v.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, v.want)
		}
	}
	// A field's value is quoted once: encoding/json's error already held a
	// number that does not fit, which was then quoted again ("found the
	// number -1 -1").
	for state, want := range map[string]string{
		`{"generation":1.0}`:                  "field `generation` must be a whole number from 0 to 18446744073709551615, found the number 1.0",
		`{"generation":-1}`:                   "field `generation` must be a whole number from 0 to 18446744073709551615, found the number -1",
		`{"generation":18446744073709551616}`: "found the number 18446744073709551616",
		`{"generation":"1"}`:                  "found the string \"1\"",
		`{"generation":true}`:                 "found the bool true",
		`{"manifest_sha256":7}`:               "field `manifest_sha256` must be a string, found the number 7",
	} {
		d := filepath.Join(runs, "vonce")
		projecttest.WriteGeneration(t, d, 1, snapshotBytes)
		projecttest.WriteFile(t, filepath.Join(d, "state.json"), []byte(state))
		if _, err := project.ReadRun(d, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want an error ending %q", state, err, want)
		}
	}
	// A manifest of another generation, with a correct digest.
	d := filepath.Join(runs, "vmanifest")
	projecttest.WriteGeneration(t, d, 1, snapshotBytes)
	m := []byte(`{"format":"aep.driver-state-generation/1","generation":3,"snapshot_sha256":"a","cursor_sha256":"b"}`)
	projecttest.WriteFile(t, filepath.Join(d, "generations", "1", "manifest.json"), m)
	projecttest.WriteFile(t, filepath.Join(d, "state.json"), []byte(`{"format":"aep.driver-state-current/1","generation":1,"manifest_sha256":"`+projecttest.SHA256(m)+`"}`))
	if _, err := project.ReadRun(d, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), "generation 3 does not match") {
		t.Errorf("manifest generation: %v", err)
	}
	// A snapshot changed after its manifest was written.
	d = filepath.Join(runs, "vsnap")
	projecttest.WriteGeneration(t, d, 1, snapshotBytes)
	projecttest.WriteFile(t, filepath.Join(d, "generations", "1", "snapshot.json"), []byte("{}\n"))
	if _, err := project.ReadRun(d, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), "snapshot.json") {
		t.Errorf("changed snapshot: %v", err)
	}
	// A cursor changed after its manifest was written.
	d = filepath.Join(runs, "vcursor")
	projecttest.WriteGeneration(t, d, 1, snapshotBytes)
	projecttest.WriteFile(t, filepath.Join(d, "generations", "1", "cursor.json"), []byte("{}\n"))
	if _, err := project.ReadRun(d, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), "cursor_sha256") {
		t.Errorf("changed cursor: %v", err)
	}
}

// TestReadLaunch: launch.json is read as it is, never resolved; a broken
// one fails the run.
func TestReadLaunch(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(buildRuns(t, dir), "1")
	projecttest.WriteFile(t, filepath.Join(run, "launch.json"),
		[]byte(`{"task_document":"t.yaml","root":"/abs/tree","plugin_dirs":["p1","p2"],"map":"no/such-map","other":1}`))
	r, err := project.ReadRun(run, project.RunID{Task: "DRIVE-1", N: 1})
	if err != nil || r.Launch == nil {
		t.Fatalf("ReadRun = %+v, %v", r, err)
	}
	l := r.Launch
	if l.TaskDocument != "t.yaml" || l.Root != "/abs/tree" || strings.Join(l.PluginDirs, ",") != "p1,p2" || string(l.Map) != `"no/such-map"` {
		t.Errorf("launch = %+v", l)
	}
	// A key in another case is not the field (encoding/json took it for
	// one), and a field given twice is refused, not read as its last value.
	projecttest.WriteFile(t, filepath.Join(run, "launch.json"), []byte(`{"TASK_DOCUMENT":"nope.yaml","Root":"/x"}`))
	if r, err := project.ReadRun(run, project.RunID{Task: "DRIVE-1", N: 1}); err != nil || r.Launch == nil || r.Launch.TaskDocument != "" || r.Launch.Root != "" {
		t.Errorf("launch.json with other-case keys: %+v, %v", r, err)
	}
	projecttest.WriteFile(t, filepath.Join(run, "launch.json"), []byte(`{"root":"/a","root":"/b"}`))
	if _, err := project.ReadRun(run, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), "duplicate field `root`") {
		t.Errorf("launch.json with a field twice: %v", err)
	}
	projecttest.WriteFile(t, filepath.Join(run, "launch.json"), []byte(`{"task_document":`))
	if _, err := project.ReadRun(run, project.RunID{Task: "DRIVE-1", N: 1}); err == nil || !strings.Contains(err.Error(), "launch.json") {
		t.Errorf("broken launch.json: %v", err)
	}
}

// TestProjectReadRun: a run named by a user's id, bad ids refused first.
func TestProjectReadRun(t *testing.T) {
	dir := t.TempDir()
	buildRuns(t, dir)
	p, err := project.ReadProject(dir, project.DefaultEngineeringDir)
	if err != nil {
		t.Fatal(err)
	}
	before := projecttest.TreeHash(t, dir)
	r, err := p.ReadRun("DRIVE-1/01")
	if err != nil || r.ID != (project.RunID{Task: "DRIVE-1", N: 1}) || r.Dir != filepath.Join(p.Runs(), "DRIVE-1", "1") || r.Layout != project.LayoutGeneration {
		t.Errorf("ReadRun = %+v, %v", r, err)
	}
	for id, want := range map[string]string{
		"DRIVE-1":   "bad run id: run id \"DRIVE-1\" is not `<task>/<n>`",
		"DRIVE-1/0": "bad run id: run id \"DRIVE-1/0\": run number \"0\" must be between 1 and 4294967295",
		"-x/1":      "bad run id: run id \"-x/1\": task id \"-x\" is not valid",
		"DRIVE-1/9": "no run DRIVE-1/9",
	} {
		if _, err := p.ReadRun(id); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ReadRun(%q) = %v, want an error starting %q", id, err, want)
		}
	}
	if projecttest.TreeHash(t, dir) != before {
		t.Error("ReadRun changed the project")
	}
}
