package instruct

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aepflow/aepflow/engine"
)

// The acceptance of instructions.md §12 on the shared tree (§12.2's facts,
// our bytes as goldens, the mutation of §12.1.5) is in package
// conformance (instruct_corpus_test.go). This file holds the obligation ids
// against the engine's.

// TestObligationIDsAgreeWithTheEngine checks that the ids this package
// gives obligations are the engine's (engine.md §4.6), on every tree the
// tests use.
func TestObligationIDsAgreeWithTheEngine(t *testing.T) {
	dirs := []string{filepath.Join("testdata", "triage"), filepath.Join("testdata", "cases")}
	if shared, err := sharedTreeIfPresent(); err == nil {
		dirs = append(dirs, shared)
	}
	for _, dir := range dirs {
		tr := loadTree(t, dir)
		for _, id := range tr.PrincipleIDs() {
			var want, got []string
			for _, o := range engine.Obligations(tr.Principles[id]) {
				want = append(want, o.ID+" "+o.Timing.String())
			}
			for _, o := range obligationsOf(tr.Principles[id]) {
				got = append(got, o.id+" "+o.timing.String())
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: principle %s: ids %v, the engine's %v", dir, id, got, want)
			}
		}
	}
}

// TestObligationsOfAPrinciple holds engine.md §4.6's ids and order on the
// cases principle (keyed sets in key order, then the explicit obligations,
// a repeated id numbered) and the descriptions of the explicit ones.
func TestObligationsOfAPrinciple(t *testing.T) {
	tr := loadTree(t, filepath.Join("testdata", "cases"))
	var got []string
	for _, o := range obligationsOf(tr.Principles["cases"]) {
		line := o.id + " " + timingText(o.timing)
		if o.description != nil {
			line += " (" + *o.description + ")"
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
