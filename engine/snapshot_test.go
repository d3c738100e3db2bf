package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
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
