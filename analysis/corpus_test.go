package analysis

import (
	"fmt"
	"slices"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
	"github.com/aepflow/aepflow/tree"
)

// TestCorpusDefault is §11.5 over the shared corpus: adp/default analysed
// with no error, at the expected lines (skipped without ../shared).
func TestCorpusDefault(t *testing.T) {
	root := testshared.Corpus(t, "tree")
	tr, ds := tree.Load(root)
	if ds.HasErrors() {
		t.Fatalf("corpus tree: %v", ds)
	}
	w := tr.Workflows["adp/default"]
	got := Analyze(tr, w, Options{Now: fixedNow}).Sorted()
	var codes []string
	for _, d := range got {
		codes = append(codes, fmt.Sprintf("%d %s", d.Pos.Line, d.Code))
	}
	want := []string{"132 unproducible_fact", "134 overlapping_guards", "194 overlapping_guards", "210 overlapping_guards", "215 unproducible_fact", "217 overlapping_guards", "217 overlapping_guards", "223 unproducible_fact"}
	if !slices.Equal(codes, want) || got.HasErrors() {
		t.Errorf("got %q, want %q\n%s", codes, want, lines(got))
	}
	m := tr.StepMaps["development/default"]
	got = Analyze(tr, w, Options{Now: fixedNow, Map: m}).Sorted()
	codes = nil
	for _, d := range got {
		codes = append(codes, fmt.Sprintf("%d %s", d.Pos.Line, d.Code))
	}
	want = []string{"125 no_step_produces_owed", "132 unproducible_fact", "134 overlapping_guards", "194 overlapping_guards", "210 overlapping_guards", "215 unproducible_fact", "217 overlapping_guards", "217 overlapping_guards", "223 unproducible_fact"}
	if !slices.Equal(codes, want) || got.HasErrors() {
		t.Errorf("with the map: got %q, want %q\n%s", codes, want, lines(got))
	}
}
