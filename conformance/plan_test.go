package conformance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/flow"
)

func init() { register(planCases...) }

var planCases = []Case{
	// The project's flow, projected then planned, as a user checks it
	// before handing it to the harness.
	{Name: "plan/project-flow", Setup: projectTree, Steps: []Step{
		{Args: []string{"aepflow", "flow", "--root", "tree", "--id", "fx/flow", "--map", "fx/flow-steps", "--out", "flow.yaml"}, Stdout: []string{`^flow.yaml$`}},
		{Args: []string{"aepflow", "plan", "--flow", "flow.yaml", "--governed"}, Golden: "plan/project-flow.txt", Stderr: []string{`\[flow_llm_no_prompt\]`}},
		{Args: []string{"aepflow", "plan", "--flow", "flow.yaml", "--json", "--max-attempts", "2"}, Golden: "plan/project-flow.json"},
	}},
	{Name: "plan/refusals", Setup: func(t *testing.T, e *Env) {
		writeFile(t, e, "self.yaml", "id: d\nroot:\n  id: root\n  nodes:\n    - {id: a, needs: [a]}\n")
		writeFile(t, e, "flow.txt", "id: d\n")
	}, Steps: []Step{
		{Args: []string{"aepflow", "plan", "--flow", "self.yaml"}, Exit: 1, NoStdout: true, Stderr: []string{`\[flow_self_need\]`}},
		{Args: []string{"aepflow", "plan", "--flow", "flow.txt"}, Exit: 1, NoStdout: true},
		{Args: []string{"aepflow", "plan", "--flow", "$WORK"}, Exit: 1, NoStdout: true},
		{Args: []string{"aepflow", "plan"}, Exit: 2, NoStdout: true},
	}},

	// The corpus's projected flow plans as the harness plans it.
	{Name: "plan/corpus-flow", Shared: true, Steps: []Step{
		{Args: []string{"aepflow", "plan", "--flow", "$SHARED/corpus/flows/adp-default.projected.yaml", "--governed"}, Golden: "plan/corpus-flow.txt"},
	}},

	// From flow/conformance_test.go.
	{Name: "plan/corpus-harness-scenarios", Shared: true, Check: harnessScenarios},
	{Name: "plan/corpus-flows", Shared: true, Check: corpusFlows},
}

// scenarioCodes maps the harness's refusal messages to our codes.
var scenarioCodes = []struct{ text, code string }{
	{"needs itself", "flow_self_need"},
	{"not one of its siblings", "flow_unknown_need"},
	{"twice", "flow_duplicate_id"},
	{"holds no nodes", "flow_empty_group"},
	{"repeat at most 0", "flow_repeat_zero"},
}

// harnessScenarios checks every harness scenario's document: those the
// harness refuses we refuse with the matching code as our first error;
// those it runs we accept (warnings allowed).
func harnessScenarios(t *testing.T, e *Env) {
	dir := e.SharedPath("corpus", "harness-scenarios")
	files, err := filepath.Glob(filepath.Join(dir, "flow-*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", dir, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
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
			if err := json.Unmarshal(readFile(t, file), &sc); err != nil || len(sc.Timeline) == 0 {
				t.Fatalf("not a scenario: %v", err)
			}
			step := sc.Timeline[0]
			_, ds := flow.CheckBytes("document.json", step.Input.Document, flow.CheckOptions{})
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

// corpusFlows checks that the reference's projected flows pass every check
// and that our writer reproduces their bodies byte for byte.
func corpusFlows(t *testing.T, e *Env) {
	files, _ := filepath.Glob(e.SharedPath("corpus", "flows", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no corpus flows")
	}
	for _, file := range files {
		data := readFile(t, file)
		d, ds := flow.CheckBytes(filepath.Base(file), data, flow.CheckOptions{Governed: true})
		if ds.HasErrors() {
			t.Errorf("%s refused: %v", file, ds.Err())
			continue
		}
		body := data[strings.Index(string(data), "\nid: ")+1:]
		var b strings.Builder
		if err := flow.WriteYAML(&b, nil, withGroupComments(d, string(body))); err != nil {
			t.Fatal(err)
		}
		if b.String() != string(body) {
			t.Errorf("%s: rewritten body differs:\n%s", file, b.String())
		}
	}
}

// withGroupComments restores group comments from the source text (the
// reader drops comments): a `# ` line directly above `- id: <group>`.
func withGroupComments(d *flow.Document, src string) *flow.Document {
	lines := strings.Split(src, "\n")
	comments := map[string]string{}
	for i := 1; i < len(lines); i++ {
		prev := strings.TrimSpace(lines[i-1])
		if id, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "- id: "); ok && strings.HasPrefix(prev, "# ") {
			comments[id] = strings.TrimPrefix(prev, "# ")
		}
	}
	var walk func(n *flow.Node)
	walk = func(n *flow.Node) {
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
