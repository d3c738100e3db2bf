package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"

	yaml "go.yaml.in/yaml/v3"
)

// corpus returns ../shared/corpus, or skips the test where it is absent.
func corpus(t testing.TB) string { return testshared.Corpus(t) }

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

// The projection of adp/default without a map equals the reference's,
// parsed, key order included; the body is byte-identical.
func TestConformanceReferenceProjection(t *testing.T) {
	dir := corpus(t)
	w := loadWorkflow(t, filepath.Join(dir, "tree", "workflows", "development", "default.yaml"))
	out, facts, ds := Generate(w, Options{MaxAttempts: 3}, YAML)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want, err := os.ReadFile(filepath.Join(dir, "flows", "adp-default.projected.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameTree(parseNode(t, out), parseNode(t, want), "$"); d != "" {
		t.Fatalf("projection differs from the reference at %s", d)
	}
	if body(t, out) != body(t, want) {
		t.Errorf("body is not byte-identical to the reference:\n%s", out)
	}
	f := *facts
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

// The shipped map's behaviour (projection.md §9.4).
func TestConformanceWithShippedMap(t *testing.T) {
	dir := corpus(t)
	w := loadWorkflow(t, filepath.Join(dir, "tree", "workflows", "development", "default.yaml"))
	m := loadMap(t, filepath.Join(dir, "tree", "drivers", "development", "default.yaml"), w)
	out, _, ds := Generate(w, Options{Map: m}, YAML)
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

// A one-state map leaves every other state's node with keys state, summary;
// a map pinned to another major is refused (projection.md §9.5).
func TestConformanceOneStateMapAndStalePin(t *testing.T) {
	dir := corpus(t)
	w := loadWorkflow(t, filepath.Join(dir, "tree", "workflows", "development", "default.yaml"))
	src := "format: aep.driver-steps/1\nid: one/state\nworkflow: adp/default/2\nstates:\n  verify:\n    steps:\n      - {kind: operator, prompt: Look.}\n"
	m, ds := loadMapBytes(src)
	ds.Extend(m.CrossValidate(w))
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	out, _, ds := Generate(w, Options{Map: m}, YAML)
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

func toStrings(v any) []string {
	var out []string
	items, _ := v.([]any)
	for _, it := range items {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}
