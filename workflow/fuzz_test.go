package workflow

import (
	"bytes"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

// FuzzLoadWorkflow feeds arbitrary bytes through Load, Validate and
// ComputeLayout: nothing may panic, every position must lie inside the
// input, and the layout must keep its invariants.
func FuzzLoadWorkflow(f *testing.F) {
	testkit.Seed(f, "testdata/ok/*.yaml", "testdata/ok/*.json", "testdata/err/*.yaml", "testdata/err/*.json")
	f.Add([]byte(genWorkflow(12)))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, diags := Load("f.yaml", data)
		checkPositions(t, data, diags)
		if _, again := Load("f.yaml", data); errorLines(again) != errorLines(diags) {
			t.Fatalf("Load is not deterministic:\n%s---\n%s", errorLines(diags), errorLines(again))
		}
		if w == nil || diags.HasErrors() {
			return
		}
		checkPositions(t, data, w.Validate())
		l := ComputeLayout(w)
		if len(l.Disc) != len(w.States) || len(l.Layer) != len(w.States) || len(l.Column) != len(w.States) {
			t.Fatalf("layout covers %d/%d/%d of %d states", len(l.Disc), len(l.Layer), len(l.Column), len(w.States))
		}
		if l.Depth > len(w.States) || (len(w.States) > 0) != (l.Depth > 0) {
			t.Fatalf("depth %d for %d states", l.Depth, len(w.States))
		}
		checkBackIsClosing(t, w, l)
	})
}

// checkPositions asserts that every positioned diagnostic points inside
// data: a line that exists (or the one just past a final newline) and a
// column from 1.
func checkPositions(t *testing.T, data []byte, diags diag.List) {
	t.Helper()
	lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + 1
	for _, d := range diags {
		if d.Code == "" || d.Message == "" {
			t.Fatalf("diagnostic without code or message: %+v", d)
		}
		if !d.Pos.IsValid() {
			continue
		}
		if d.Pos.Line > lines || d.Pos.Column < 1 {
			t.Fatalf("%s: position outside the %d-line input", d.Error(), lines)
		}
	}
}
