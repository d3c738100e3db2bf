package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/<name>, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got, *update)
}

// load reads and validates a workflow file, failing the test on errors.
func load(t testing.TB, path string) *workflow.Workflow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, diags := workflow.Load(path, data)
	if w != nil {
		diags.Extend(w.Validate())
	}
	if diags.HasErrors() {
		t.Fatalf("%s does not validate: %v", path, diags.Err())
	}
	return w
}

// fixtureCases are the golden cases over the fixtures: name → workflow file
// and options.
var fixtureCases = []struct {
	name, file string
	opts       Options
	mermaid    bool
}{
	{"loops", "loops.yaml", Options{}, true},
	{"loops-clusters", "loops.yaml", Options{ClusterPhases: true}, false},
	{"loops-tooltips", "loops.yaml", Options{Tooltips: true}, false},
	{"loops-overlay", "loops.yaml", Options{Overlay: &Overlay{
		Run: "DOC-7/2", Current: "check", Status: StatusBlocked, Iterations: 5,
		Entered: []string{"draft", "edit", "edit", "check", "edit", "check"},
	}}, true},
	{"loops-done", "loops.yaml", Options{Overlay: &Overlay{
		Task: "DOC-7", Current: "publish", Status: StatusCompleted, Iterations: 1,
		Entered: []string{"draft", "edit", "check", "publish"},
	}}, true},
	{"special", "special.yaml", Options{}, true},
	{"special-clusters", "special.yaml", Options{ClusterPhases: true}, false},
	{"keywords", "keywords.yaml", Options{}, true},
	{"labels", "labels.yaml", Options{}, true},
	{"keywords-overlay", "keywords.yaml", Options{Overlay: &Overlay{
		Task: "KW-1", Current: "note", Entered: []string{"click", "href", "default", "state", "note"},
	}}, true},
}

func TestGoldens(t *testing.T) {
	for _, c := range fixtureCases {
		t.Run(c.name, func(t *testing.T) {
			w := load(t, filepath.Join("testdata", c.file))
			if c.opts.Overlay != nil {
				if d := c.opts.Overlay.Check(w); len(d) > 0 {
					t.Fatal(d.Err())
				}
			}
			dot := DOT(w, c.opts)
			golden(t, c.name+".dot.golden", dot)
			checkDOT(t, dot)
			if !bytes.Equal(dot, DOT(w, c.opts)) {
				t.Error("two DOT runs differ")
			}
			if c.mermaid {
				mmd := Mermaid(w, c.opts)
				golden(t, c.name+".mmd.golden", mmd)
				checkMermaid(t, mmd)
				if !bytes.Equal(mmd, Mermaid(w, c.opts)) {
					t.Error("two Mermaid runs differ")
				}
			}
		})
	}
}

// weird builds, without validation, a workflow whose ids no validated
// workflow could hold, to test the escaping of ids: quotes, backslashes,
// `#`, `;`, `:`, unicode, `-->`, newlines, and two transitions between the
// same states.
func weird() *workflow.Workflow {
	ids := []string{"a\"b", `c\d`, "e#f;g:h", "ü → ✓", "x-->y", "new\nline", "a_b_c"}
	w := &workflow.Workflow{ID: "weird \"id\"\nx", Version: 1, Title: "Weird", Initial: ids[0],
		States: map[string]*workflow.State{}}
	for i, id := range ids {
		w.States[id] = &workflow.State{ID: id, Title: "T " + id + " {|}<>--", Terminal: i == len(ids)-1,
			Phases: []string{"p\"" + id}}
	}
	add := func(from, to string, when predicate.Predicate) {
		if when == nil {
			when = predicate.Always{}
		}
		w.Transitions = append(w.Transitions, &workflow.Transition{Index: len(w.Transitions), From: from, To: to, When: when})
	}
	lit := func(s string) predicate.Predicate {
		return predicate.Compare{Left: predicate.Fact("f.x"), Op: predicate.Eq, Right: predicate.Lit(predicate.Text(s))}
	}
	add(ids[0], ids[1], lit("q\"uo\\te"))
	add(ids[1], ids[2], lit("line\nbreak\r\nend note"))
	add(ids[1], ids[2], lit("--> [*]"))
	add(ids[2], ids[3], nil)
	add(ids[3], ids[4], lit("#; :"))
	add(ids[4], ids[5], lit("\x00nul\x7f"))
	add(ids[5], ids[6], nil)
	add(ids[5], ids[0], lit("back"))
	add(ids[6], ids[6], nil)
	return w
}

func TestWeirdIDs(t *testing.T) {
	w := weird()
	for _, opts := range []Options{{}, {ClusterPhases: true}} {
		dot := DOT(w, opts)
		checkDOT(t, dot)
		checkMermaid(t, Mermaid(w, opts))
	}
	golden(t, "weird.dot.golden", DOT(w, Options{}))
	golden(t, "weird.mmd.golden", Mermaid(w, Options{}))
}

func TestMermaidWarnings(t *testing.T) {
	w := load(t, filepath.Join("testdata", "special.yaml"))
	d := MermaidWarnings(w)
	if len(d) != 1 || d[0].Code != CodeMermaidIdentCollision {
		t.Fatalf("warnings = %v, want one %s", d, CodeMermaidIdentCollision)
	}
	for _, want := range []string{"`release.canary`", "`release/canary`", "`release_canary`"} {
		if !strings.Contains(d[0].Message, want) {
			t.Errorf("message %q lacks %s", d[0].Message, want)
		}
	}
	if d := MermaidWarnings(load(t, filepath.Join("testdata", "loops.yaml"))); len(d) != 0 {
		t.Errorf("loops.yaml: unexpected warnings %v", d)
	}
}

func TestOverlayCheck(t *testing.T) {
	w := load(t, filepath.Join("testdata", "loops.yaml"))
	ov := &Overlay{Current: "nowhere", Entered: []string{"draft", "gone", "draft", "gone"}}
	d := ov.Check(w)
	if len(d) != 2 || d[0].Code != CodeUnknownState || d[1].Code != CodeUnknownState {
		t.Fatalf("Check = %v, want two unknown_state", d)
	}
	if !strings.Contains(d[0].Message, "`nowhere`") || !strings.Contains(d[0].Message, "`demo/loops`") {
		t.Errorf("message %q should name the state and the workflow", d[0].Message)
	}
	if d := (&Overlay{}).Check(w); len(d) != 0 {
		t.Errorf("empty overlay: %v", d)
	}
}

func TestOverlayLine(t *testing.T) {
	cases := []struct {
		ov   Overlay
		want string
	}{
		{Overlay{}, "run · unknown"},
		{Overlay{Task: "T-1", Current: "a"}, "task T-1 · in a · unknown"},
		{Overlay{Run: "T-1/2", Task: "T-1", Current: "a", Status: StatusRunning, Iterations: 1}, "run T-1/2 · in a · running · 1 iteration"},
		{Overlay{Run: "T/3", Status: StatusBlocked, Iterations: 4}, "run T/3 · blocked · 4 iterations"},
	}
	for _, c := range cases {
		if got := c.ov.Line(); got != c.want {
			t.Errorf("Line(%+v) = %q, want %q", c.ov, got, c.want)
		}
	}
}

// oddIDs builds, without validation, a workflow whose ids no validated
// workflow could hold but Mermaid must still read: digit-leading,
// punctuation-only and upper-case keyword ids.
func oddIDs() *workflow.Workflow {
	ids := []string{"1st", "42", "-", "./", "Click", "NOTE", "Root-Start", "x"}
	w := &workflow.Workflow{ID: "demo/odd", Version: 1, Title: "Odd", Initial: ids[0],
		States: map[string]*workflow.State{}}
	for i, id := range ids {
		w.States[id] = &workflow.State{ID: id, Title: "T " + id, Terminal: i == len(ids)-1}
		if i > 0 {
			w.Transitions = append(w.Transitions, &workflow.Transition{Index: i - 1,
				From: ids[i-1], To: id, When: predicate.Truthy{Path: "f.s" + id}})
		}
	}
	return w
}

func TestOddIDs(t *testing.T) {
	w := oddIDs()
	mmd := Mermaid(w, Options{})
	checkMermaid(t, mmd)
	golden(t, "odd.mmd.golden", mmd)
	if d := MermaidWarnings(w); len(d) != 0 {
		t.Errorf("unexpected warnings %v", d)
	}
}

func TestMmIdentOf(t *testing.T) {
	for id, want := range map[string]string{
		"receive": "receive", "release/canary": "release_canary", "": "_", "..": "__",
		"1st": "1st", "end": "end", "direction": "direction", "as": "as", "notes": "notes",
		"note": "note_", "Note": "Note_", "class": "class_", "classdef": "classdef_",
		"click": "click_", "default": "default_", "href": "href_", "scale": "scale_",
		"state": "state_", "statediagram": "statediagram_", "style": "style_",
		"acctitle": "acctitle_", "accDescr": "accDescr_", "root_start": "root_start_",
		"root/end": "root_end_", "root.end.x": "root_end_x", "note_": "note_",
	} {
		if got := mmIdentOf(id); got != want {
			t.Errorf("mmIdentOf(%q) = %q, want %q", id, got, want)
		}
	}
}

// TestMermaidWarningsSuffix checks that a suffixed keyword is collision-checked
// like any identifier: `note` and the unvalidated `note_` both become `note_`.
func TestMermaidWarningsSuffix(t *testing.T) {
	w := &workflow.Workflow{ID: "demo/clash", Version: 1, Initial: "note", States: map[string]*workflow.State{
		"note":  {ID: "note", Title: "A"},
		"note_": {ID: "note_", Title: "B", Terminal: true},
	}}
	d := MermaidWarnings(w)
	if len(d) != 1 || d[0].Code != CodeMermaidIdentCollision || !strings.Contains(d[0].Message, "`note`, `note_`") {
		t.Fatalf("warnings = %v, want one %s naming `note` and `note_`", d, CodeMermaidIdentCollision)
	}
}
