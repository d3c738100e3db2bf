package compiler

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

var update = flag.Bool("update", false, "rewrite golden files")

func loadWorkflow(t testing.TB, path string) *workflow.Workflow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, ds := workflow.Load(path, data)
	ds.Extend(w.Validate())
	if ds.HasErrors() {
		t.Fatalf("%s does not load: %v", path, ds.Err())
	}
	return w
}

func loadMap(t testing.TB, path string, w *workflow.Workflow) *stepmap.Map {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ds := stepmap.Load(path, data)
	ds.Extend(m.CrossValidate(w))
	if ds.HasErrors() {
		t.Fatalf("%s does not apply: %v", path, ds.Err())
	}
	return m
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	testkit.Golden(t, path, got, *update)
}

// body returns the document from its `id:` line on, without the header.
func body(t testing.TB, doc []byte) string {
	t.Helper()
	i := bytes.Index(doc, []byte("\nid: "))
	if i < 0 {
		t.Fatalf("no `id:` line in\n%s", doc)
	}
	return string(doc[i+1:])
}

// The synthetic cases of projection.md §7.3, bodies byte for byte as the
// specification prints them (../testdata/projection/*.body, shared with
// package flow's writer test), and whole documents as goldens.
func TestProjectSpecCases(t *testing.T) {
	cases := []struct{ name, workflow, stepMap, body string }{
		{"touching", "touching.yaml", "", "touching.body"},
		{"dfs", "dfs.yaml", "", "dfs.body"},
		{"self", "self.yaml", "", "self.body"},
		{"bare", "bare.yaml", "", "bare.body"},
		{"bare-map", "bare.yaml", "bare.map.yaml", "bare-map.body"},
		{"special", "special.yaml", "", ""},
		{"steps", "steps.yaml", "steps.map.yaml", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "project")
			w := loadWorkflow(t, filepath.Join(dir, c.workflow))
			opts := Options{MaxAttempts: 3}
			if c.stepMap != "" {
				opts.Map = loadMap(t, filepath.Join(dir, c.stepMap), w)
			}
			out, _, ds := Generate(w, opts, YAML)
			if ds.HasErrors() {
				t.Fatalf("refused: %v", ds.Err())
			}
			if c.body != "" {
				want, err := os.ReadFile(filepath.Join("..", "testdata", "projection", c.body))
				if err != nil {
					t.Fatal(err)
				}
				if got := body(t, out); got != string(want) {
					t.Errorf("body differs from the specification:\n--- got\n%s\n--- want\n%s", got, want)
				}
			}
			golden(t, filepath.Join(dir, c.name+".golden"), out)
		})
	}
}

// The header facts of §7.3 and §6.1, asserted as numbers and names.
func TestHeaderFacts(t *testing.T) {
	cases := []struct {
		file                    string
		guarded                 int
		dropped                 string
		version                 string
		states, depth, topLevel int
	}{
		{"touching.yaml", 4, "done", "demo/touching/1", 5, 5, 2},
		{"dfs.yaml", 0, "z", "demo/dfs/1", 6, 5, 3},
		{"self.yaml", 1, "end", "demo/self/1", 3, 3, 2},
	}
	for _, c := range cases {
		w := loadWorkflow(t, filepath.Join("testdata", "project", c.file))
		p, ds := Project(w, Options{})
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		f := p.Facts
		if f.Guarded != c.guarded || strings.Join(f.Dropped, ", ") != c.dropped || f.Source != c.version ||
			f.States != c.states || f.Depth != c.depth || f.TopLevel != c.topLevel || f.MaxAttempts != DefaultMaxAttempts {
			t.Errorf("%s: facts %+v", c.file, f)
		}
		header := strings.Join(f.Header(), "\n")
		for _, want := range []string{c.version, c.dropped, "guarded transition", "--max-attempts (3", "group holding its steps",
			"States: " + strconv.Itoa(c.states), "depth: " + strconv.Itoa(c.depth), "nodes: " + strconv.Itoa(c.topLevel), "early exits", "Do not edit"} {
			if !strings.Contains(header, want) {
				t.Errorf("%s: header lacks %q:\n%s", c.file, want, header)
			}
		}
	}
}

func TestMaxAttemptsIsWrittenVerbatim(t *testing.T) {
	w := loadWorkflow(t, filepath.Join("testdata", "project", "touching.yaml"))
	out, _, ds := Generate(w, Options{MaxAttempts: 7}, YAML)
	if ds.HasErrors() || !bytes.Contains(out, []byte("repeat: {max: 7}")) {
		t.Fatalf("--max-attempts 7 not written: %v\n%s", ds, out)
	}
}

func TestNothingToRun(t *testing.T) {
	w, ds := workflow.Load("t.yaml", []byte("id: demo/t\ntitle: T\ninitial: a\nstates:\n  a: {title: A, terminal: true}\n"))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	_, _, ds = Generate(w, Options{}, YAML)
	if got := ds.Codes(); len(got) != 1 || got[0] != CodeNothingToRun {
		t.Fatalf("got %v", ds)
	}
}

// Output is byte-identical run to run, in YAML and JSON, and the JSON form
// is the same document.
func TestDeterministicAndJSONAgrees(t *testing.T) {
	for _, f := range []string{"touching.yaml", "dfs.yaml", "self.yaml", "special.yaml"} {
		w := loadWorkflow(t, filepath.Join("testdata", "project", f))
		first, _, ds := Generate(w, Options{}, YAML)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		for i := 0; i < 20; i++ {
			again, _, _ := Generate(w, Options{}, YAML)
			if !bytes.Equal(first, again) {
				t.Fatalf("%s: run %d differs", f, i)
			}
		}
		js, _, ds := Generate(w, Options{}, JSON)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		fromYAML, ds1 := flow.CheckBytes("a.yaml", first, flow.CheckOptions{})
		fromJSON, ds2 := flow.CheckBytes("a.json", js, flow.CheckOptions{})
		if ds1.HasErrors() || ds2.HasErrors() {
			t.Fatalf("%s: generated documents refused: %v %v", f, ds1, ds2)
		}
		var a, b bytes.Buffer
		_ = flow.WriteYAML(&a, nil, fromYAML)
		_ = flow.WriteYAML(&b, nil, fromJSON)
		if a.String() != b.String() {
			t.Errorf("%s: YAML and JSON forms differ:\n%s\n---\n%s", f, a.String(), b.String())
		}
	}
}

// Warnings for state ids other readers misread; `.` and `true` make the
// generator's own check refuse the YAML document.
func TestStateIDWarnings(t *testing.T) {
	src := `id: demo/names
title: Names
initial: a-to-b
states:
  a-to-b: {title: A}
  poll-again: {title: P}
  "true": {title: T}
  v1.x: {title: V}
  end: {title: E, terminal: true}
transitions:
  - {from: a-to-b, to: poll-again}
  - {from: poll-again, to: "true"}
  - {from: "true", to: v1.x}
  - {from: v1.x, to: end}
`
	w, ds := workflow.Load("names.yaml", []byte(src))
	ds.Extend(w.Validate())
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	out, _, ds := Generate(w, Options{}, YAML)
	if out != nil {
		t.Fatal("a document the harness refuses was produced")
	}
	codes := strings.Join(ds.Sorted().Codes(), " ")
	// `true` reads back as a boolean: the harness's parse fails first.
	for _, want := range []string{CodeMisreadByGovernor, CodeNotPlainString, CodeRefusedByHarness, "flow_parse_error"} {
		if !strings.Contains(codes, want) {
			t.Errorf("missing %s in %s", want, codes)
		}
	}
	if strings.Count(codes, CodeMisreadByGovernor) != 2 {
		t.Errorf("want two governor warnings, got %s", codes)
	}
}

// A dotted state id alone: the warning, then the flow check's own refusal.
func TestDottedStateIDIsRefused(t *testing.T) {
	src := "id: demo/dots\ntitle: D\ninitial: v1.x\nstates:\n  v1.x: {title: V}\n  end: {title: E, terminal: true}\ntransitions:\n  - {from: v1.x, to: end}\n"
	w, ds := workflow.Load("dots.yaml", []byte(src))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	out, _, ds := Generate(w, Options{}, YAML)
	if got := strings.Join(ds.Sorted().Codes(), " "); out != nil || got != CodeRefusedByHarness+" flow_dotted_id flow_dotted_id" {
		t.Fatalf("got %q, output %v", got, out != nil)
	}
}

func TestControlCharacterWarns(t *testing.T) {
	w := loadWorkflow(t, filepath.Join("testdata", "project", "bare.yaml"))
	m := loadMap(t, filepath.Join("testdata", "project", "bare.map.yaml"), w)
	bell := "ring \a now"
	m.States["work"].Steps[2].Prompt = bell
	_, _, ds := Generate(w, Options{Map: m}, YAML)
	if !strings.Contains(strings.Join(ds.Codes(), " "), CodeControlCharacter) || !ds.HasErrors() {
		t.Fatalf("want a control-character warning and a refusal of the YAML, got %v", ds)
	}
	if js, _, ds := Generate(w, Options{Map: m}, JSON); js == nil {
		t.Fatalf("the JSON form can carry the character: %v", ds)
	}
}

// TestLineBreakCharacterWarns: U+0085, U+2028 and U+2029 pass through q
// raw and the YAML reads back, but not as written: a reader derived from
// libyaml (yaml.v3 among them) takes them for line breaks and folds them,
// so the flow's prompt said another thing than the map's, with no word.
// The YAML is still written, byte for byte (projection.md §6.3), with the
// warning; the JSON form carries them as they are.
func TestLineBreakCharacterWarns(t *testing.T) {
	w := loadWorkflow(t, filepath.Join("testdata", "project", "bare.yaml"))
	for _, r := range []rune{0x85, 0x2028, 0x2029} {
		m := loadMap(t, filepath.Join("testdata", "project", "bare.map.yaml"), w)
		m.States["work"].Steps[2].Prompt = "A" + string(r) + "  B"
		out, _, ds := Generate(w, Options{Map: m}, YAML)
		if out == nil || ds.HasErrors() || len(ds) != 1 || ds[0].Code != CodeControlCharacter ||
			!strings.Contains(ds[0].Message, fmt.Sprintf("holds the character %U, which a YAML reader takes for a line break", r)) {
			t.Errorf("%U: output %t, %v", r, out != nil, ds)
		}
	}
}

func loadMapBytes(src string) (*stepmap.Map, diag.List) {
	return stepmap.Load("map.yaml", []byte(src))
}
