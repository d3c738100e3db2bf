package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/workflow"
)

func TestLoadCorpusTree(t *testing.T) {
	root := filepath.Join(sharedDir(t), "corpus", "tree")
	docs, diags := LoadDocuments(root)
	for _, d := range diags {
		t.Errorf("%v", d)
	}
	if len(docs.Protocols) != 2 || len(docs.Profiles) != 3 || len(docs.Workflows) != 1 || len(docs.Principles) != 16 {
		t.Fatalf("loaded %d protocols, %d profiles, %d workflows, %d principles", len(docs.Protocols), len(docs.Profiles), len(docs.Workflows), len(docs.Principles))
	}
	var ids []string
	for _, p := range docs.Principles {
		if p.ID == "test-driven" {
			for _, o := range p.Obligations {
				ids = append(ids, o.ID)
			}
		}
	}
	if len(ids) != 2 || ids[0] != "test-driven/before-completion" || ids[1] != "test-driven/before-implementation" {
		t.Errorf("test-driven obligations = %v", ids)
	}
}

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

// TestLoadDocumentsUsesTheTree: the engine reads the four directories
// through package tree, so drivers/ is never read, a duplicate is the
// tree's duplicate_<kind>, and the first declaration is the one kept.
func TestLoadDocumentsUsesTheTree(t *testing.T) {
	root := writeTree(t, map[string]string{
		"drivers/broken.yaml":              "format: [not a step map\n",
		"artifacts/lifecycles/broken.yaml": ": :\n",
		"principles/a.yaml":                guardPrinciple,
		"principles/b.yaml":                guardPrinciple,
	})
	docs, diags := LoadDocuments(root)
	if got := diags.Codes(); len(got) != 1 || got[0] != "duplicate_principle" {
		t.Fatalf("codes = %v, want only duplicate_principle", got)
	}
	if len(docs.Principles) != 1 || filepath.Base(docs.Principles[0].File) != "a.yaml" {
		t.Errorf("principles = %+v, want the one of a.yaml", docs.Principles)
	}
}

// TestLoadDocumentsExtra: a project's own directory shares the tree's
// registry.
func TestLoadDocumentsExtra(t *testing.T) {
	root := writeTree(t, map[string]string{"principles/a.yaml": guardPrinciple})
	local := writeTree(t, map[string]string{
		"guard.yaml": guardPrinciple,
		"other.yaml": "id: other\ntitle: Other\nverification: [test-runner]\n",
	})
	docs, diags := LoadDocumentsExtra(root, ExtraDir{Kind: "principles", Dir: local}, ExtraDir{Kind: "drivers", Dir: local})
	if got := diags.Codes(); len(got) != 1 || got[0] != "duplicate_principle" {
		t.Fatalf("codes = %v, want only duplicate_principle", got)
	}
	var ids []string
	for _, p := range docs.Principles {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, " ") != "guard other" {
		t.Errorf("principles = %v", ids)
	}
}

// TestLoadTreeExtra: the tree returned is the one the documents came from,
// extra directories included, and drivers/ is not read.
func TestLoadTreeExtra(t *testing.T) {
	root := writeTree(t, map[string]string{
		"principles/a.yaml": guardPrinciple,
		"drivers/x.yaml":    "format: [unclosed\n",
	})
	local := writeTree(t, map[string]string{"other.yaml": "id: other\ntitle: Other\nverification: [test-runner]\n"})
	docs, tr, diags := LoadTreeExtra(root, ExtraDir{Kind: "principles", Dir: local})
	if diags.HasErrors() {
		t.Fatalf("diags = %v (drivers/ must not be read)", diags)
	}
	if tr.Root != root || len(tr.StepMaps) != 0 {
		t.Errorf("tree root = %q, step maps = %v", tr.Root, tr.StepMapIDs())
	}
	if got := strings.Join(tr.PrincipleIDs(), " "); got != "guard other" || len(docs.Principles) != 2 {
		t.Errorf("tree principles = %q, documents hold %d", got, len(docs.Principles))
	}
}

// TestLoadDocumentDecodesOneFile: one file through the shared decoders;
// a shape error keeps it out.
func TestLoadDocumentDecodesOneFile(t *testing.T) {
	docs := &Documents{}
	var diags diag.List
	LoadDocument(docs, "principles", "g.yaml", []byte(guardPrinciple), &diags)
	LoadDocument(docs, "principles", "bad.yaml", []byte("id: bad\ntitle: Bad\ncolour: blue\n"), &diags)
	LoadDocument(docs, "drivers", "x.yaml", []byte("format: x\n"), &diags)
	if len(docs.Principles) != 1 || docs.Principles[0].ID != "guard" || len(docs.Principles[0].Verification) != 1 {
		t.Errorf("principles = %+v", docs.Principles)
	}
	if got := diags.Codes(); len(got) != 1 || got[0] != "unknown_field" {
		t.Errorf("codes = %v, want unknown_field for bad.yaml", got)
	}
}

// TestParseHorizonIsTheSharedRule: the engine's exported ParseHorizon
// answers as the workflow decoder's rule does.
func TestParseHorizonIsTheSharedRule(t *testing.T) {
	for _, s := range []string{"7d", " 7 D ", "30", "0d", "3651", "-1d", "x"} {
		got, ok := ParseHorizon(s)
		want, wok := workflow.ParseHorizon(s)
		if got != int(want) || ok != wok {
			t.Errorf("ParseHorizon(%q) = %d, %v; workflow says %d, %v", s, got, ok, want, wok)
		}
	}
}
