package analysis

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
)

// fixedNow is the clock every test analysis runs at.
var fixedNow = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

var wantRE = regexp.MustCompile(`# want ([a-z_ ]+)$`)

// analyzeTree loads the tree at dir and analyses every workflow, under the
// tree's only step map when the case names one in a `map` file.
func analyzeTree(t *testing.T, dir string) (diag.List, *tree.Tree) {
	t.Helper()
	tr, ds := tree.Load(dir)
	if ds.HasErrors() {
		t.Fatalf("%s does not load:\n%v", dir, ds)
	}
	var m *stepmap.Map
	if id, err := os.ReadFile(filepath.Join(dir, "map")); err == nil {
		m = tr.StepMaps[strings.TrimSpace(string(id))]
		if m == nil {
			t.Fatalf("%s: no step map %q", dir, id)
		}
	}
	var out diag.List
	for _, id := range tr.WorkflowIDs() {
		w := tr.Workflows[id]
		if m != nil && m.Workflow.ID != id {
			continue
		}
		out.Extend(Analyze(tr, w, Options{Map: m, Now: fixedNow}))
	}
	return out.Sorted(), tr
}

// wants reads the `# want code…` comments of every file of the tree: the
// codes expected at that line.
func wants(t *testing.T, tr *tree.Tree) []string {
	var out []string
	for file, data := range tr.Sources {
		for i, line := range strings.Split(string(data), "\n") {
			if m := wantRE.FindStringSubmatch(line); m != nil {
				for _, code := range strings.Fields(m[1]) {
					out = append(out, fmt.Sprintf("%s:%d %s", file, i+1, code))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestCases analyses each tree under testdata/cases: every finding must be
// announced by a `# want` comment at its line, and every comment met.
func TestCases(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/cases/*")
	if len(dirs) == 0 {
		t.Fatal("no cases")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			ds, tr := analyzeTree(t, dir)
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s:%d %s", d.File, d.Pos.Line, d.Code))
			}
			slices.Sort(got)
			if want := wants(t, tr); !slices.Equal(got, want) {
				t.Errorf("findings differ\n got: %q\nwant: %q\n%s", got, want, lines(ds))
			}
		})
	}
}

func lines(ds diag.List) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Error())
		if d.Hint != "" {
			b.WriteString("\n  hint: " + d.Hint)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestDeterministic analyses every case ten times, with one and with
// several processors: the JSON output is byte-identical each time.
func TestDeterministic(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/cases/*")
	render := func() string {
		var b strings.Builder
		for _, dir := range dirs {
			ds, tr := analyzeTree(t, dir)
			var ws []WitnessOf
			for _, id := range tr.WorkflowIDs() {
				ws = append(ws, AnalyzeWitnessed(tr, tr.Workflows[id], Options{Now: fixedNow}).Witnesses...)
			}
			if err := WriteJSON(&b, ds, ws); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	first := render()
	for i := range 10 {
		prev := runtime.GOMAXPROCS(1 + i%3)
		if got := render(); got != first {
			t.Fatalf("run %d differs", i)
		}
		runtime.GOMAXPROCS(prev)
	}
}

// TestWitnessReplays saves the witness of an overlap as a scenario and
// replays it with Simulate's reader: both guards are True in the engine.
func TestWitnessReplays(t *testing.T) {
	tr, ds := tree.Load("testdata/cases/overlap_witness")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	w := tr.Workflows["demo/w"]
	r := AnalyzeWitnessed(tr, w, Options{Now: fixedNow})
	if len(r.Witnesses) != 1 {
		t.Fatalf("witnesses: %v", r.Witnesses)
	}
	data, err := json.Marshal(r.Witnesses[0].Witness)
	if err != nil {
		t.Fatal(err)
	}
	sc, ds := ReadScenarios([]ScenarioFile{{"witness.json", data}}, w, fixedNow)
	if ds.HasErrors() {
		t.Fatalf("the witness does not read back: %v\n%s", ds, data)
	}
	run, _, err := Simulate(tr, w, sc, SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Both guards hold: document order sends the run to the first target.
	if run.Outcome.Kind != OutcomeCompleted || run.Outcome.State != "b" {
		t.Errorf("replay ended %+v", run.Outcome)
	}
}
