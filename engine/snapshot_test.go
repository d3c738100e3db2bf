package engine

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine/evidence"
)

func TestSnapshotRoundTrip(t *testing.T) {
	for _, name := range []string{filepath.Join("..", "testdata", "snapshot", "basic.json")} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		s, diags := DecodeSnapshot(name, data)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags)
		}
		once := s.Encode()
		s2, diags := DecodeSnapshot(name, once)
		if diags.HasErrors() {
			t.Fatalf("re-decode: %v\n%s", diags, once)
		}
		if twice := s2.Encode(); !bytes.Equal(once, twice) {
			t.Errorf("encode is not stable:\n%s\n%s", once, twice)
		}
		if len(s.Evidence) != 1 || s.Evidence[0].Record.Value.Uint("failed") != 1 || s.Actor != "system" {
			t.Errorf("decoded %+v", s)
		}
	}
}

// TestSnapshotFindingsTyped: a review restored from a snapshot (the
// transition hook's path) has typed findings: `blocking: "yes"`, `1` or
// null counted as not blocking and the review read as approved; each is
// refused at the value, and the snapshot with it. `blocking: true` is
// restored and blocks.
func TestSnapshotFindingsTyped(t *testing.T) {
	snap := func(blocking string) []byte {
		return []byte(`{"execution": "T-1.1", "task": "T-1", "state": "review", "entered": ["review"],
 "evidence": [{"state": "review", "record": {
    "id": "T-1.1.evidence.1", "observed_at": 1699747200000, "produced_at": 1699785600123,
    "producer": {"producer": "human", "id": "ada"},
    "value": {"kind": "review", "subject": "change", "subject_kind": "design", "reviewer": {"reviewer": "human"},
      "disposition": "approved", "findings": [{"severity": "high", "summary": "leaks the token", "blocking": ` + blocking + `}]}}}],
 "events": [], "next_seq": 1}`)
	}
	for _, c := range []struct{ blocking, found string }{{`"yes"`, "a string"}, {"1", "an integer"}, {"null", "null"}} {
		s, ds := DecodeSnapshot("s.json", snap(c.blocking))
		if s != nil || len(ds) != 1 {
			t.Fatalf("blocking: %s: snapshot %v, diagnostics %v", c.blocking, s != nil, ds)
		}
		d := ds[0]
		if d.Path != "evidence[0].record.value.findings[0].blocking" || d.Message != "`blocking` must be a boolean, found "+c.found || d.Pos.Line != 6 {
			t.Errorf("blocking: %s: %v (path %s)", c.blocking, d, d.Path)
		}
	}
	s, ds := DecodeSnapshot("s.json", snap("true"))
	if ds.HasErrors() || len(s.Evidence) != 1 {
		t.Fatalf("blocking: true refused: %v", ds)
	}
	if n := evidence.BlockingFindings(s.Evidence[0].Record.Value); n != 1 {
		t.Errorf("blocking findings %d, want 1", n)
	}
}

// TestRestoreUnknownStatePositioned: a snapshot at a state the workflow
// lacks is refused with a diagnostic at its `state` value (unknown_state,
// path `state`, a did-you-mean), for `evaluate --snapshot` to print with
// the line under it; the refusal's one-line message, which the hook
// answers with, is unchanged.
func TestRestoreUnknownStatePositioned(t *testing.T) {
	plan := miniPlan(t, miniTask)
	data := "{\"execution\": \"M-1.1\", \"task\": \"M-1\",\n \"state\": \"wrok\",\n \"entered\": [\"work\"], \"evidence\": [], \"events\": [], \"next_seq\": 1}"
	s, ds := DecodeSnapshot("s.json", []byte(data))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	_, err := Restore(plan, nil, s, testNow)
	var re *RestoreError
	if !errors.As(err, &re) {
		t.Fatalf("Restore = %v, want a *RestoreError", err)
	}
	if want := "the snapshot is at state `wrok`, which workflow `w/1` lacks"; re.Error() != want {
		t.Errorf("Error() = %q, want %q", re.Error(), want)
	}
	d := re.Diagnostic
	if d.Code != CodeUnknownTarget || d.File != "s.json" || d.Pos != (diag.Pos{Line: 2, Column: 11}) || d.Path != "state" ||
		d.Message != re.Message || d.Hint != "did you mean `work`? the workflow's states: done, work" {
		t.Errorf("diagnostic %v (path %q, hint %q)", d, d.Path, d.Hint)
	}
	// A snapshot of another task has no value to blame but the task's.
	s.Task, s.State = "M-2", "work"
	if _, err := Restore(plan, nil, s, testNow); !errors.As(err, &re) || re.Diagnostic.Code != "" {
		t.Errorf("another task: %v", err)
	}
}
