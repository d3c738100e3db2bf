package semdiff

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
	"github.com/aepflow/aepflow/tree"
)

// TestCorpusTree compares the reference tree with itself (every workflow
// and step map compared, none changed) and with a copy whose
// `specify → declined` edge is moved after `specify → decompose`: the
// header of adp/default/2 explains why that order matters, so the diff
// must report it as a behaviour change under the same version.
func TestCorpusTree(t *testing.T) {
	root := testshared.Corpus(t, "tree")
	old, ds := tree.LoadKinds(root, tree.KindWorkflow, tree.KindStepMap)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	same := CompareTrees("corpus", old, old)
	if same.Changed() || len(same.Unchanged) != len(old.Workflows)+len(old.StepMaps) {
		t.Fatalf("the corpus against itself: %+v", same)
	}

	file := filepath.Join(root, "workflows", "development", "default.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	declined := src[strings.Index(src, "  - from: specify\n    to: declined"):strings.Index(src, "  - from: specify\n    to: decompose")]
	moved := strings.Replace(src, declined, "", 1)
	at := strings.Index(moved, "  - from: decompose\n")
	moved = moved[:at] + declined + moved[at:]
	d, ds := tree.LoadDocument("moved.yaml", []byte(moved), tree.KindWorkflow)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	c := Workflows(old.Workflows["adp/default"], d.Workflow)
	if len(c.Transitions.Reordered) != 1 || c.Transitions.Reordered[0].From != "specify" ||
		!slices.Equal(c.Transitions.Reordered[0].New, []string{"decompose", "declined"}) || !c.UnversionedBehaviourChange {
		t.Fatalf("moving the declining edge: %+v", c.Transitions)
	}
	if len(c.Transitions.Added)+len(c.Transitions.Removed)+len(c.Transitions.Changed)+len(c.States.Changed) != 0 {
		t.Errorf("only the order changed: %+v", c)
	}
	var b bytes.Buffer
	if err := WriteText(&b, Single(c)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "transitions out of `specify` tried in another order: `declined, decompose` → `decompose, declined`") {
		t.Errorf("text:\n%s", b.String())
	}
}
