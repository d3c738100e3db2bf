package analysis

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
)

var update = flag.Bool("update", false, "rewrite docs/codes-analysis.md")

// codeDocs lists each code of docs/codes-analysis.md with its description
// and the case under testdata/cases that shows it.
var codeDocs = []struct{ code, severity, where, text, cases string }{
	{CodeDisabled, "warning", "the `when` value", "The guard is literally `false` or `never` after simplification: the transition is switched off and can never be taken.", "disabled"},
	{CodeNeverHolds, "error", "the `when` value", "The guard can never be True in its source state over the facts' domains: a count below zero, a text never equal to a count, an enum value that does not exist, a `state.current` that is another state, `missing(...)` of an always-observed fact.", "never_int"},
	{CodeAlwaysHolds, "warning", "the `when` value", "The guard is True in every world of its source state: it reads only facts that are always observed, or covers every case including unobserved. `not tests.unit.failed < 0` is not such a guard: it is Unknown while the fact is unobserved.", "always_then_shadowed"},
	{CodeUnproducible, "error", "the evidence item", "A requirement item that no record of a declared kind, from a verifier able to produce it, can ever meet: the kind is not declared by the protocols the workflow runs under, it is `ess_conformance_v2`, or a named verifier does not establish it. Every move owing it is dead.", "unproducible_verifier"},
	{CodeNeverPermitted, "error", "the transition", "The guard can hold, but never together with the move's own `requires` and its target's `requires` (an item whose condition is Unknown blocks).", "never_permitted"},
	{CodeShadowed, "error", "the transition", "An earlier transition from the same state is permitted whenever this one is (guard and requirements), so this one is never taken; the related location names the one tried first.", "gate"},
	{CodeOverlapping, "warning", "the later transition", "The guards (and predicate requirements) of two live transitions from one state can hold at once, confirmed by a witness the engine evaluates; whenever both moves are permitted, document order decides. Their other requirement items (evidence, artifacts, reviews, approvals) are not claimed to hold together. In JSON the object carries the witness as a scenario document that `aepflow simulate` replays.", "overlap_witness"},
	{CodeUnproducibleFact, "warning", "the `when` or `requires` value", "A guard or requirement reads a path in an owned namespace (`tests`, `review`, `state`, …) that no evidence family, graph or engine fact binds: only a task's `constraints.facts` could. The hint names the nearest produced path.", "unproducible_fact"},
	{CodeNoWayOut, "error", "the state key", "A reachable non-terminal state all of whose moves are dead.", "no_way_out"},
	{CodeTrappedCycle, "error", "the key of the cycle's first state", "A reachable cycle of non-terminal states that no live move leaves.", "trapped"},
	{CodeNeverEntered, "warning", "the state key", "A structurally reachable state that no live path enters: every way in is dead.", "traps"},
	{CodeNoStepProduces, "error", "the transition", "Under the step map, the move needs evidence that no step in its state or a state before it can produce (assuming evidence arrives only from the map's steps).", "map_no_step"},
	{CodeNoStepOwed, "warning", "the transition or terminal state key", "Under the step map and a profile that runs the workflow, a principle's obligation or the completion set owes evidence no step before it can produce; a task that removes the principle avoids it.", "map_owed"},
	{CodeUndeclaredKind, "error", "the map step's `evidence.kind`; in `simulate`, the record's `kind` value in its scenario file", "A map step produces a kind no protocol the workflow runs under declares: the driver refuses such a run at start. `aepflow simulate` refuses a scenario record of such a kind with the same code, at the record.", "map_undeclared"},
	{CodeIncomplete, "warning", "the transition, or the workflow `id`", "A bound of analysis.md §4.6 (4,096 conjuncts, 1,048,576 pair intersections per decision, 64 transitions out of a state, 67,108,864 per workflow), the work bounds beside them (16,777,216 atom comparisons per decision, 67,108,864 per workflow), or a witness the engine did not confirm, left a check undecided; nothing is claimed about it.", "overlap_witness_fails"},
}

var wantComment = regexp.MustCompile(` *# want [a-z_ ]+`)

// TestCodesPage checks docs/codes-analysis.md against the cases it shows:
// each section's files and the exact output of `aepflow analyze` on them.
// Run with -update to rewrite the page.
func TestCodesPage(t *testing.T) {
	cases, err := filepath.Abs("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	page, err := filepath.Abs("../docs/codes-analysis.md")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# Diagnostic codes of `aepflow analyze` and `aepflow simulate`\n\n")
	b.WriteString("Every code of [analyze.md](analyze.md) and [simulate.md](simulate.md) (normative: `../shared/spec/analysis.md` §5–§8).\n")
	b.WriteString("Each section gives the severity, where the finding is positioned, a minimal tree and the exact output of\n")
	b.WriteString("`aepflow analyze` in it; the last three, codes of `aepflow simulate`'s inputs, give the severity and\n")
	b.WriteString("position only. This page is generated from `analysis/testdata/cases/` and checked by\n")
	b.WriteString("`TestCodesPage` (`go test ./analysis -run TestCodesPage -update` rewrites it).\n")
	for _, c := range codeDocs {
		b.WriteString("\n## `" + c.code + "`\n\n" + c.text + "\n\nSeverity: " + c.severity + ". Position: " + c.where + ".\n")
		docCase(t, &b, filepath.Join(cases, c.cases))
	}
	b.WriteString("\n## `scenario_now_twice`\n\nTwo scenario files of one `aepflow simulate` set `now`; the first one stands.\n\nSeverity: error. Position: the second `now` value.\n")
	b.WriteString("\n## `scenario_too_large`\n\nThe scenario files of one `aepflow simulate` hold more than 5,000 records together, or its walk would submit more than 5,000 (an `on_entry` entry without `visit` is submitted on every entry into its state); the simulation is refused (exit 1).\n\nSeverity: error. Position: the last scenario file; for the walk, the `on_entry` entry without `visit`.\n")
	b.WriteString("\n## `workflow_mismatch`\n\n`aepflow simulate --task`: the task's profile runs another workflow than `--id`'s.\n\nSeverity: error. Position: the task file.\n")
	if *update {
		if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != b.String() {
		t.Errorf("%s is stale; run go test ./analysis -run TestCodesPage -update", page)
	}
}

// docCase copies a case without its want comments into a temporary tree,
// analyses it there and prints its files and the text output.
func docCase(t *testing.T, b *strings.Builder, dir string) {
	tmp := t.TempDir()
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	mapID := ""
	for _, rel := range files {
		data, _ := os.ReadFile(filepath.Join(dir, rel))
		clean := wantComment.ReplaceAllString(string(data), "")
		if rel == "map" {
			mapID = strings.TrimSpace(clean)
			continue
		}
		_ = os.MkdirAll(filepath.Join(tmp, filepath.Dir(rel)), 0o755)
		if err := os.WriteFile(filepath.Join(tmp, rel), []byte(clean), 0o644); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n`" + rel + "`:\n\n```yaml\n" + clean + "```\n")
	}
	t.Chdir(tmp)
	tr, ds := tree.Load(".")
	if ds.HasErrors() {
		t.Fatalf("%s: %v", dir, ds)
	}
	var m *stepmap.Map
	cmd := "aepflow analyze"
	if mapID != "" {
		m = tr.StepMaps[mapID]
		cmd += " --map " + mapID
	}
	var out diag.List
	var undecided Undecided
	for _, id := range tr.WorkflowIDs() {
		r := AnalyzeWitnessed(tr, tr.Workflows[id], Options{Map: m, Now: fixedNow})
		out.Extend(r.Findings)
		undecided.Add(r.Undecided)
	}
	var text bytes.Buffer
	_ = diag.TextOptions{SummaryNote: undecided.Note()}.Write(&text, out.Sorted(), tr.Sources)
	b.WriteString("\n```console\n$ " + cmd + "\n" + text.String() + "```\n")
}
