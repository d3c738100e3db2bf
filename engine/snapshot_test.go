package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
