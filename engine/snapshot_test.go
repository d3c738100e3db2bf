package engine

import (
	"bytes"
	"os"
	"testing"
)

func TestSnapshotRoundTrip(t *testing.T) {
	for _, name := range []string{"testdata/snapshot/basic.json"} {
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

func TestRestoreRefusals(t *testing.T) {
	plan := corpusPlan(t)
	data, _ := os.ReadFile("testdata/snapshot/basic.json")
	s, _ := DecodeSnapshot("basic.json", data)
	e, err := Restore(plan, driveStore(t, false), s, testNow)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.Clone().Transition()
	if err != nil || r.Kind != Moved || r.To != "implement" {
		t.Errorf("restored run 3 transition = %+v, %v", r, err)
	}
	if !bytes.Equal(e.Snapshot().Encode(), s.Encode()) {
		t.Errorf("restore then snapshot differs")
	}
	other := *s
	other.Task = "OTHER-1"
	if _, err := Restore(plan, nil, &other, testNow); err == nil {
		t.Error("restored a snapshot of another task")
	}
	other = *s
	other.State = "polishing"
	if _, err := Restore(plan, nil, &other, testNow); err == nil {
		t.Error("restored a snapshot at an unknown state")
	}
}
