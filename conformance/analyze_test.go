package conformance

func init() { register(analyzeCases...) }

// analyzeCases are analysis.md §11.5 over the corpus: adp/default analysed
// with no error, with and without its step map, and the engine example
// simulated to completion.
var analyzeCases = []Case{
	{Name: "analyze/corpus-default", Shared: true, Steps: []Step{
		{Args: []string{"aepflow", "analyze", "--root", "$SHARED/corpus/tree", "--id", "adp/default"},
			Stdout: []string{`default.yaml:132:11: warning: .*specification.declines_the_request.*\[unproducible_fact\]`,
				`default.yaml:134:5: warning: .*\[overlapping_guards\]`, `default.yaml:194:5: warning: .*\[overlapping_guards\]`,
				`default.yaml:210:5: warning: .*\[overlapping_guards\]`, `default.yaml:215:11: warning: .*review.changes_requested.*\[unproducible_fact\]`,
				`default.yaml:217:5: warning: .*\[overlapping_guards\]`, `default.yaml:223:11: warning: .*review.rejected.*\[unproducible_fact\]`,
				`^0 errors, 8 warnings$`}},
		{Args: []string{"aepflow", "analyze", "--root", "$SHARED/corpus/tree", "--id", "adp/default", "--map", "development/default"},
			Stdout: []string{`default.yaml:125:5: warning: under profile .*specify -> declined.*\[no_step_produces_owed\]`, `^0 errors, 9 warnings$`}},
		// The whole tree: every workflow, still no error.
		{Args: []string{"aepflow", "analyze", "--root", "$SHARED/corpus/tree"}, Stdout: []string{`^0 errors, `}},
	}},
	// The shipped fixture tree holds artifacts/lifecycles/README.yaml, an
	// unreadable file on purpose: the hook never reads artifacts/ (so it
	// answers on this tree), while every command that loads the whole
	// tree refuses it. analyze and simulate load it as validate and flow
	// do, with the same diagnostic; the tree without it is accepted.
	{Name: "analyze/project-tree", Steps: []Step{
		{Args: []string{"aepflow", "validate", "--root", "$TESTDATA/project/tree"}, Exit: 1, Stdout: []string{`README.yaml:2:1: the file is not valid YAML or JSON: .*\[yaml_syntax\]$`}},
		{Args: []string{"aepflow", "analyze", "--root", "$TESTDATA/project/tree"}, Exit: 1, NoStdout: true,
			Stderr: []string{`README.yaml:2:1: the file is not valid YAML or JSON: .*\[yaml_syntax\]$`, `^1 error, 0 warnings$`}},
		{Args: []string{"aepflow", "simulate", "--root", "$TESTDATA/project/tree", "--id", "fx/flow", "--evidence", "$TESTDATA/simulate/passkeys-scenario.yaml"}, Exit: 1, NoStdout: true,
			Stderr: []string{`README.yaml:2:1: the file is not valid YAML or JSON: .*\[yaml_syntax\]$`, `^1 error, 0 warnings$`}},
	}},
	{Name: "analyze/project-tree-readable", Setup: projectTree, Steps: []Step{
		{Args: []string{"aepflow", "analyze", "--root", "tree"}, Stdout: []string{`^0 errors, 2 warnings$`}},
		{Args: []string{"aepflow", "analyze", "--root", "tree", "--map", "fx/flow-steps"}, Exit: 1, Stdout: []string{`\[no_step_produces\]`}},
		{Args: []string{"aepflow", "simulate", "--root", "tree", "--id", "fx/flow", "--map", "fx/flow-steps", "--evidence", "$TESTDATA/simulate/empty.yaml"}, Exit: 4,
			Stdout: []string{"^blocked in `specify` \\(visit 1\\) after 1 move\\(s\\):$"}},
	}},
	{Name: "simulate/corpus-passkeys", Shared: true, Steps: []Step{
		{Args: []string{"aepflow", "simulate", "--root", "$SHARED/corpus/tree", "--id", "adp/default",
			"--task", "$SHARED/corpus/engine-examples/development-passkeys/task.yaml", "--evidence", "$TESTDATA/simulate/passkeys-scenario.yaml"},
			Golden: "simulate/corpus-passkeys.txt"},
		// A workflow the tree lacks is refused, nothing on stdout.
		{Args: []string{"aepflow", "simulate", "--root", "$SHARED/corpus/tree", "--id", "adp/planning",
			"--task", "$SHARED/corpus/engine-examples/development-passkeys/task.yaml", "--evidence", "$TESTDATA/simulate/passkeys-scenario.yaml"},
			Exit: 1, NoStdout: true},
	}},
}
