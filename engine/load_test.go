package engine

import (
	"path/filepath"
	"testing"
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
