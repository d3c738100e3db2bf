package instruct

import (
	"bytes"
	"flag"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/instructcheck"
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

// principlesOf returns every principle of tr, in id order.
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

// model builds the model of workflow ref of the tree at dir, with the
// tree's step map mapID ("" for none).
func model(t testing.TB, dir, ref, mapID string) *Document {
	t.Helper()
	tr := loadTree(t, dir)
	w := workflowOf(t, tr, ref)
	var m *stepmap.Map
	if mapID != "" {
		if m = tr.StepMaps[mapID]; m == nil {
			t.Fatalf("no step map %s in %s", mapID, dir)
		}
	}
	return Build(w, principlesOf(tr), m)
}

// golden is one golden document and what it is generated from.
type golden struct {
	file, tree, ref, mapID string
}

// goldens lists the worked example (§11), with and without its map, and
// the structural cases (§12.1.6): a terminal state with a move out,
// obligations landing nowhere (an elsewhere list), every policy display,
// capability order, a guard with a backtick, the block-marker rule.
var goldens = []golden{
	{"triage.md.golden", "triage", "demo/triage", ""},
	{"triage-map.md.golden", "triage", "demo/triage", "demo/triage-steps"},
	{"cases.md.golden", "cases", "demo/cases", ""},
	{"cases-b.md.golden", "cases", "demo/cases-b", ""},
}

func TestGoldens(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			got := Markdown(model(t, filepath.Join("testdata", g.tree), g.ref, g.mapID))
			testkit.Golden(t, filepath.Join("testdata", g.file), got, *update)
			checkTextRules(t, got)
		})
	}
}

// TestIndexGolden writes the index of the cases tree: the document of
// `demo/cases-b` comes first (path order), though its id sorts second.
func TestIndexGolden(t *testing.T) {
	tr := loadTree(t, filepath.Join("testdata", "cases"))
	var entries []Entry
	for _, id := range tr.WorkflowIDs() {
		entries = append(entries, EntryOf(Build(tr.Workflows[id], principlesOf(tr), nil)))
	}
	if entries[0].Ref != "demo/cases/3" {
		t.Fatalf("the ids should sort demo/cases first, got %v", entries)
	}
	got := Index(entries, RegenerateCommand("testdata/cases", "docs/instructions"))
	testkit.Golden(t, filepath.Join("testdata", "index.md.golden"), got, *update)
	checkTextRules(t, got)
	first := bytes.Index(got, []byte("[`demo/cases-b.md`]"))
	second := bytes.Index(got, []byte("[`demo/cases.md`]"))
	if first < 0 || second < 0 || first > second {
		t.Errorf("the index does not list demo/cases-b.md before demo/cases.md:\n%s", got)
	}
}

// TestGoldensPassTheChecker runs ../shared/tools/instruct_facts.py
// --strict on every golden: the markers must be read back and every
// consistency check must pass.
func TestGoldensPassTheChecker(t *testing.T) {
	checker := instructcheck.Script(t)
	for _, name := range append(goldenNames(), "index.md.golden") {
		t.Run(name, func(t *testing.T) {
			facts := instructcheck.Run(t, checker, filepath.Join("testdata", name))
			want := "instructions"
			if name == "index.md.golden" {
				want = "index"
			}
			if facts.Kind != want {
				t.Errorf("the checker reads a %q document, want %q", facts.Kind, want)
			}
		})
	}
}

// TestExamplesPassTheChecker runs the checker on the example tree's
// committed instructions (examples/instructions, kept current by
// cmd/aepflow's TestExamplesAreCurrent): every document aepflow writes
// passes --strict, not only the goldens.
func TestExamplesPassTheChecker(t *testing.T) {
	checker := instructcheck.Script(t)
	files, err := filepath.Glob(filepath.Join("..", "examples", "instructions", "*", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example instructions (%v)", err)
	}
	for _, file := range append(files, filepath.Join("..", "examples", "instructions", "README.md")) {
		want := "instructions"
		if filepath.Base(file) == "README.md" {
			want = "index"
		}
		if facts := instructcheck.Run(t, checker, file); facts.Kind != want {
			t.Errorf("%s: the checker reads a %q document, want %q", file, facts.Kind, want)
		}
	}
}

func goldenNames() []string {
	var names []string
	for _, g := range goldens {
		names = append(names, g.file)
	}
	return names
}

// TestWorkedExampleFacts holds §11's expected facts against the checker's
// reading of the worked example's document.
func TestWorkedExampleFacts(t *testing.T) {
	facts := instructcheck.Run(t, instructcheck.Script(t), filepath.Join("testdata", "triage.md.golden"))
	want := instructcheck.Facts{
		Kind: "instructions", Reference: "demo/triage/1", Title: "Triage a defect report",
		Counts: map[string]int{"states": 5, "transitions": 5, "principles": 2},
	}
	if facts.Kind != want.Kind || facts.Reference != want.Reference || facts.Title != want.Title || !maps.Equal(facts.Counts, want.Counts) {
		t.Errorf("header facts = %+v, want %+v", facts, want)
	}
	var order []string
	for _, s := range facts.States {
		order = append(order, s.ID)
	}
	if got := strings.Join(order, " "); got != "intake dropped fix check done" {
		t.Errorf("state order = %s", got)
	}
	check := facts.States[3]
	if len(check.Obligations.During) != 1 || check.Obligations.During[0].ID != "demo-tests/during-verification" || len(check.Obligations.Before) != 0 {
		t.Errorf("check's obligations = %+v", check.Obligations)
	}
	if g := facts.States[0].Transitions; len(g) != 2 || g[0].Guard == nil || *g[0].Guard != "report.duplicate" || g[1].Guard != nil {
		t.Errorf("intake's moves = %+v", g)
	}
	var refs []string
	for _, p := range facts.Principles {
		refs = append(refs, p.Reference)
	}
	if got := strings.Join(refs, " "); got != "demo-secrets/1 demo-tests/1" {
		t.Errorf("principles = %s", got)
	}
}

// TestNoPrincipleBinds: a tree whose principles bind nothing says so, and
// counts none.
func TestNoPrincipleBinds(t *testing.T) {
	tr := loadTree(t, filepath.Join("testdata", "cases"))
	w := workflowOf(t, tr, "demo/cases-b")
	got := string(Markdown(Build(w, []*protocol.Principle{tr.Principles["cases-allow"], tr.Principles["cases-nowhere"]}, nil)))
	if !strings.Contains(got, "· 0 principles bind it\n") {
		t.Errorf("the facts line does not count 0 principles:\n%s", got)
	}
	if !strings.Contains(got, "\nNo principle of this tree reaches this workflow.\n") || strings.Contains(got, "### `cases") {
		t.Errorf("the principles section is not the no-principle paragraph alone:\n%s", got)
	}
	checkTextRules(t, []byte(got))
}

// TestBindings holds §3.2 on the cases tree: which principles bind, in
// which order, and why the others do not.
func TestBindings(t *testing.T) {
	doc := model(t, filepath.Join("testdata", "cases"), "demo/cases", "")
	var refs []string
	for _, p := range doc.Principles {
		refs = append(refs, p.Ref)
	}
	// `-` sorts before `/`; allow-only and nowhere-only principles are absent.
	if got := strings.Join(refs, " "); got != "cases-deny/1 cases-evidence/1 cases/1" {
		t.Errorf("binding principles = %s", got)
	}
	cases := doc.Principles[2]
	if got := strings.Join(cases.Elsewhere, ", "); got != "before state nowhere, during phase mitigation" {
		t.Errorf("elsewhere = %s", got)
	}
	var ids []string
	for _, o := range cases.Obligations {
		ids = append(ids, o.ID)
	}
	if got := strings.Join(ids, " "); got != "cases/always cases/sign_off cases/watch cases/sign_off-2" {
		t.Errorf("bound obligations = %s", got)
	}
	for _, s := range doc.States {
		for _, o := range append(s.Before, s.During...) {
			if o.ID == "cases/always" {
				t.Errorf("the always obligation is listed under state %s", s.ID)
			}
		}
	}
	if v := cases.Verification; len(v) != 2 || v[0].Landing == nil || v[1].Landing != nil {
		t.Errorf("verification landings = %+v", v)
	}
}

// checkTextRules fails t for every breach of the text rules TextProblems
// finds in doc.
func checkTextRules(t *testing.T, doc []byte) {
	t.Helper()
	for _, p := range TextProblems(doc) {
		t.Error(p)
	}
}
