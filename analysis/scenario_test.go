package analysis

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

const gateYAML = `id: demo/gate
version: 1
title: Gate
initial: build
states:
  build: {title: Build}
  check: {title: Check}
  ship: {title: Ship, terminal: true}
transitions:
  - {from: build, to: check, when: diff.exists}
  - {from: check, to: ship, when: tests.unit.failed == 0}
  - {from: check, to: build, when: tests.unit.failed > 0}
`

func gate(t testing.TB) *workflow.Workflow {
	w, ds := workflow.Load("gate.yaml", []byte(gateYAML))
	if w == nil || ds.HasErrors() {
		t.Fatalf("gate: %v", ds)
	}
	return w
}

const goodScenario = `format: aep.scenario/1
now: 2023-11-14
facts: {change.code: true, risk: high, budget: 3}
artifacts:
  - {id: "story:s-1", kind: story, status: active}
  - {id: "spec:s-1", kind: specification, status: approved, relations: [{specifies: "story:s-1"}]}
evidence:
  - {kind: diff, observed_at: 2023-11-13, files_changed: 1, producer: {producer: verifier, verifier: compiler}}
on_entry:
  check:
    - visit: 2
      evidence:
        - {kind: test_result, observed_at: 2023-11-13, suite: unit, passed: 1, producer: {producer: verifier, verifier: test-runner}}
`

// TestReadScenarios reads a scenario with every section and merges a
// second file (an evidence document) after it.
func TestReadScenarios(t *testing.T) {
	list := "- {kind: diff, observed_at: 2023-11-13, producer: {producer: agent, id: a}}\n"
	sc, ds := ReadScenarios([]ScenarioFile{{"s.yaml", []byte(goodScenario)}, {"l.yaml", []byte(list)}}, gate(t), time.Now())
	if ds.HasErrors() {
		t.Fatalf("refused: %v", ds)
	}
	if !sc.HasNow || sc.Now.Format("2006-01-02") != "2023-11-14" {
		t.Errorf("now = %v", sc.Now)
	}
	if len(sc.Facts) != 3 || len(sc.Evidence) != 2 || len(sc.Graph.Artifacts) != 2 || len(sc.Entries["check"]) != 1 || sc.Entries["check"][0].Visit != 2 {
		t.Errorf("scenario = %+v", sc)
	}
}

// TestScenarioRefusals is the hostile side: each input is refused with
// its code, never a panic.
func TestScenarioRefusals(t *testing.T) {
	cases := []struct{ name, src, code string }{
		{"unknown key", "format: aep.scenario/1\nextra: 1\n", "unknown_field"},
		{"wrong format", "format: aep.scenario/2\n", "invalid_value"},
		{"no format", "facts: {a: 1}\n", "missing_field"},
		{"unknown state", "format: aep.scenario/1\non_entry:\n  nowhere:\n    - evidence: []\n", "unknown_state"},
		{"visit zero", "format: aep.scenario/1\non_entry:\n  check:\n    - {visit: 0, evidence: []}\n", ""},
		{"future record", "format: aep.scenario/1\nnow: 2023-01-01\nevidence:\n  - {kind: diff, observed_at: 2024-01-01, producer: {producer: agent, id: a}}\n", "evidence_in_future"},
		{"bad now", "format: aep.scenario/1\nnow: yesterday\n", "invalid_value"},
		{"bad fact path", "format: aep.scenario/1\nfacts: {'9x': 1}\n", "invalid_value"},
		{"nested fact", "format: aep.scenario/1\nfacts: {a: [1]}\n", "wrong_type"},
		{"fact past 2^53", "format: aep.scenario/1\nfacts: {a.b: 9007199254740993}\n", "invalid_value"},
		{"fact beyond a float", "format: aep.scenario/1\nfacts: {a.b: 1e400}\n", "invalid_value"},
		{"dangling relation", "format: aep.scenario/1\nartifacts:\n  - {id: \"spec:s\", kind: specification, status: approved, relations: [{specifies: \"story:none\"}]}\n", "unknown_relation_target"},
		{"duplicate artifact", "format: aep.scenario/1\nartifacts:\n  - {id: \"story:s\", kind: story, status: active}\n  - {id: \"story:s\", kind: story, status: active}\n", "duplicate_artifact"},
		{"scalar", "42\n", "wrong_type"},
		{"empty", "", "wrong_type"},
		{"only a comment", "# nothing yet\n", "wrong_type"},
		{"null", "null\n", "wrong_type"},
		{"alias", "format: aep.scenario/1\nfacts: &f {a: 1}\nevidence: *f\n", ""},
		{"deep", "format: aep.scenario/1\nfacts: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, ds := ReadScenarios([]ScenarioFile{{"x.yaml", []byte(c.src)}}, gate(t), time.Now())
			if !ds.HasErrors() || sc != nil {
				t.Fatalf("accepted: %v", ds)
			}
			if c.code == "" {
				return
			}
			for _, d := range ds {
				if d.Code == c.code {
					return
				}
			}
			t.Errorf("no %s in %v", c.code, ds)
		})
	}
	_, ds := ReadScenarios([]ScenarioFile{{"a.yaml", []byte("format: aep.scenario/1\nnow: 2023-01-01\n")}, {"b.yaml", []byte("format: aep.scenario/1\nnow: 2023-01-02\n")}}, gate(t), time.Now())
	if len(ds) != 1 || ds[0].Code != CodeScenarioNowTwice || ds[0].File != "b.yaml" {
		t.Errorf("now twice: %v", ds)
	}
}

// TestScenarioFindingsTyped: a review in a scenario, at the top and in an
// on_entry visit, has typed findings (engine.md §6.3): `blocking: "yes"`,
// `1` or null counted as not blocking, so the simulated review was
// approved; each is refused at the value, and so is a finding without a
// severity or a summary. A finding as the spec writes it is admitted.
func TestScenarioFindingsTyped(t *testing.T) {
	review := func(finding string) string {
		return "{kind: review, observed_at: 2023-11-13, subject: change, reviewer: {reviewer: human}, disposition: approved, findings: [" +
			finding + "], producer: {producer: verifier, verifier: human-review}}"
	}
	for _, c := range []struct{ finding, path, msg string }{
		{`{severity: high, summary: s, blocking: "yes"}`, "findings[0].blocking", "`blocking` must be a boolean, found a string"},
		{"{severity: high, summary: s, blocking: 1}", "findings[0].blocking", "`blocking` must be a boolean, found an integer"},
		{"{severity: high, summary: s, blocking: null}", "findings[0].blocking", "`blocking` must be a boolean, found null"},
		{"{summary: s, blocking: true}", "findings[0]", "the required key `severity` is missing"},
	} {
		for _, sc := range []struct{ src, path string }{
			{"format: aep.scenario/1\nnow: 2023-11-14\nevidence:\n  - " + review(c.finding) + "\n", "evidence[0]."},
			{"format: aep.scenario/1\nnow: 2023-11-14\non_entry:\n  check:\n    - evidence:\n        - " + review(c.finding) + "\n", "on_entry.check[0].evidence[0]."},
		} {
			got, ds := ReadScenarios([]ScenarioFile{{"x.yaml", []byte(sc.src)}}, gate(t), time.Now())
			if got != nil || len(ds) != 1 || ds[0].Path != sc.path+c.path || ds[0].Message != c.msg || ds[0].File != "x.yaml" || ds[0].Pos.Line == 0 {
				t.Errorf("%s\nadmitted %v, want %s at %s: %v", sc.src, got != nil, c.msg, sc.path+c.path, ds)
			}
		}
	}
	src := "format: aep.scenario/1\nnow: 2023-11-14\nevidence:\n  - " + review(`{severity: high, summary: s, location: "a.go:3", blocking: true}`) + "\n"
	if sc, ds := ReadScenarios([]ScenarioFile{{"x.yaml", []byte(src)}}, gate(t), time.Now()); ds.HasErrors() || len(sc.Evidence) != 1 {
		t.Errorf("a finding as the spec writes it refused: %v", ds)
	}
}

// FuzzReadScenarios feeds arbitrary bytes to the scenario reader: it must
// never panic, and a scenario it accepts must simulate to an outcome.
func FuzzReadScenarios(f *testing.F) {
	f.Add([]byte(goodScenario))
	f.Add([]byte("- {kind: diff, observed_at: 2023-11-13, producer: {producer: agent, id: a}}\n"))
	f.Add([]byte("format: aep.scenario/1\non_entry:\n  check:\n    - evidence: []\n"))
	f.Add([]byte("format: aep.scenario/1\nfacts: {a: 1}\n"))
	f.Add([]byte("format: aep.scenario/1\nfacts: {a.b: 9223372036854775807, c.d: 1e400, e: .nan}\n"))
	f.Add([]byte("format: aep.scenario/1\nevidence:\n  - {kind: review, observed_at: 2023-11-13, subject: s, reviewer: {reviewer: human}, disposition: approved, findings: [{severity: high, summary: s, blocking: \"yes\"}, {summary: ~, blocking: true}, null], producer: {producer: human, id: a}}\n"))
	w := gate(f)
	tr, _ := chainlessTree(w)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1024 {
			return
		}
		sc, ds := ReadScenarios([]ScenarioFile{{"f.yaml", data}}, w, time.Date(2023, 11, 14, 0, 0, 0, 0, time.UTC))
		if ds.HasErrors() != (sc == nil) {
			t.Fatalf("errors %v but scenario %v", ds.HasErrors(), sc != nil)
		}
		if sc == nil {
			return
		}
		run, _, err := Simulate(tr, w, sc, SimOptions{MaxVisits: 2})
		if err != nil {
			t.Fatalf("simulate: %v", err)
		}
		if run != nil && run.Outcome.Kind == "" {
			t.Fatal("a run without an outcome")
		}
	})
}

// chainlessTree returns a tree holding only w.
func chainlessTree(w *workflow.Workflow) (*tree.Tree, error) {
	return &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}, nil
}

// TestWalkBounds: a walk stops at MaxMoves, and a scenario with more than
// MaxScenarioRecords records is refused before any walk.
func TestWalkBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("id: demo/loop\nversion: 1\ntitle: Loop\ninitial: s0\nstates:\n")
	for i := range 6 {
		fmt.Fprintf(&b, "  s%d: {title: S}\n", i)
	}
	b.WriteString("  done: {title: Done, terminal: true}\ntransitions:\n")
	for i := range 6 {
		fmt.Fprintf(&b, "  - {from: s%d, to: s%d}\n", i, (i+1)%6)
	}
	b.WriteString("  - {from: s0, to: done, when: never}\n")
	w, ds := workflow.Load("loop.yaml", []byte(b.String()))
	if w == nil || ds.HasErrors() {
		t.Fatal(ds)
	}
	tr, _ := chainlessTree(w)
	sc, _ := ReadScenarios([]ScenarioFile{{"e.yaml", []byte("[]\n")}}, w, fixedNow)
	run, _, err := Simulate(tr, w, sc, SimOptions{MaxVisits: MaxVisitBudget})
	if err != nil {
		t.Fatal(err)
	}
	if run.Outcome.Kind != OutcomeBudget || run.Outcome.Moves != MaxMoves || run.Outcome.Refused.Walk != MaxMoves {
		t.Errorf("outcome %+v", run.Outcome)
	}
	var big strings.Builder
	for range MaxScenarioRecords + 1 {
		big.WriteString("- {kind: diff, observed_at: 2023-11-13, producer: {producer: agent, id: a}}\n")
	}
	if _, ds := ReadScenarios([]ScenarioFile{{"big.yaml", []byte(big.String())}}, w, fixedNow); !ds.HasErrors() || ds[0].Code != CodeScenarioTooLarge {
		t.Errorf("a scenario of %d records: %v", MaxScenarioRecords+1, ds)
	}
}

// cycleScenario returns a workflow whose walk goes a -> b -> a for ever
// and a scenario whose one `on_entry` entry of `a`, without `visit`,
// holds n records: submitted again on every entry into `a`.
func cycleScenario(t *testing.T, n int) (*tree.Tree, *workflow.Workflow, *Scenario) {
	t.Helper()
	w, ds := workflow.Load("cycle.yaml", []byte("id: demo/cycle\nversion: 1\ntitle: Cycle\ninitial: b\nstates:\n  a: {title: A}\n  b: {title: B}\n  done: {title: Done, terminal: true}\ntransitions:\n  - {from: a, to: b}\n  - {from: b, to: a}\n  - {from: a, to: done, when: never}\n"))
	if w == nil || ds.HasErrors() {
		t.Fatal(ds)
	}
	var b strings.Builder
	b.WriteString("format: aep.scenario/1\nnow: 2023-11-14\non_entry:\n  a:\n    - evidence:\n")
	for range n {
		b.WriteString("        - {kind: diff, observed_at: 2023-11-13, producer: {producer: agent, id: a}}\n")
	}
	sc, ds := ReadScenarios([]ScenarioFile{{"cycle-scenario.yaml", []byte(b.String())}}, w, fixedNow)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	tr, _ := chainlessTree(w)
	return tr, w, sc
}

// TestWalkSubmitBound: MaxScenarioRecords bounds the records the walk
// submits, not only those the files hold. An `on_entry` entry without
// `visit` is submitted on every entry into its state, so 10 records on a
// two-state cycle under a budget of 1,000 would submit 10,000: the walk is
// refused at the entry that would pass the bound, at the entry's position.
func TestWalkSubmitBound(t *testing.T) {
	tr, w, sc := cycleScenario(t, 10)
	run, ds, err := Simulate(tr, w, sc, SimOptions{MaxVisits: MaxVisitBudget})
	if err != nil {
		t.Fatal(err)
	}
	if run != nil {
		t.Fatalf("the walk ran (%s after %d moves), diagnostics %v", run.Outcome.Kind, run.Outcome.Moves, ds)
	}
	if len(ds) != 1 || ds[0].Code != CodeScenarioTooLarge {
		t.Fatalf("diagnostics %v", ds)
	}
	d := ds[0]
	want := "`on_entry.a[0]` submits its 10 record(s) on every entry into `a`: at entry 501 the walk would have submitted 5010 records, more than the 5000 a simulation submits"
	if d.File != "cycle-scenario.yaml" || d.Pos.Line != 5 || d.Pos.Column != 7 || d.Message != want {
		t.Errorf("got %s:%d:%d: %s\nwant cycle-scenario.yaml:5:7: %s", d.File, d.Pos.Line, d.Pos.Column, d.Message, want)
	}
	// Under the bound, the same scenario walks: 500 entries of 10 records.
	run, ds, err = Simulate(tr, w, sc, SimOptions{MaxVisits: 500})
	if err != nil || ds.HasErrors() || run.Outcome.Kind != OutcomeBudget {
		t.Fatalf("under the bound: %v %v %+v", err, ds, run)
	}
}

// TestWalkSubmitBoundMemory is the probe's shape: 4,999 records in one
// entry without `visit` on a two-state cycle, budget 1,000, which submitted
// about five million records (2.8 GB). The walk is refused at the second
// entry; what the whole simulation allocates stays a small multiple of the
// scenario (a count, not a timing).
func TestWalkSubmitBoundMemory(t *testing.T) {
	tr, w, sc := cycleScenario(t, MaxScenarioRecords-1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run, ds, err := Simulate(tr, w, sc, SimOptions{MaxVisits: MaxVisitBudget})
	runtime.ReadMemStats(&after)
	if err != nil || run != nil || len(ds) != 1 || ds[0].Code != CodeScenarioTooLarge {
		t.Fatalf("a run %v, diagnostics %v, err %v", run != nil, ds, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("the refused walk allocated %d bytes; a walk bounded at %d submitted records needs far less", got, MaxScenarioRecords)
	}
}
