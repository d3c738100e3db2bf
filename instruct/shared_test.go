package instruct

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aepflow/aepflow/engine"
)

// The acceptance of instructions.md §12 on the shared tree (§12.2's facts,
// our bytes as goldens, the mutation of §12.1.5) is in package
// conformance (instruct_corpus_test.go). This file holds the obligations
// this package prints (engine.Obligations) on the cases principle.

// TestObligationsOfAPrinciple holds engine.md §4.6's ids and order on the
// cases principle (keyed sets in key order, then the explicit obligations,
// a repeated id numbered) and the descriptions of the explicit ones.
func TestObligationsOfAPrinciple(t *testing.T) {
	tr := loadTree(t, filepath.Join("testdata", "cases"))
	var got []string
	for _, o := range engine.Obligations(tr.Principles["cases"]) {
		line := o.ID + " " + timingText(o.Timing)
		if o.Description != nil {
			line += " (" + *o.Description + ")"
		}
		got = append(got, line)
	}
	want := []string{
		"cases/always always",
		"cases/during-mitigation during phase mitigation",
		"cases/sign_off before state review (Someone signs the work off before review.)",
		"cases/watch during state work",
		"cases/ghost before state nowhere",
		"cases/sign_off-2 before phase completion",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("obligations:\n got %q\nwant %q", got, want)
	}
}
