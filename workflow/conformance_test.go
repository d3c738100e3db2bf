package workflow

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// sharedDir returns ../shared, or skips the test where it is absent.
func sharedDir(t testing.TB) string { return testshared.Dir(t) }

// TestCorpusWorkflow loads adp/default/2 from the shared corpus: it must be
// clean, and its layout must be the table of projection.md §3.
func TestCorpusWorkflow(t *testing.T) {
	file := filepath.Join(sharedDir(t), "corpus", "tree", "workflows", "development", "default.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	w, diags := Load("default.yaml", data)
	diags.Extend(w.Validate())
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d.Error())
	}
	if w.ID != "adp/default" || w.Version != 2 || w.Initial != "receive" || len(w.States) != 10 || len(w.Transitions) != 13 {
		t.Fatalf("header: got %s/%d initial %s, %d states, %d transitions", w.ID, w.Version, w.Initial, len(w.States), len(w.Transitions))
	}
	if got := w.GuardedCount(); got != 11 {
		t.Errorf("guarded transitions: got %d, want 11", got)
	}
	want := []struct {
		state              string
		disc, layer, colum int
	}{
		{"receive", 0, 0, 0}, {"specify", 1, 1, 0}, {"decompose", 3, 2, 0},
		{"establish_verifiers", 4, 3, 0}, {"implement", 5, 4, 0}, {"verify", 6, 5, 0},
		{"adversarial_verify", 7, 6, 0}, {"review", 8, 7, 0}, {"declined", 2, 8, 0},
		{"complete", 9, 8, 1},
	}
	l := ComputeLayout(w)
	for _, row := range want {
		got := [3]int{l.Disc(row.state), l.Layer(row.state), l.Column(row.state)}
		if got != [3]int{row.disc, row.layer, row.colum} {
			t.Errorf("%s: disc/layer/column = %v, want %v", row.state, got, [3]int{row.disc, row.layer, row.colum})
		}
	}
	if l.Depth != 9 {
		t.Errorf("depth %d, want 9", l.Depth)
	}
	wantClosing := [][2]string{{"adversarial_verify", "implement"}, {"review", "implement"}, {"verify", "implement"}}
	if got := l.Closing(); !slices.Equal(got, wantClosing) {
		t.Errorf("closing edges %v, want %v", got, wantClosing)
	}
	for _, tr := range w.Transitions {
		closing := slices.Contains(wantClosing, [2]string{tr.From, tr.To})
		if l.IsBack(tr.From, tr.To) != closing {
			t.Errorf("IsBack(%s, %s) = %v, want %v", tr.From, tr.To, !closing, closing)
		}
	}
}
