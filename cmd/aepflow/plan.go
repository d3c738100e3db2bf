package main

import (
	"fmt"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/spf13/cobra"
)

func init() { register("plan", newPlanCmd) }

// maxRepeat is the largest repeat bound the harness reads (a u32).
const maxRepeat = 4294967295

// planFormats lists the values of `plan --format`.
var planFormats = []string{"text", "json"}

func newPlanCmd() *cobra.Command {
	var (
		file, format string
		maxAttempts  uint32
		asJSON       bool
		governed     bool
	)
	cmd := &cobra.Command{
		Use:   "plan --flow FILE [--max-attempts N] [--format text|json] [--governed]",
		Short: "Check a b10x flow document and print its plan",
		Long: `plan reads a flow document (.yaml, .yml or .json), runs every check the b10x
harness applies before a run and the strict checks it silently skips, and
prints the plan: the layers of each group, as ` + "`b10x-harness workflow plan`" + ` does.

Checks run in the harness's stages (read, extension, parse, --max-attempts,
structural, payload), each reporting all of its findings, then the strict
checks. Diagnostics go to stderr as file:line:col: message [code].
--max-attempts N overrides every group's repeat bound, the root's included.
--governed also refuses state groups named like retreat groups.

Exit codes: 0 planned (warnings may be printed on stderr), 1 refused,
2 usage error.`,
		Example: `  aepflow plan --flow flow.yaml
  aepflow plan --flow flow.json --max-attempts 3 --format json
  aepflow plan --flow flow.yaml --governed`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "flow"); err != nil {
				return err
			}
			if err := checkEnum("format", format, planFormats); err != nil {
				return err
			}
			if asJSON {
				if cmd.Flags().Changed("format") && format != "json" {
					return usageError("--json is --format json; it contradicts --format %s", format)
				}
				format = "json"
			}
			asJSON = format == "json"
			doc, ds := checkFlowInput(cmd, file, flow.CheckOptions{MaxAttempts: int(maxAttempts), Governed: governed})
			var p *flow.Plan
			if doc != nil {
				var pds diag.List
				p, pds = flow.NewPlan(doc, int(maxAttempts))
				ds.Extend(pds)
			}
			if err := writeText(cmd.ErrOrStderr(), ds, nil); err != nil {
				return exitWith(exitProblems, fmt.Errorf("cannot write the diagnostics: %v", errText(err)))
			}
			out := cmd.OutOrStdout()
			if ds.HasErrors() {
				if asJSON {
					if err := flow.WriteRefusedJSON(out, ds); err != nil {
						return exitWith(exitProblems, fmt.Errorf("cannot write to standard output: %v", errText(err)))
					}
				}
				return exitWith(exitProblems, nil)
			}
			write := p.WriteText
			if asJSON {
				write = p.WriteJSON
			}
			if err := write(out); err != nil {
				return exitWith(exitProblems, fmt.Errorf("cannot write to standard output: %v", errText(err)))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "flow", "", "flow document `FILE` to check (.yaml, .yml or .json; - reads standard input, JSON or YAML by its content)")
	cmd.Flags().Var((*countValue)(&maxAttempts), "max-attempts", "override every group's repeat bound, `N` ≥ 1")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, or json (the plan or the refusal as one JSON line)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "the same as --format json")
	_ = cmd.Flags().MarkHidden("json")
	cmd.Flags().BoolVar(&governed, "governed", false, "also enforce the naming a governor relies on")
	readsStdin(cmd, "flow")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(planFormats...))
	_ = cmd.RegisterFlagCompletionFunc("flow", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return []string{"yaml", "yml", "json"}, cobra.ShellCompDirectiveFilterFileExt
	})
	return cmd
}

// checkFlowInput reads and checks the flow document --flow names: a file,
// read by its extension, or standard input for `-`, whose format is told
// from its content (flow.DetectFormat: JSON when it starts with `{`).
func checkFlowInput(cmd *cobra.Command, file string, opts flow.CheckOptions) (*flow.Document, diag.List) {
	if file != stdio {
		noteInputs(cmd, file)
		return flow.CheckFile(file, opts)
	}
	data, err := readInput(cmd, "--flow", file, flow.MaxSize)
	if err != nil {
		return nil, diag.List{diag.Errorf("flow_unreadable", "cannot read flow document `%s`: %s", stdinName, errText(err)).InFile(stdinName)}
	}
	raw, ds := flow.ReadAs(stdinName, flow.DetectFormat(data), data)
	if raw == nil {
		return nil, ds
	}
	return flow.Check(raw, opts)
}
