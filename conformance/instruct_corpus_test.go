package conformance

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/instruct"
	"github.com/aepflow/aepflow/internal/instructcheck"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
)

// The acceptance of instructions.md §12 on the corpus tree, through the
// package's API (the command line's cases are in instruct_test.go):
// §12.2's expected facts for `adp/default`, read from the model and back
// from our bytes by the shared checker, our own bytes as goldens, and the
// mutation of §12.1.5. They were package instruct's TestSharedTree* tests.

func init() {
	register(
		Case{Name: "instruct/corpus-facts", Shared: true, Check: corpusInstructFacts},
		Case{Name: "instruct/corpus-checker", Shared: true, Check: corpusInstructChecker},
		Case{Name: "instruct/corpus-goldens", Shared: true, Check: corpusInstructGoldens},
		Case{Name: "instruct/corpus-mutation", Shared: true, Check: corpusInstructMutation},
	)
}

// model builds the instructions model of workflow ref of the tree at dir,
// with the tree's step map mapID ("" for none), as `aepflow instruct` does.
func model(t testing.TB, dir, ref, mapID string) *instruct.Document {
	t.Helper()
	tr, ds := tree.Load(dir)
	if ds.HasErrors() {
		t.Fatalf("%s does not load:\n%s", dir, ds)
	}
	r, err := ident.ParseRef(ident.Dotted, ref)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tr.Workflow(r)
	if err != nil {
		t.Fatal(err)
	}
	var m *stepmap.Map
	if mapID != "" {
		if m = tr.StepMaps[mapID]; m == nil {
			t.Fatalf("no step map %s in %s", mapID, dir)
		}
	}
	var principles []*protocol.Principle
	for _, id := range tr.PrincipleIDs() {
		principles = append(principles, tr.Principles[id])
	}
	return instruct.Build(w, principles, m)
}

// stateFacts are the comparable facts of one state (§12.3).
type stateFacts struct {
	ID       string
	Requires []string
	Moves    []string // `<to> <guard>`, `<to> —` when unguarded
	Before   []string // `<id> — <label>`
	During   []string
	Steps    []string // `<kind> — <label>`
}

// docFacts are the comparable facts of a document.
type docFacts struct {
	Reference  string
	Counts     [3]int // states, transitions, principles
	States     []stateFacts
	Principles []string
}

// factsOfModel reads the facts from the model.
func factsOfModel(doc *instruct.Document) docFacts {
	f := docFacts{Reference: doc.Ref, Counts: [3]int{len(doc.States), doc.Transitions, len(doc.Principles)}}
	for _, s := range doc.States {
		sf := stateFacts{ID: s.ID, Requires: s.Requires}
		for _, m := range s.Moves {
			sf.Moves = append(sf.Moves, m.To+" "+orDash(m.Guard))
		}
		for _, o := range s.Before {
			sf.Before = append(sf.Before, o.ID+" — "+o.Label)
		}
		for _, o := range s.During {
			sf.During = append(sf.During, o.ID+" — "+o.Label)
		}
		for _, st := range s.Steps {
			sf.Steps = append(sf.Steps, st.Kind+" — "+st.Label)
		}
		f.States = append(f.States, sf)
	}
	for _, p := range doc.Principles {
		f.Principles = append(f.Principles, p.Ref)
	}
	return f
}

// factsOfChecker reads the same facts from the checker's output.
func factsOfChecker(c instructcheck.Facts) docFacts {
	f := docFacts{Reference: c.Reference, Counts: [3]int{c.Counts["states"], c.Counts["transitions"], c.Counts["principles"]}}
	for _, s := range c.States {
		sf := stateFacts{ID: s.ID, Requires: nilIfEmpty(s.Requires)}
		for _, m := range s.Transitions {
			g := ""
			if m.Guard != nil {
				g = *m.Guard
			}
			sf.Moves = append(sf.Moves, m.To+" "+orDash(g))
		}
		for _, o := range s.Obligations.Before {
			sf.Before = append(sf.Before, o.ID+" — "+o.Label)
		}
		for _, o := range s.Obligations.During {
			sf.During = append(sf.During, o.ID+" — "+o.Label)
		}
		for _, st := range s.Steps {
			sf.Steps = append(sf.Steps, st.Kind+" — "+st.Label)
		}
		f.States = append(f.States, sf)
	}
	for _, p := range c.Principles {
		f.Principles = append(f.Principles, p.Reference)
	}
	return f
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// expectedADP is §12.2 for `adp/default` on the shared tree.
func expectedADP() docFacts {
	disjunction := "(tests.unit.failed > 0 or tests.contract.failed > 0 or static_analysis.errors > 0)"
	titles := map[string]string{
		"approval-gates": "Approval gates", "clean-room": "Clean-room reimplementation",
		"contract-testing": "Contract testing", "design-by-contract": "Design by contract",
		"ess-conformance-coverage":  "Complete conformance for the independently declared ESS selection",
		"ess-conformance-v2":        "Exact ESS evidence with explicit coverage",
		"incremental-decomposition": "Incremental decomposition", "invariant-checking": "Invariant checking",
		"property-based-testing": "Property-based testing", "provenance-tracking": "Provenance tracking",
		"reversible-changes": "Reversible changes", "spec-driven": "Specification before implementation",
		"static-analysis": "Static analysis", "test-driven": "Test-driven development",
	}
	lines := func(slug string, ids ...string) []string {
		var out []string
		for _, id := range ids {
			out = append(out, id+"/"+slug+" — "+titles[id])
		}
		return out
	}
	completion := lines("before-completion", "approval-gates", "clean-room", "contract-testing", "design-by-contract",
		"ess-conformance-coverage", "ess-conformance-v2", "invariant-checking", "property-based-testing",
		"provenance-tracking", "reversible-changes", "spec-driven", "static-analysis", "test-driven")
	return docFacts{
		Reference: "adp/default/2",
		Counts:    [3]int{10, 13, 15},
		States: []stateFacts{
			{ID: "receive", Moves: []string{"specify —"}},
			{ID: "specify", Moves: []string{"declined specification.declines_the_request", "decompose artifact.specification.exists"}},
			{ID: "decompose", Moves: []string{"establish_verifiers —"}},
			{ID: "establish_verifiers", Moves: []string{"implement test.exists"}},
			{ID: "implement", Moves: []string{"verify diff.exists"},
				Before: lines("before-implementation", "clean-room", "design-by-contract", "incremental-decomposition", "spec-driven", "test-driven")},
			{ID: "verify", Moves: []string{
				"adversarial_verify (tests.unit.failed == 0 and tests.contract.failed == 0 and static_analysis.errors == 0)",
				"implement " + disjunction}},
			{ID: "adversarial_verify", Requires: []string{"evidence test_result from test-runner (independent)"},
				Moves: []string{"implement " + disjunction, "review evidence.missing == 0"}},
			{ID: "review", Moves: []string{"complete review.approved", "implement review.changes_requested", "declined review.rejected"},
				Before: lines("before-review", "contract-testing")},
			{ID: "declined", Before: completion},
			{ID: "complete", Before: completion},
		},
		Principles: []string{"approval-gates/1", "clean-room/1", "contract-testing/1", "design-by-contract/1",
			"ess-conformance-coverage/1", "ess-conformance-v2/1", "incremental-decomposition/1", "invariant-checking/1",
			"least-privilege/1", "property-based-testing/1", "provenance-tracking/1", "reversible-changes/1",
			"spec-driven/1", "static-analysis/1", "test-driven/1"},
	}
}

// expectedSteps is §12.1.4: the kinds of the steps `development/default`
// adds, per state; complete is named with no steps, declined not named.
var expectedSteps = map[string][]string{
	"receive": {"llm"}, "specify": {"llm"}, "decompose": {"llm"},
	"establish_verifiers": {"llm", "command", "operator"}, "implement": {"llm", "command"},
	"verify":             {"command", "command", "command", "command", "command", "command"},
	"adversarial_verify": {"llm", "command", "command", "command"}, "review": {"operator"},
}

// corpusInstructFacts holds the model's facts for adp/default to §12.2.
func corpusInstructFacts(t *testing.T, e *Env) {
	dir := e.SharedPath("corpus", "tree")
	doc := model(t, dir, "adp/default", "")
	if got, want := factsOfModel(doc), expectedADP(); !reflect.DeepEqual(got, want) {
		t.Errorf("model facts differ from §12.2:\n got %+v\nwant %+v", got, want)
	}
	// The contract-testing block of §12.2: before completion with three
	// predicate lines, then before review.
	for _, p := range doc.Principles {
		if p.Ref != "contract-testing/1" {
			continue
		}
		if len(p.Obligations) != 2 || strings.Join(p.Obligations[0].Landing.States, " ") != "complete declined" ||
			len(p.Obligations[0].Requires) != 3 || strings.Join(p.Obligations[1].Requires, "") != "contracts.breaking_changes == 0" {
			t.Errorf("contract-testing's blocks = %+v", p.Obligations)
		}
	}
	if pinned := instruct.Markdown(model(t, dir, "adp/default/2", "")); string(pinned) != string(instruct.Markdown(doc)) {
		t.Error("adp/default/2 does not give the bytes of adp/default")
	}
}

// corpusInstructChecker reads §12.2's facts back from our bytes with the
// shared checker, with and without the map.
func corpusInstructChecker(t *testing.T, e *Env) {
	checker := instructcheck.Script(t)
	dir := e.SharedPath("corpus", "tree")
	for _, mapID := range []string{"", "development/default"} {
		doc := instruct.Markdown(model(t, dir, "adp/default", mapID))
		file := filepath.Join(t.TempDir(), "adp-default.md")
		if err := os.WriteFile(file, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		got := factsOfChecker(instructcheck.Run(t, checker, file))
		want := expectedADP()
		if mapID != "" {
			// Every fact is unchanged except the steps of the states the map names.
			for i := range got.States {
				var kinds []string
				for _, s := range got.States[i].Steps {
					kind, _, _ := strings.Cut(s, " — ")
					kinds = append(kinds, kind)
				}
				if !reflect.DeepEqual(kinds, expectedSteps[got.States[i].ID]) {
					t.Errorf("steps of %s = %v, want %v", got.States[i].ID, kinds, expectedSteps[got.States[i].ID])
				}
				got.States[i].Steps = nil
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("map %q: checker facts differ from §12.2:\n got %+v\nwant %+v", mapID, got, want)
		}
	}
}

// corpusInstructGoldens keeps our own bytes for adp/default, with and
// without its map, and holds them to the text rules.
func corpusInstructGoldens(t *testing.T, e *Env) {
	dir := e.SharedPath("corpus", "tree")
	for _, g := range []struct{ file, mapID string }{
		{"adp-default.md", ""},
		{"adp-default-map.md", "development/default"},
	} {
		got := instruct.Markdown(model(t, dir, "adp/default", g.mapID))
		testkit.Golden(t, filepath.Join("testdata", "instruct", g.file), got, *update)
		for _, p := range instruct.TextProblems(got) {
			t.Errorf("%s: %s", g.file, p)
		}
		if again := instruct.Markdown(model(t, dir, "adp/default", g.mapID)); string(again) != string(got) {
			t.Errorf("%s: two runs give different bytes", g.file)
		}
	}
}

// corpusInstructMutation is §12.1.5: changing one guard changes exactly one
// fact, the guard of implement → verify.
func corpusInstructMutation(t *testing.T, e *Env) {
	dir := e.SharedPath("corpus", "tree")
	copyDir := t.TempDir()
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(copyDir, "workflows", "development", "default.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	mutated := strings.Replace(string(data), "when: diff.exists\n", "when: diff.exists_elsewhere\n", 1)
	if mutated == string(data) {
		t.Fatal("the corpus workflow has no `when: diff.exists` line to mutate")
	}
	if err := os.WriteFile(file, []byte(mutated), 0o644); err != nil {
		t.Fatal(err)
	}
	before, after := model(t, dir, "adp/default", ""), model(t, copyDir, "adp/default", "")
	implement := after.States[4]
	if implement.ID != "implement" || implement.Moves[0].Guard != "diff.exists_elsewhere" {
		t.Fatalf("the mutated guard is not the guard of implement → verify: %+v", implement.Moves)
	}
	implement.Moves[0].Guard = "diff.exists"
	if !reflect.DeepEqual(before, after) {
		t.Error("the mutation changed more than the guard of implement → verify")
	}
}
