package conformance

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"

	yaml "go.yaml.in/yaml/v3"
)

func init() { register(validateCases...) }

var validateCases = []Case{
	// The project's fixture tree holds one file the hook never reads and
	// validate must refuse: artifacts/lifecycles/README.yaml.
	{Name: "validate/project-tree", Steps: []Step{
		{Args: []string{"aepflow", "validate", "--root", "$TESTDATA/project/tree"}, Exit: 1, Golden: "validate/project-tree.txt"},
		{Args: []string{"aepflow", "validate", "--root", "$TESTDATA/project/tree", "--format", "json"}, Exit: 1, Golden: "validate/project-tree.json"},
	}},
	{Name: "validate/project-files", Steps: []Step{{
		Args: []string{"aepflow", "validate", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "$TESTDATA/project/tree/drivers/fx/flow.yaml"},
		Exit: 0, Stdout: []string{`^ok: 2 documents, 0 problems$`},
	}}},
	{Name: "validate/drive-task-refused", Steps: []Step{{
		// A task is not a tree document: validate names it and refuses it.
		Args: []string{"aepflow", "validate", "$TESTDATA/drive/task.yaml"}, Exit: 1, Stdout: []string{`task`},
	}}},

	// From cmd/aepflow/testdata/script/validate_corpus.txtar.
	{Name: "validate/corpus-tree", Shared: true, Steps: []Step{{
		Args: []string{"aepflow", "validate", "--root", "$SHARED/corpus/tree"}, Exit: 0,
		Stdout: []string{`^ok: 25 documents, 0 problems$`},
	}}},
	{Name: "validate/corpus-files", Shared: true, Steps: []Step{{
		Args: []string{"aepflow", "validate", "$SHARED/corpus/tree/drivers/development/default.yaml", "$SHARED/corpus/tree/workflows/development/default.yaml"},
		Exit: 0, Stdout: []string{`^ok: 2 documents, 0 problems$`},
	}}},

	// From tree/corpus_test.go.
	{Name: "validate/corpus-tree-loads-clean", Shared: true, Check: corpusLoadsClean},
	{Name: "validate/corpus-map-selection", Shared: true, Check: corpusMapSelection},
	// From predicate/corpus_test.go.
	{Name: "validate/corpus-predicates", Shared: true, Check: corpusPredicates},
}

// corpusLoadsClean: the corpus tree loads without a diagnostic and holds
// what the corpus declares.
func corpusLoadsClean(t *testing.T, e *Env) {
	tr, diags := tree.Load(e.SharedPath("corpus", "tree"))
	if len(diags) != 0 {
		t.Fatalf("the corpus tree must load clean:\n%s", testkit.Lines(diags))
	}
	if got := strings.Join(tr.WorkflowIDs(), ","); got != "adp/default" {
		t.Errorf("workflows: %s", got)
	}
	if len(tr.Principles) != 16 || len(tr.Profiles) != 3 || len(tr.Protocols) != 2 || len(tr.Lifecycles) != 2 {
		t.Errorf("counts: %d principles, %d profiles, %d protocols, %d lifecycles",
			len(tr.Principles), len(tr.Profiles), len(tr.Protocols), len(tr.Lifecycles))
	}
}

// corpusMapSelection: the corpus step map is selected by id and by file,
// picked for its workflow, fits it, and holds the verify steps.
func corpusMapSelection(t *testing.T, e *Env) {
	root := e.SharedPath("corpus", "tree")
	tr, _ := tree.Load(root)
	m, diags := stepmap.Select("development/default", tr.StepMapList(), os.ReadFile)
	if m == nil || len(diags) != 0 {
		t.Fatalf("select by id: %v", diags)
	}
	w, err := tr.Workflow(m.Workflow)
	if err != nil || w.ID != "adp/default" || w.Version != 2 {
		t.Fatalf("pinned workflow: %v", err)
	}
	if d := m.CrossValidate(w); len(d) != 0 {
		t.Errorf("cross-validation: %v", d)
	}
	byFile, diags := stepmap.Select(filepath.Join(root, "drivers", "development", "default.yaml"), nil, os.ReadFile)
	if byFile == nil || len(diags) != 0 || byFile.ID != "development/default" {
		t.Errorf("select by file: %v", diags)
	}
	if picked, err := stepmap.Pick(tr.StepMapList(), "adp/default", 2); err != nil || picked != m {
		t.Errorf("pick: %v", err)
	}
	steps := m.States["verify"].Steps
	if len(steps) != 6 || steps[0].Label() != "The unit suite." || steps[4].Evidence.Kind != "property_test_result" {
		t.Errorf("verify steps: %d", len(steps))
	}
}

// corpusPredicates parses every `when`, `applies_when` and `predicates`
// item of the corpus tree: all must parse, and a few must display exactly
// as the engine prints them.
func corpusPredicates(t *testing.T, e *Env) {
	root := e.SharedPath("corpus", "tree")
	var displays []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(readFile(t, path), &doc); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		visitPredicates(&doc, func(key string, n *yaml.Node) {
			items := []*yaml.Node{n}
			if key == "predicates" && n.Kind == yaml.SequenceNode {
				items = n.Content
			}
			for _, it := range items {
				p, ds := predicate.Parse(it, rel, key)
				if len(ds) > 0 {
					t.Errorf("%s: %v", rel, ds)
					continue
				}
				displays = append(displays, p.String())
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"specification.declines_the_request",
		"test.first_result == failed",
		"evidence.missing == 0",
		"(tests.unit.failed == 0 and tests.contract.failed == 0 and static_analysis.errors == 0)",
		"(tests.unit.failed > 0 or tests.contract.failed > 0 or static_analysis.errors > 0)",
		"task.kind in [feature, bugfix]",
		"task.kind not in [incident]",
		"defined(deployment.revision)",
	} {
		if !slices.Contains(displays, want) {
			t.Errorf("no corpus predicate displays as %q", want)
		}
	}
	if len(displays) < 20 {
		t.Errorf("only %d predicates found in the corpus", len(displays))
	}
}

// visitPredicates calls f for the value of every `when`, `applies_when`
// and `predicates` key below n.
func visitPredicates(n *yaml.Node, f func(key string, value *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i].Value; k {
			case "when", "applies_when", "predicates":
				f(k, n.Content[i+1])
				continue
			}
			visitPredicates(n.Content[i+1], f)
		}
		return
	}
	for _, c := range n.Content {
		visitPredicates(c, f)
	}
}
