package conformance

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/hookmatrix"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"

	yaml "go.yaml.in/yaml/v3"
)

func init() { register(flowCases...) }

// projectTree copies the project fixture's tree into $WORK/tree without
// artifacts/: its README.yaml is deliberately unreadable (the hook never
// reads lifecycles), and commands that load the whole tree refuse it.
func projectTree(t *testing.T, e *Env) {
	hookmatrix.CopyDir(t, e.TestdataPath("project", "tree"), e.WorkPath("tree"), "artifacts")
}

var flowCases = []Case{
	{Name: "flow/project-with-map", Setup: projectTree, Steps: []Step{
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--map", "fx/flow-steps"}, Golden: "flow/project-with-map.yaml",
			Stderr: []string{`0 errors, 6 warnings`, `\[flow_llm_no_prompt\]$`}},
		// Written, then kept honest: --check is quiet on a fresh file and
		// exits 1 with a diff on a stale one.
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow/1", "--map", "fx/flow-steps", "--out", "flow.yaml"},
			Stdout: []string{`^flow.yaml$`}, Files: map[string]string{"flow.yaml": "flow/project-with-map.yaml"}},
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--map", "fx/flow-steps", "--out", "flow.yaml", "--check"}, NoStdout: true},
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--out", "flow.yaml", "--check"}, Exit: 1,
			Stdout: []string{`^--- flow.yaml$`, `^\+\+\+ flow.yaml \(regenerated\)$`}, Stderr: []string{`flow.yaml is stale`}},
	}},
	{Name: "flow/project-json", Setup: projectTree, Steps: []Step{
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--format", "json", "--max-attempts", "5"}, Golden: "flow/project.json"},
	}},
	{Name: "flow/project-workflow-file", Steps: []Step{
		// Outside any tree, --workflow and a map file give the same flow.
		{Args: []string{"aepflow", "flow", "--workflow", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "--map", "$TESTDATA/project/tree/drivers/fx/flow.yaml"},
			Golden: "flow/project-with-map.yaml"},
	}},
	{Name: "flow/project-refusals", Setup: projectTree, Steps: []Step{
		// The project's whole tree holds an unreadable file: refused.
		{Args: []string{"aepflow", "flow", "--root", "$TESTDATA/project/tree", "--id", "fx/flow"}, Exit: 1, NoStdout: true, Stderr: []string{`\[yaml_syntax\]`}},
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow/2"}, Exit: 1, NoStdout: true, Stderr: []string{`\[unknown_workflow\]`}},
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--map", "fx/nothing"}, Exit: 1, NoStdout: true, Stderr: []string{`\[unknown_step_map\]`}},
		{Args: []string{"aepflow", "flow", "--root", "tree"}, Exit: 2, NoStdout: true},
	}},

	// The corpus: the reference projection of adp/default/2, its body byte
	// for byte (projection.md §9.1).
	{Name: "flow/corpus-reference", Shared: true, Steps: []Step{
		{Args: []string{"aepflow", "flow", "--root", "$SHARED/corpus/tree", "--id", "adp/default/2"}, Then: func(t *testing.T, e *Env, r Result) {
			want := readFile(t, e.SharedPath("corpus", "flows", "adp-default.projected.yaml"))
			if body(t, []byte(r.Stdout)) != body(t, want) {
				t.Errorf("the body is not the reference's:\n%s", r.Stdout)
			}
		}},
		{Args: []string{"aepflow", "flow", "--root", "$SHARED/corpus/tree", "--id", "adp/default/2", "--map", "development/default", "--out", "flow.yaml"},
			Stdout: []string{`^flow.yaml$`}},
		{Args: []string{"aepflow", "plan", "--flow", "flow.yaml", "--governed"}, Stdout: []string{`^adp/default$`, `^    root.implement-to-review \(repeat: max 3\)$`}},
	}},

	// From compiler/conformance_test.go and workflow/conformance_test.go.
	{Name: "flow/corpus-projection", Shared: true, Check: corpusReferenceProjection},
	{Name: "flow/corpus-shipped-map", Shared: true, Check: corpusWithShippedMap},
	{Name: "flow/corpus-one-state-map-and-stale-pin", Shared: true, Check: corpusOneStateMapAndStalePin},
	{Name: "flow/corpus-layout", Shared: true, Check: corpusLayout},
}

// body returns a flow document from its `id:` line on: what follows the
// header comment.
func body(t testing.TB, doc []byte) string {
	t.Helper()
	i := bytes.Index(doc, []byte("\nid: "))
	if i < 0 {
		t.Fatalf("no `id:` line in\n%s", doc)
	}
	return string(doc[i+1:])
}

// corpusWorkflow loads and validates adp/default/2 from the corpus.
func corpusWorkflow(t testing.TB, e *Env) *workflow.Workflow {
	t.Helper()
	path := e.SharedPath("corpus", "tree", "workflows", "development", "default.yaml")
	w, ds := workflow.Load(path, readFile(t, path))
	if w != nil {
		ds.Extend(w.Validate())
	}
	if ds.HasErrors() {
		t.Fatalf("%s does not load: %v", path, ds.Err())
	}
	return w
}

// loadMap loads a step map and cross-validates it against w.
func loadMap(t testing.TB, path string, w *workflow.Workflow) *stepmap.Map {
	t.Helper()
	m, ds := stepmap.Load(path, readFile(t, path))
	ds.Extend(m.CrossValidate(w))
	if ds.HasErrors() {
		t.Fatalf("%s does not apply: %v", path, ds.Err())
	}
	return m
}

func loadMapBytes(src string) (*stepmap.Map, diag.List) { return stepmap.Load("map.yaml", []byte(src)) }

// sameTree compares two YAML node trees by kind, resolved tag, value and
// mapping key order, ignoring comments and styles (projection.md §9.1).
func sameTree(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || (a.Kind == yaml.ScalarNode && a.Value != b.Value) {
		return path + ": " + describe(a) + " vs " + describe(b)
	}
	if len(a.Content) != len(b.Content) {
		return path + ": different number of children"
	}
	for i := range a.Content {
		sub := path
		if a.Kind == yaml.MappingNode {
			sub += "." + a.Content[i-i%2].Value
		} else {
			sub += "[" + strconv.Itoa(i) + "]"
		}
		if d := sameTree(a.Content[i], b.Content[i], sub); d != "" {
			return d
		}
	}
	return ""
}

func describe(n *yaml.Node) string { return n.ShortTag() + " " + n.Value }

func parseNode(t *testing.T, data []byte) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

// corpusReferenceProjection: the projection of adp/default without a map
// equals the reference's, parsed, key order included; the body is
// byte-identical; the header facts are projection.md §6.1's.
func corpusReferenceProjection(t *testing.T, e *Env) {
	w := corpusWorkflow(t, e)
	out, proj, ds := compiler.Generate(w, compiler.Options{MaxAttempts: 3}, compiler.YAML)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := readFile(t, e.SharedPath("corpus", "flows", "adp-default.projected.yaml"))
	if d := sameTree(parseNode(t, out), parseNode(t, want), "$"); d != "" {
		t.Fatalf("projection differs from the reference at %s", d)
	}
	if body(t, out) != body(t, want) {
		t.Errorf("body is not byte-identical to the reference:\n%s", out)
	}
	f := *proj
	if f.Source != "adp/default/2" || f.Guarded != 11 || strings.Join(f.Dropped, ", ") != "complete, declined" ||
		f.States != 10 || f.Depth != 9 || f.TopLevel != 5 {
		t.Errorf("header facts %+v differ from projection.md §6.1", f)
	}
}

type payload = map[string]any

// flowNodes indexes every node of a generated document by id, with the
// keys of its run payload in order.
func flowNodes(t *testing.T, data []byte) (map[string]*yaml.Node, map[string][]string) {
	t.Helper()
	root := parseNode(t, data).Content[0]
	byID := map[string]*yaml.Node{}
	keys := map[string][]string{}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		var id string
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch n.Content[i].Value {
			case "id":
				id = n.Content[i+1].Value
			case "nodes":
				for _, c := range n.Content[i+1].Content {
					visit(c)
				}
			case "run":
				for j := 0; j < len(n.Content[i+1].Content); j += 2 {
					keys[id] = append(keys[id], n.Content[i+1].Content[j].Value)
				}
			}
		}
		byID[id] = n
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "root" {
			visit(root.Content[i+1])
		}
	}
	return byID, keys
}

func runOf(t *testing.T, n *yaml.Node) payload {
	t.Helper()
	var m struct {
		Run   payload  `yaml:"run"`
		Needs []string `yaml:"needs"`
	}
	if err := n.Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Run == nil {
		m.Run = payload{}
	}
	needs := make([]any, len(m.Needs))
	for i, n := range m.Needs {
		needs[i] = n
	}
	m.Run["needs"] = needs
	return m.Run
}

func toStrings(v any) []string {
	var out []string
	items, _ := v.([]any)
	for _, it := range items {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}

// corpusWithShippedMap is the shipped map's behaviour (projection.md §9.4).
func corpusWithShippedMap(t *testing.T, e *Env) {
	w := corpusWorkflow(t, e)
	m := loadMap(t, e.SharedPath("corpus", "tree", "drivers", "development", "default.yaml"), w)
	out, _, ds := compiler.Generate(w, compiler.Options{Map: m}, compiler.YAML)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	nodes, keys := flowNodes(t, out)
	for _, id := range []string{"receive-1", "specify-1", "decompose-1"} {
		if got := strings.Join(keys[id], ","); got != "state,summary,kind,prompt,scope,harness,description" {
			t.Errorf("%s keys = %s", id, got)
		}
		if runOf(t, nodes[id])["harness"] != "b10x" {
			t.Errorf("%s harness is not b10x", id)
		}
	}
	scope := runOf(t, nodes["receive-1"])["scope"]
	wantScope := []any{".engineering/planning/**=denied", "crates/**=allowed", "docs/**=allowed", "conformance/**=allowed", "drivers/**=allowed", "**=denied"}
	if !slices.Equal(toStrings(scope), toStrings(wantScope)) {
		t.Errorf("receive-1 scope = %v", scope)
	}
	var kinds []string
	for i := 1; i <= 3; i++ {
		r := runOf(t, nodes["establish_verifiers-"+strconv.Itoa(i)])
		kinds = append(kinds, r["kind"].(string))
		if i > 1 && strings.Join(toStrings(r["needs"]), ",") != "establish_verifiers-"+strconv.Itoa(i-1) {
			t.Errorf("establish_verifiers-%d is not chained", i)
		}
	}
	if _, extra := nodes["establish_verifiers-4"]; extra || strings.Join(kinds, ",") != "llm,command,operator" {
		t.Errorf("establish_verifiers steps = %v", kinds)
	}
	ev2 := runOf(t, nodes["establish_verifiers-2"])
	ev := ev2["evidence"].(payload)
	if strings.Join(toStrings(ev2["command"]), " ") != "cargo test --workspace" || ev["kind"] != "test_result" || ev["verifier"] != "test-runner" || ev["suite"] != "unit" {
		t.Errorf("establish_verifiers-2 = %v", ev2)
	}
	if !strings.Contains(runOf(t, nodes["review-1"])["prompt"].(string), "Review this change as a whole") {
		t.Error("review-1 prompt")
	}
	if c := bytes.Count(out, []byte("repeat:")); c != 1 || !bytes.Contains(out, []byte("- id: implement-to-review\n")) {
		t.Errorf("want one repeating group implement-to-review, got %d repeats", c)
	}
	for _, s := range w.StateIDs() {
		if w.States[s].Terminal {
			if _, ok := nodes[s]; ok {
				t.Errorf("terminal state %s projected", s)
			}
			continue
		}
		for i := 1; ; i++ {
			n, ok := nodes[s+"-"+strconv.Itoa(i)]
			if !ok {
				if i == 1 {
					t.Errorf("state %s has no step", s)
				}
				break
			}
			if runOf(t, n)["state"] != s {
				t.Errorf("%s-%d run.state wrong", s, i)
			}
		}
	}
}

// corpusOneStateMapAndStalePin: a one-state map leaves every other state's
// node with keys state, summary; a map pinned to another major is refused
// (projection.md §9.5).
func corpusOneStateMapAndStalePin(t *testing.T, e *Env) {
	w := corpusWorkflow(t, e)
	src := "format: aep.driver-steps/1\nid: one/state\nworkflow: adp/default/2\nstates:\n  verify:\n    steps:\n      - {kind: operator, prompt: Look.}\n"
	m, ds := loadMapBytes(src)
	ds.Extend(m.CrossValidate(w))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	out, _, ds := compiler.Generate(w, compiler.Options{Map: m}, compiler.YAML)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	_, keys := flowNodes(t, out)
	for id, k := range keys {
		if id != "verify-1" && strings.Join(k, ",") != "state,summary" {
			t.Errorf("%s keys = %v", id, k)
		}
	}
	stale, _ := loadMapBytes(strings.Replace(src, "adp/default/2", "adp/default/1", 1))
	cross := stale.CrossValidate(w)
	if got := cross.Codes(); len(got) != 1 || got[0] != "version_mismatch" ||
		!strings.Contains(cross[0].Message+cross[0].Path, "adp/default/1") || !strings.Contains(cross[0].Message, "2") ||
		!strings.Contains(cross[0].Path, "one/state") {
		t.Errorf("stale pin: %v", cross)
	}
}

// corpusLayout loads adp/default/2 from the corpus: it must be clean, and
// its layout must be the table of projection.md §3.
func corpusLayout(t *testing.T, e *Env) {
	path := e.SharedPath("corpus", "tree", "workflows", "development", "default.yaml")
	w, diags := workflow.Load("default.yaml", readFile(t, path))
	diags.Extend(w.Validate())
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d.Error())
	}
	if w.ID != "adp/default" || w.Version != 2 || w.Initial != "receive" || len(w.States) != 10 || len(w.Transitions) != 13 {
		t.Fatalf("header: got %s/%d initial %s, %d states, %d transitions", w.ID, w.Version, w.Initial, len(w.States), len(w.Transitions))
	}
	if got := w.GuardedCount(); got != 11 {
		t.Errorf("guarded transitions: got %d, want 11", got)
	}
	want := []struct {
		state              string
		disc, layer, colum int
	}{
		{"receive", 0, 0, 0}, {"specify", 1, 1, 0}, {"decompose", 3, 2, 0},
		{"establish_verifiers", 4, 3, 0}, {"implement", 5, 4, 0}, {"verify", 6, 5, 0},
		{"adversarial_verify", 7, 6, 0}, {"review", 8, 7, 0}, {"declined", 2, 8, 0},
		{"complete", 9, 8, 1},
	}
	l := workflow.ComputeLayout(w)
	for _, row := range want {
		got := [3]int{l.Disc(row.state), l.Layer(row.state), l.Column(row.state)}
		if got != [3]int{row.disc, row.layer, row.colum} {
			t.Errorf("%s: disc/layer/column = %v, want %v", row.state, got, [3]int{row.disc, row.layer, row.colum})
		}
	}
	if l.Depth != 9 {
		t.Errorf("depth %d, want 9", l.Depth)
	}
	wantClosing := [][2]string{{"adversarial_verify", "implement"}, {"review", "implement"}, {"verify", "implement"}}
	if got := l.Closing(); !slices.Equal(got, wantClosing) {
		t.Errorf("closing edges %v, want %v", got, wantClosing)
	}
	for _, tr := range w.Transitions {
		closing := slices.Contains(wantClosing, [2]string{tr.From, tr.To})
		if l.IsBack(tr.From, tr.To) != closing {
			t.Errorf("IsBack(%s, %s) = %v, want %v", tr.From, tr.To, !closing, closing)
		}
	}
}
