package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/project/projecttest"
)

const snapshotJSON = `{"execution": "DOC-7.1", "task": "DOC-7", "state": "check",
 "entered": ["draft", "edit", "edit", "check"], "evidence": [], "events": [], "next_seq": 3}`

func TestReadSnapshot(t *testing.T) {
	ov, err := ReadSnapshot("s.json", []byte(snapshotJSON))
	if err != nil {
		t.Fatal(err)
	}
	if ov.Task != "DOC-7" || ov.Current != "check" || strings.Join(ov.Entered, ",") != "draft,edit,edit,check" || ov.Status != StatusUnknown || ov.Run != "" {
		t.Errorf("overlay = %+v", ov)
	}
	if got := ov.Line(); got != "task DOC-7 · in check · unknown" {
		t.Errorf("Line = %q", got)
	}
	// Every refusal of engine.DecodeSnapshot is a diagnostic in the
	// snapshot's file; only the empty state and the cap are render's own.
	full := func(old, new string) string { return strings.Replace(snapshotJSON, old, new, 1) }
	bad := map[string]struct{ in, code string }{
		"not json":        {`{`, ""},
		"array":           {`[]`, "wrong_type"},
		"unknown key":     {full(`"next_seq": 3`, `"next_seq": 3, "mood": 1`), "unknown_field"},
		"no state":        {full(`"state": "check",`, ""), "missing_field"},
		"no execution":    {full(`"execution": "DOC-7.1",`, ""), "missing_field"},
		"bad entered":     {full(`["draft", "edit", "edit", "check"]`, `"check"`), "wrong_type"},
		"bad evidence":    {full(`"evidence": []`, `"evidence": [{"state": "check"}]`), "missing_field"},
		"negative seq":    {full(`"next_seq": 3`, `"next_seq": -1`), ""},
		"empty":           {``, "wrong_type"},
		"empty state":     {full(`"state": "check"`, `"state": ""`), "-"},
		"oversized input": {strings.Repeat(" ", maxSnapshot+1), "-"},
	}
	for name, c := range bad {
		ov, err := ReadSnapshot("s.json", []byte(c.in))
		if err == nil {
			t.Errorf("%s: %+v, want an error", name, ov)
			continue
		}
		list, isList := diag.AsList(err)
		switch {
		case c.code == "-" && isList:
			t.Errorf("%s: %v, want render's own error", name, err)
		case c.code != "-" && (!isList || list[0].File != "s.json"):
			t.Errorf("%s: %v, want diagnostics in s.json", name, err)
		case c.code != "-" && c.code != "" && !strings.Contains(strings.Join(list.Codes(), ","), c.code):
			t.Errorf("%s: codes %v, want %s", name, list.Codes(), c.code)
		}
	}
}

// runProject makes a project in base whose run DOC-7/2 uses the generation
// layout (with unusable compatibility copies beside it) and DOC-7/1 the
// legacy layout, both written by package project's test helpers.
func runProject(t *testing.T) (base, proj string) {
	base = t.TempDir()
	proj = filepath.Join(base, ".engineering")
	projecttest.WriteFile(t, filepath.Join(proj, "project.yaml"), []byte("version: aep.project/5\n"))
	projecttest.WriteLegacy(t, filepath.Join(proj, "runs", "DOC-7", "1"), []byte(strings.Replace(snapshotJSON, `"check"`, `"edit"`, 1)))
	projecttest.WriteGeneration(t, filepath.Join(proj, "runs", "DOC-7", "2"), 4, []byte(snapshotJSON))
	return base, proj
}

// noEnv leaves AEP_PROJECT_DIR unset.
func noEnv(string) string { return "" }

func TestReadRun(t *testing.T) {
	base, _ := runProject(t)
	deep := filepath.Join(base, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	before := projecttest.TreeHash(t, base)
	ov, err := ReadRun(deep, "DOC-7/2", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if ov.Run != "DOC-7/2" || ov.Current != "check" || strings.Join(ov.Entered, ",") != "draft,edit,edit,check" || ov.Line() != "run DOC-7/2 · in check · unknown" {
		t.Errorf("generation layout: %+v", ov)
	}
	ov, err = ReadRun(base, "DOC-7/01", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if ov.Run != "DOC-7/1" || ov.Current != "edit" {
		t.Errorf("legacy layout: %+v", ov)
	}
	if projecttest.TreeHash(t, base) != before {
		t.Error("ReadRun changed the project")
	}
}

func TestReadRunRefusals(t *testing.T) {
	base, proj := runProject(t)
	cases := map[string]string{
		"DOC-7/9": "no run DOC-7/9",
		"DOC-7":   "not `<task>/<n>`",
		"DOC-7/0": "must be between 1 and 4294967295",
		"-x/1":    `task id "-x" is not valid`,
	}
	for id, want := range cases {
		if _, err := ReadRun(base, id, noEnv); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadRun(%q) = %v, want an error containing %q", id, err, want)
		}
	}
	run := filepath.Join(proj, "runs", "DOC-7", "2")
	projecttest.WriteFile(t, filepath.Join(run, "generations", "4", "cursor.json"), []byte("{}"))
	if _, err := ReadRun(base, "DOC-7/2", noEnv); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("tampered cursor: %v", err)
	}
	// A committed snapshot the engine cannot decode: its diagnostics, in
	// the generation's snapshot file.
	projecttest.WriteGeneration(t, run, 5, []byte(`{"task": "DOC-7", "state": "check", "entered": []}`))
	_, err := ReadRun(base, "DOC-7/2", noEnv)
	if list, ok := diag.AsList(err); !ok || list[0].File != filepath.Join(run, "generations", "5", "snapshot.json") {
		t.Errorf("undecodable snapshot: %v", err)
	}
	os.Remove(filepath.Join(proj, "runs", "DOC-7", "1", "cursor.json"))
	if _, err := ReadRun(base, "DOC-7/1", noEnv); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("half legacy layout: %v", err)
	}
	if _, err := ReadRun(base, "DOC-7/2", func(string) string { return ".eng2" }); err == nil || !strings.Contains(err.Error(), ".eng2") {
		t.Errorf("AEP_PROJECT_DIR: %v", err)
	}
	projecttest.WriteFile(t, filepath.Join(proj, "project.yaml"), []byte("version: aep.project/4\n"))
	if _, err := ReadRun(base, "DOC-7/2", noEnv); err == nil || !strings.Contains(err.Error(), "aep.project/5") {
		t.Errorf("old project version: %v", err)
	}
	if _, err := ReadRun(t.TempDir(), "DOC-7/2", noEnv); err == nil || !strings.Contains(err.Error(), "no project") {
		t.Errorf("no project: %v", err)
	}
}

// TestOverlayCheckPositions: a state the workflow lacks is blamed at the
// snapshot's value that names it (`state`, or the first `entered` item
// naming it), in the snapshot's file: the one --snapshot names, or the
// generation's snapshot of a run; it had no line or column.
func TestOverlayCheckPositions(t *testing.T) {
	w := load(t, filepath.Join("testdata", "loops.yaml"))
	data := "{\"execution\": \"DOC-7.1\", \"task\": \"DOC-7\",\n \"state\": \"nowhere\",\n \"entered\": [\"draft\", \"gone\", \"gone\"],\n \"evidence\": [], \"events\": [], \"next_seq\": 3}"
	ov, err := ReadSnapshot("s.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	d := ov.Check(w)
	want := []struct {
		pos  diag.Pos
		path string
	}{{diag.Pos{Line: 2, Column: 11}, "state"}, {diag.Pos{Line: 3, Column: 23}, "entered[1]"}}
	if len(d) != len(want) {
		t.Fatalf("Check = %v, want %d diagnostics", d, len(want))
	}
	for i, w := range want {
		if d[i].File != "s.json" || d[i].Pos != w.pos || d[i].Path != w.path {
			t.Errorf("diagnostic %d at %s:%s (%s), want s.json:%s (%s)", i, d[i].File, d[i].Pos, d[i].Path, w.pos, w.path)
		}
	}
	base, proj := runProject(t)
	run := filepath.Join(proj, "runs", "DOC-7", "2")
	projecttest.WriteGeneration(t, run, 5, []byte(data))
	ov, err = ReadRun(base, "DOC-7/2", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if d := ov.Check(w); len(d) != 2 || d[0].File != filepath.Join(run, "generations", "5", "snapshot.json") || d[0].Pos != want[0].pos {
		t.Errorf("a run's overlay: %v", d)
	}
}
