package instruct

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

var update = flag.Bool("update", false, "rewrite golden files")

// loadTree loads the tree at dir and fails t on any problem.
func loadTree(t testing.TB, dir string) *tree.Tree {
	t.Helper()
	tr, ds := tree.Load(dir)
	if ds.HasErrors() {
		t.Fatalf("%s does not load:\n%s", dir, ds)
	}
	return tr
}

// principlesOf returns every principle of tr.
func principlesOf(tr *tree.Tree) []*protocol.Principle {
	var out []*protocol.Principle
	for _, id := range tr.PrincipleIDs() {
		out = append(out, tr.Principles[id])
	}
	return out
}

// workflowOf finds the workflow ref in tr.
func workflowOf(t testing.TB, tr *tree.Tree, ref string) *workflow.Workflow {
	t.Helper()
	r, err := ident.ParseRef(ident.Dotted, ref)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tr.Workflow(r)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// document builds the Markdown of workflow ref of the tree at dir, with the
// tree's step map mapID ("" for none).
func document(t testing.TB, dir, ref, mapID string) []byte {
	t.Helper()
	tr := loadTree(t, dir)
	w := workflowOf(t, tr, ref)
	var m *stepmap.Map
	if mapID != "" {
		m = tr.StepMaps[mapID]
		if m == nil {
			t.Fatalf("no step map %s in %s", mapID, dir)
		}
	}
	return Markdown(Build(w, principlesOf(tr), m))
}

func TestWorkedExample(t *testing.T) {
	dir := filepath.Join("testdata", "triage")
	testkit.Golden(t, filepath.Join("testdata", "triage.md.golden"), document(t, dir, "demo/triage", ""), *update)
	testkit.Golden(t, filepath.Join("testdata", "triage-map.md.golden"), document(t, dir, "demo/triage", "demo/triage-steps"), *update)
}
