package conformance

import (
	"strings"
	"testing"
)

func init() { register(diffCases...) }

// retitled writes the project's workflow with its review state retitled,
// as a new version of the same file.
func retitled(t *testing.T, e *Env) {
	src := string(readFile(t, e.TestdataPath("project", "tree", "workflows", "fx", "flow.yaml")))
	changed := strings.Replace(src, "title: Review", "title: Final review", 1)
	if changed == src {
		t.Fatal("the fixture workflow has no `title: Review` to change")
	}
	writeFile(t, e, "flow-new.yaml", changed)
}

var diffCases = []Case{
	{Name: "diff/project-workflow", Setup: retitled, Steps: []Step{
		// The same document: no change, exit 0.
		{Args: []string{"aepflow", "diff", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "$TESTDATA/project/tree/workflows/fx/flow.yaml"}, Exit: 0},
		// A retitled state: exit 1 and the change set.
		{Args: []string{"aepflow", "diff", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "flow-new.yaml"}, Exit: 1, Golden: "diff/project-workflow.txt"},
		{Args: []string{"aepflow", "diff", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "flow-new.yaml", "--format", "json"}, Exit: 1, Golden: "diff/project-workflow.json"},
	}},
	{Name: "diff/refusals", Steps: []Step{
		// A workflow against a step map is refused.
		{Args: []string{"aepflow", "diff", "$TESTDATA/project/tree/workflows/fx/flow.yaml", "$TESTDATA/project/tree/drivers/fx/flow.yaml"}, Exit: 1, NoStdout: true},
		{Args: []string{"aepflow", "diff", "$TESTDATA/project/tree/workflows/fx/flow.yaml"}, Exit: 2, NoStdout: true},
	}},
}
