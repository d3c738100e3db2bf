package main

import (
	"fmt"

	"github.com/aepflow/aepflow/transition"
	"github.com/spf13/cobra"
)

func init() { register("drive", newDriveCmd) }

// Exit codes of `drive transition`, fixed by the hook protocol
// (engine.md §8.6, §9): usage errors exit 1 too, because 2 must always
// carry a JSON reason.
const (
	hookProceed = 0
	hookCannot  = 1
	hookRefuse  = 2
)

// hookAnnotation marks a command whose usage errors exit hookCannot.
const hookAnnotation = "aepflow-hook"

// newDriveCmd builds `aepflow drive`, the parent of the drive verbs.
func newDriveCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "drive",
		Short: "Govern a harness run with the AEP engine",
		Long: `The drive verbs let the AEP engine govern a b10x harness run. Only
"transition" exists: the harness's transition hook.

Exit codes: those of the subcommand.`,
		Example: `  aepflow drive transition --project /abs/project < hook.json`,
		Args:    noArgs,
	}
	cmd.AddCommand(newDriveTransitionCmd())
	return cmd
}

// newDriveTransitionCmd builds `aepflow drive transition`.
func newDriveTransitionCmd() *cobra.Command {
	var opts transition.Options
	cmd := &cobra.Command{
		Use:   "transition [--run TASK/N] [--project DIR] [--root DIR] [--task FILE] [--store DIR] [--map FILE|ID] [--plugin-dir DIR]...",
		Short: "Answer the harness's transition hook from the AEP engine",
		Long: `transition answers the b10x harness's transition hook: asked before a flow
group runs (enter) and after it finished (leave), it says whether the
protocol lets the run move (engine.md §8).

It reads one JSON document on stdin; only hook, path, moment and failed are
read, other keys are ignored:

  {"hook":"transition","flow":"adp/default","path":"root.implement-to-review",
   "moment":"leave","attempt":2,"of":3,"failed":false,"handoff":{},"workspace":"/ws"}

The group path names a workflow state by its last segment: "root" is the
container, "<state>-again" is that state, "<first>-to-<last>" is the first
state on enter and the last on leave, anything else is the state of that
name. Without --run the answer comes from a fresh execution placed on that
state; with --run, from the run's last committed snapshot.

The verb is strictly read-only: it never creates runs/, never migrates a
legacy run, takes no lock and writes no file. It loads protocols/,
principles/, workflows/ and profiles/ only; drivers/ only for --map ID.
An explicit --map (a file, or a step-map id of the tree's drivers/) must be
a valid step map that fits the task's workflow; a map never changes the
answer.

The aepflow-hook program is this verb in a binary of its own, which starts
in less time and memory; aepflow hooks names it when it is installed beside
aepflow (docs/drive-transition.md).

Exit codes:
  0  proceed; stdout is empty
  2  refuse; stdout is exactly {"reason":"…"} and a newline
  1  cannot answer (bad stdin, moment, project, documents, task, store, run,
     --map or flags); one line on stderr. The harness reads it as a refusal.`,
		Example: `  # what the harness does before running the group root.specify
  echo '{"hook":"transition","path":"root.specify","moment":"enter"}' |
    aepflow drive transition --project /abs/project

  # leaving a group, governed by run AUTH-142/3
  echo '{"hook":"transition","path":"root.implement","moment":"leave","failed":false}' |
    aepflow drive transition --project /abs/project --run AUTH-142/3

  # write the hooks file that makes the harness ask this verb
  aepflow hooks --out hooks.json --project /abs/project`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return exitWith(hookCannot, fmt.Errorf("drive transition: unexpected argument %q", args[0]))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if helpAsked(cmd) {
				// `--help=false` (or `-h=false`): cobra runs the verb, and
				// its answer came out as given when it refused but as
				// exit 1 with nothing said when it let the move through.
				// Any help flag is a question, not a consultation, as
				// aepflow-hook (Go's flag package) takes it: the help, exit 1.
				if err := cmd.Help(); err != nil {
					return exitWith(hookCannot, stdoutFailed(err))
				}
				return exitWith(hookCannot, nil)
			}
			if err := emptyPathFlags(cmd, &opts); err != nil {
				return err
			}
			out := transition.Consult(cmd.InOrStdin(), opts)
			switch out.Kind {
			case transition.Refuse:
				if _, err := cmd.OutOrStdout().Write(out.Stdout()); err != nil {
					return exitWith(hookCannot, fmt.Errorf("drive transition: %w", stdoutFailed(err)))
				}
				return exitWith(hookRefuse, nil)
			case transition.Cannot:
				return exitWith(hookCannot, fmt.Errorf("drive transition: %s", out.Message))
			}
			return nil
		},
	}
	f := cmd.Flags()
	for _, fl := range opts.Flags() {
		if fl.List != nil {
			f.StringArrayVar(fl.List, fl.Name, nil, fl.Usage)
		} else {
			f.StringVar(fl.String, fl.Name, "", fl.Usage)
		}
	}
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return exitWith(hookCannot, fmt.Errorf("drive transition: %v", flagError(cmd, err)))
	})
	// The hook's exit codes hold for the shared flags too (--color).
	cmd.Annotations = map[string]string{hookAnnotation: "true"}
	return cmd
}

// emptyPathFlags refuses a path flag given a value the hook can never mean
// (transition.CheckValue: the empty string, or - while the hook's stdin is
// the harness's JSON).
func emptyPathFlags(cmd *cobra.Command, opts *transition.Options) error {
	if err := opts.CheckGiven(cmd.Flags().Changed); err != nil {
		return exitWith(hookCannot, fmt.Errorf("drive transition: %v", err))
	}
	return nil
}
