package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const snapshotJSON = `{"execution": "DOC-7.1", "task": "DOC-7", "state": "check",
 "entered": ["draft", "edit", "edit", "check"], "evidence": [], "events": [], "next_seq": 3}`

func TestReadSnapshot(t *testing.T) {
	ov, err := ReadSnapshot([]byte(snapshotJSON))
	if err != nil {
		t.Fatal(err)
	}
	if ov.Task != "DOC-7" || ov.Current != "check" || strings.Join(ov.Entered, ",") != "draft,edit,edit,check" || ov.Status != StatusUnknown {
		t.Errorf("overlay = %+v", ov)
	}
	if got := ov.Line(); got != "task DOC-7 · in check · unknown" {
		t.Errorf("Line = %q", got)
	}
	bad := map[string]string{
		"not json":    `{`,
		"array":       `[]`,
		"unknown key": `{"task":"T","state":"a","entered":[],"mood":1}`,
		"no state":    `{"task":"T","entered":[]}`,
		"bad entered": `{"task":"T","state":"a","entered":"a"}`,
		"empty state": `{"task":"T","state":"","entered":[]}`,
	}
	for name, in := range bad {
		if _, err := ReadSnapshot([]byte(in)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// project makes a project whose run DOC-7/2 uses the generation layout (with
// stale compatibility copies beside it) and DOC-7/1 the legacy layout.
func project(t *testing.T) (base, proj string) {
	base = t.TempDir()
	proj = filepath.Join(base, ".engineering")
	write(t, filepath.Join(proj, "project.yaml"), "version: aep.project/5\n")
	legacy := filepath.Join(proj, "runs", "DOC-7", "1")
	write(t, filepath.Join(legacy, "snapshot.json"), strings.Replace(snapshotJSON, `"check"`, `"edit"`, 1))
	write(t, filepath.Join(legacy, "cursor.json"), "{}")
	run := filepath.Join(proj, "runs", "DOC-7", "2")
	gen := filepath.Join(run, "generations", "4")
	cursor := `{"opaque": true}`
	manifest := fmt.Sprintf(`{"format":"aep.driver-state-generation/1","generation":4,"snapshot_sha256":"%s","cursor_sha256":"%s"}`, sum(snapshotJSON), sum(cursor))
	write(t, filepath.Join(gen, "snapshot.json"), snapshotJSON)
	write(t, filepath.Join(gen, "cursor.json"), cursor)
	write(t, filepath.Join(gen, "manifest.json"), manifest)
	write(t, filepath.Join(run, "state.json"), fmt.Sprintf(`{"format":"aep.driver-state-current/1","generation":4,"manifest_sha256":"%s"}`, sum(manifest)))
	write(t, filepath.Join(run, "snapshot.json"), `{"stale": "compatibility copy, not read"}`)
	return base, proj
}

func TestReadRun(t *testing.T) {
	base, proj := project(t)
	deep := filepath.Join(base, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	found, err := FindProject(deep)
	if err != nil || found != proj {
		t.Fatalf("FindProject = %q, %v; want %q", found, err, proj)
	}
	ov, err := ReadRun(proj, "DOC-7/2")
	if err != nil {
		t.Fatal(err)
	}
	if ov.Run != "DOC-7/2" || ov.Current != "check" || ov.Line() != "run DOC-7/2 · in check · unknown" {
		t.Errorf("generation layout: %+v", ov)
	}
	ov, err = ReadRun(proj, "DOC-7/1")
	if err != nil {
		t.Fatal(err)
	}
	if ov.Current != "edit" {
		t.Errorf("legacy layout: %+v", ov)
	}
}

func TestReadRunRefusals(t *testing.T) {
	_, proj := project(t)
	cases := map[string]string{
		"DOC-7/9":  "no run DOC-7/9",
		"DOC-7":    "not `<task>/<n>`",
		"DOC-7/0":  "not a run number",
		"DOC-7/01": "not a run number",
		"-x/1":     "not a task id",
	}
	for id, want := range cases {
		if _, err := ReadRun(proj, id); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadRun(%q) = %v, want an error containing %q", id, err, want)
		}
	}
	run := filepath.Join(proj, "runs", "DOC-7", "2")
	write(t, filepath.Join(run, "generations", "4", "cursor.json"), "{}")
	if _, err := ReadRun(proj, "DOC-7/2"); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("tampered cursor: %v", err)
	}
	os.Remove(filepath.Join(proj, "runs", "DOC-7", "1", "cursor.json"))
	if _, err := ReadRun(proj, "DOC-7/1"); err == nil || !strings.Contains(err.Error(), "incomplete") {
		t.Errorf("half legacy layout: %v", err)
	}
	write(t, filepath.Join(proj, "project.yaml"), "version: aep.project/4\n")
	if _, err := FindProject(proj); err == nil || !strings.Contains(err.Error(), "aep.project/5") {
		t.Errorf("old project version: %v", err)
	}
	if _, err := FindProject(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no project") {
		t.Errorf("no project: %v", err)
	}
}
