package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
)

// miniPlan resolves task against testdata/mini, a tree of our own.
func miniPlan(t testing.TB, task string) *Plan {
	t.Helper()
	tr, diags := LoadTree("testdata/mini")
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	tk, diags := ReadTask("task.yaml", []byte(task))
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	plan, diags := Resolve(tr, tk)
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	return plan
}

const miniTask = "{id: M-1, kind: feature, objective: o, protocol: m/1, profile: p.child, derived_from: [story:s]}"

func TestPredicateAlgebra(t *testing.T) {
	facts := predicate.MapFacts{"n": predicate.Number(2), "risk": predicate.Text("high"), "t": predicate.Text("false"), "b": predicate.Bool(true)}
	scales := predicate.Scales{"risk": {"low", "medium", "high"}}
	for _, c := range []struct{ expr, want string }{
		{"always", "true"}, {"never", "false"},
		{"n == 2", "true"}, {"n == '2'", "false"}, {"n > 1", "true"}, {"n < x.y", "unknown"},
		{"risk >= medium", "true"}, {"risk < low", "false"}, {"risk > purple", "unknown"},
		{"t", "false"}, {"b", "true"}, {"absent", "unknown"}, {"not absent", "unknown"},
		{"defined(absent)", "false"}, {"missing(absent)", "true"}, {"b == 1", "false"}, {"n > b", "unknown"},
	} {
		p, err := predicate.ParseCompact(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := predicate.Eval(p, facts, scales).String(); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
	a, _ := predicate.ParseCompact("absent")
	f, _ := predicate.ParseCompact("n == 3")
	if got := predicate.Eval(predicate.NewAll(a, f), facts, scales); got != predicate.False {
		t.Errorf("unknown and false = %v", got)
	}
	tr, _ := predicate.ParseCompact("b")
	if got := predicate.Eval(predicate.NewAny(a, tr), facts, scales); got != predicate.True {
		t.Errorf("unknown or true = %v", got)
	}
	if got := predicate.Eval(predicate.NewAny(a, f), facts, scales); got != predicate.Unknown {
		t.Errorf("unknown or false = %v", got)
	}
}

func TestFlavourLines(t *testing.T) {
	plan := miniPlan(t, miniTask)
	graph := artifact.NewGraph([]artifact.Artifact{
		{ID: "story:s", Kind: "story", Status: "active"},
		{ID: "specification:old", Kind: "specification", Status: "superseded", Relations: []artifact.Relation{{Kind: "specifies", Target: "story:s"}}},
	})
	e := NewExecution(plan, graph, testNow)
	e.EnterState("work")
	e.Submit(evidence.Record{ObservedAt: testNow.UnixMilli() - 40*86_400_000, Producer: evidence.Producer{Class: "verifier", Name: "test-runner"},
		Value: evidence.Payload{Kind: "test_result", Fields: map[string]any{"suite": "unit", "passed": 1.0, "failed": 0.0, "skipped": 0.0}}})
	ev, err := e.Evaluate()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range ev.Moves[0].Items {
		got = append(got, it.Line())
	}
	for _, it := range ev.Completion {
		got = append(got, it.Line())
	}
	want := []string{
		"? ready — unobserved: ready [transition work -> done]",
		"? evidence test_result x2 from test-runner (independent) within 30d — last observed " + evidence.FormatDate(testNow.UnixMilli()-40*86_400_000) + ", beyond its 30d horizon since " + evidence.FormatDate(testNow.UnixMilli()-10*86_400_000) + " [state done]",
		"✗ artifact specification (approved) which specifies this task — declared: specification:old (superseded); this task's work is story:s, task:M-1 [state done]",
		"? review of a design is approved (by a person) — no review is recorded [state done]",
		"? approval ship (by a person) — no approval `ship` is recorded [state done]",
		"? if change.big then … — cannot tell whether this applies: change.big is unobserved [state done]",
		"✓ if task.kind == feature then … — applies [state done]",
		"? evidence diff — 0 of 1 required record(s) submitted [state done]",
		"? tests.unit.failed == 1 — unobserved: tests.unit.failed [advisory — qa until release] [state done]",
		"? test-runner must run for speed — `test-runner` has not run [principle guard]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v, _ := e.Facts().Lookup("evidence.lapsed"); v.String() != "1" {
		t.Errorf("evidence.lapsed = %v", v)
	}
	if _, ok := e.Facts().Lookup("tests.unit.failed"); ok {
		t.Error("a lapsed record projected facts")
	}
}

func TestCheckVocabulary(t *testing.T) {
	tr, _ := LoadTree("testdata/mini")
	// Both profiles name workflow w, and each is checked.
	d := CheckVocabulary(tr)
	if len(d) != 2 {
		t.Fatalf("got %v, want two unobservable_fact", d)
	}
	for _, x := range d {
		if x.Code != CodeUnobservable || !strings.Contains(x.Message, "`ready`") {
			t.Errorf("diagnostic %v", x)
		}
	}
}

func FuzzSnapshot(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "snapshot", "basic.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"execution":"a.1","task":"a","state":"s","entered":[],"evidence":[],"events":[],"next_seq":0}`))
	f.Add([]byte(`{"execution":"a.1","task":"a","state":"s","entered":["s"],"evidence":[{"state":"s","record":{"id":"a.1.evidence.1","observed_at":1,"produced_at":1,"producer":{"producer":"agent","id":"a"},"value":{"kind":"test_result","suite":"unit","passed":9007199254740993,"failed":1e400,"skipped":null}}}],"events":[],"next_seq":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := DecodeSnapshot("s.json", data)
		if s == nil {
			return
		}
		once := s.Encode()
		s2, diags := DecodeSnapshot("s.json", once)
		if s2 == nil {
			t.Fatalf("re-decode refused %s: %v", once, diags)
		}
		if !bytes.Equal(once, s2.Encode()) {
			t.Fatalf("unstable encoding:\n%s\n%s", once, s2.Encode())
		}
	})
}

// FuzzReadTask: the task reader never panics, whatever the task document
// holds; it returns a task exactly when it reports no error, and every
// diagnostic has a code and a line inside the document (or none: an empty
// document has no position to name).
func FuzzReadTask(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("..", "testdata", "project", ".engineering", "task.yaml")); err == nil {
		f.Add(data)
	}
	f.Add([]byte("id: T-1\nkind: feature\nobjective: x\nprotocol: fx/1\nprofile: fx.standard\nderived_from: [story:a]\n"))
	f.Add([]byte("id: T-1\nobjective: x\nconstraints: {facts: {a.b: 1}, add: [p], remove: [q]}\n"))
	f.Add([]byte("id: [x]\nprotocol: {a: 1}\nunknown: 1\n"))
	f.Add([]byte("id: T-1\nobjective: x\nconstraints: {facts: {a.b: 9007199254740993, c.d: 1e400, e.f: .nan, g.h: 0x10, i.j: {k: 1}}}\n"))
	f.Add([]byte(""))
	f.Add([]byte("\u00850")) // NEL is a line break to YAML: the 0 stands on line 2
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := testkit.LineBound(data)
		task, diags := ReadTask("task.yaml", data)
		if (task == nil) != diags.HasErrors() {
			t.Fatalf("task %v with errors %v: want a task exactly when there is no error", task, diags.HasErrors())
		}
		for _, d := range diags {
			if d.Code == "" || d.Pos.Line < 0 || d.Pos.Line > lines || (d.Pos.Line == 0) != (d.Pos.Column == 0) {
				t.Fatalf("bad diagnostic %v (input has %d lines)", d, lines)
			}
		}
	})
}

// TestNotAMappingIsOneDiagnostic: a task or snapshot that is not a mapping
// gets one diagnostic, the document's shape, not one more per required key
// found missing because of it.
func TestNotAMappingIsOneDiagnostic(t *testing.T) {
	for _, in := range []string{"", "# only a comment\n", "null\n", "[1, 2]\n", "text\n"} {
		_, task := ReadTask("task.yaml", []byte(in))
		_, snap := DecodeSnapshot("s.json", []byte(in))
		for _, ds := range []diag.List{task, snap} {
			if len(ds) != 1 || ds[0].Code != yamldoc.CodeWrongType || !strings.HasPrefix(ds[0].Message, "the document must be a mapping, found ") {
				t.Errorf("%q: %v; want one wrong_type diagnostic for the document", in, ds)
			}
		}
	}
}

var _ = diag.Error
var _ = yamldoc.Parse

// TestTaskFactValues: a task's constraints.facts are read by the one fact
// reader (protocol.DecodeFact): an integer past 2^53 is refused, not
// rounded; 1e400 and `.nan` are named for what they are; every message
// names the whole fact path, not its last segment.
func TestTaskFactValues(t *testing.T) {
	task := "id: T-1\nkind: feature\nobjective: x\nprotocol: p/1\nprofile: p\nconstraints:\n  facts:\n    a.exact: 9007199254740992\n    a.big: 9007199254740993\n    a.max: 9223372036854775807\n    a.huge: 1e400\n    a.nan: .nan\n    diff.exists: {x: 1}\n"
	_, diags := ReadTask("task.yaml", []byte(task))
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, d.Message))
	}
	want := []string{
		"9:12 the fact `a.big` is `9007199254740993`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -9007199254740992 to 9007199254740992",
		"10:12 the fact `a.max` is `9223372036854775807`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -9007199254740992 to 9007199254740992",
		"11:13 the fact `a.huge` is `1e400`, a number out of range: it is beyond the largest 64-bit float (about 1.8e308)",
		"12:12 the fact `a.nan` is `.nan`, which is not a finite number",
		"13:18 the fact `diff.exists` must be a string, number or boolean, found a mapping",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ok, diags := ReadTask("task.yaml", []byte("id: T-1\nkind: feature\nobjective: x\nprotocol: p/1\nprofile: p\nconstraints: {facts: {a.exact: 9007199254740992, a.neg: -9007199254740992}}\n"))
	if diags.HasErrors() || ok.Facts[0].Value.Number() != 9007199254740992 || ok.Facts[1].Value.Number() != -9007199254740992 {
		t.Errorf("the bounds themselves: %v %v", ok, diags)
	}
}
