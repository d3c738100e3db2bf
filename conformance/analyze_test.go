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
