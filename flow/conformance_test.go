package flow

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"
)

// sharedDir returns ../shared, or skips the test where it is absent.
func sharedDir(t *testing.T) string { return testshared.Dir(t) }

// scenarioCodes maps the harness's refusal messages to our codes.
var scenarioCodes = []struct{ text, code string }{
	{"needs itself", "flow_self_need"},
	{"not one of its siblings", "flow_unknown_need"},
	{"twice", "flow_duplicate_id"},
	{"holds no nodes", "flow_empty_group"},
	{"repeat at most 0", "flow_repeat_zero"},
}

// TestHarnessScenarios checks every harness scenario's document: those the
// harness refuses we refuse with the matching code as our first error; those
// it runs we accept (warnings allowed).
func TestHarnessScenarios(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "corpus", "harness-scenarios")
	files, err := filepath.Glob(filepath.Join(dir, "flow-*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", dir, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var sc struct {
				Timeline []struct {
					Input struct {
						Document json.RawMessage `json:"document"`
					} `json:"input"`
					Response struct {
						Diagnostic *string `json:"diagnostic"`
					} `json:"response"`
				} `json:"timeline"`
			}
			if err := json.Unmarshal(data, &sc); err != nil || len(sc.Timeline) == 0 {
				t.Fatalf("not a scenario: %v", err)
			}
			step := sc.Timeline[0]
			_, ds := CheckBytes("document.json", step.Input.Document, CheckOptions{})
			if step.Response.Diagnostic == nil {
				if ds.HasErrors() {
					t.Errorf("the harness runs it; we refuse: %v", ds.Err())
				}
				return
			}
			want := ""
			for _, m := range scenarioCodes {
				if strings.Contains(*step.Response.Diagnostic, m.text) {
					want = m.code
					break
				}
			}
			if want == "" {
				t.Fatalf("no code known for the harness's refusal %q", *step.Response.Diagnostic)
			}
			errs := ds.Errors()
			if len(errs) == 0 || errs[0].Code != want {
				t.Errorf("harness refuses with %q; we report %v, want first code %s", *step.Response.Diagnostic, ds.Codes(), want)
			}
		})
	}
}

// TestCorpusFlows checks that the reference's projected flows pass every
// check and that our writer reproduces their bodies byte for byte.
func TestCorpusFlows(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(t), "corpus", "flows", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no corpus flows")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, ds := CheckBytes(filepath.Base(file), data, CheckOptions{Governed: true})
		if ds.HasErrors() {
			t.Errorf("%s refused: %v", file, ds.Err())
			continue
		}
		body := data[strings.Index(string(data), "\nid: ")+1:]
		var b strings.Builder
		if err := WriteYAML(&b, nil, withGroupComments(d, string(body))); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(body) {
			t.Errorf("%s: rewritten body differs:\n%s", file, b.String())
		}
	}
}

// withGroupComments restores group comments from the source text (the reader
// drops comments): a `# ` line directly above `- id: <group>`.
func withGroupComments(d *Document, src string) *Document {
	lines := strings.Split(src, "\n")
	comments := map[string]string{}
	for i := 1; i < len(lines); i++ {
		prev := strings.TrimSpace(lines[i-1])
		if id, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "- id: "); ok && strings.HasPrefix(prev, "# ") {
			comments[id] = strings.TrimPrefix(prev, "# ")
		}
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.IsGroup() {
			n.Comment = comments[n.ID]
		}
		for _, c := range n.Nodes {
			walk(c)
		}
	}
	walk(d.Root)
	return d
}
