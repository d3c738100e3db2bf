package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path → body) under a temporary root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const guardPrinciple = "id: guard\ntitle: Guard\nverification: [test-runner]\n"

// TestLoadTreeUsesTheTree: the engine reads the four directories through
// package tree, so drivers/ and artifacts/lifecycles/ are never read, a
// duplicate is the tree's duplicate_<kind>, and the first declaration is
// the one kept.
func TestLoadTreeUsesTheTree(t *testing.T) {
	root := writeTree(t, map[string]string{
		"drivers/broken.yaml":              "format: [not a step map\n",
		"artifacts/lifecycles/broken.yaml": ": :\n",
		"principles/a.yaml":                guardPrinciple,
		"principles/b.yaml":                guardPrinciple,
	})
	tr, diags := LoadTree(root)
	if got := diags.Codes(); len(got) != 1 || got[0] != "duplicate_principle" {
		t.Fatalf("codes = %v, want only duplicate_principle", got)
	}
	if len(tr.Principles) != 1 || filepath.Base(tr.Principles["guard"].File) != "a.yaml" {
		t.Errorf("principles = %+v, want the one of a.yaml", tr.Principles)
	}
	if len(tr.StepMaps) != 0 || len(tr.Lifecycles) != 0 {
		t.Errorf("step maps %v, lifecycles %v: neither directory may be read", tr.StepMapIDs(), tr.LifecycleKinds())
	}
}

// TestLoadTreeExtra: a project's own directory shares the tree's registry;
// an extra directory of a kind the engine does not load is skipped; the
// tree's root is the root given.
func TestLoadTreeExtra(t *testing.T) {
	root := writeTree(t, map[string]string{
		"principles/a.yaml": guardPrinciple,
		"drivers/x.yaml":    "format: [unclosed\n",
	})
	local := writeTree(t, map[string]string{
		"guard.yaml": guardPrinciple,
		"other.yaml": "id: other\ntitle: Other\nverification: [test-runner]\n",
	})
	tr, diags := LoadTree(root, ExtraDir{Kind: "principles", Dir: local}, ExtraDir{Kind: "drivers", Dir: local})
	if got := diags.Codes(); len(got) != 1 || got[0] != "duplicate_principle" {
		t.Fatalf("codes = %v, want only duplicate_principle (drivers/ must not be read)", got)
	}
	if tr.Root != root || len(tr.StepMaps) != 0 {
		t.Errorf("tree root = %q, step maps = %v", tr.Root, tr.StepMapIDs())
	}
	if got := strings.Join(tr.PrincipleIDs(), " "); got != "guard other" {
		t.Errorf("tree principles = %q", got)
	}
	if filepath.Dir(tr.Principles["guard"].File) != filepath.Join(root, "principles") {
		t.Errorf("guard came from %s, want the tree's own", tr.Principles["guard"].File)
	}
}
