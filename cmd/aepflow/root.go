package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command except where a protocol fixes its own
// (the transition hook: 0/2/1, engine.md §8.6; the trace verbs, trace.md §6.3).
const (
	// exitOK: the command ran and found nothing wrong.
	exitOK = 0
	// exitProblems: problems were found, or the command refused its input.
	exitProblems = 1
	// exitUsage: the command line itself is wrong.
	exitUsage = 2
	// exitUndecided: the command could not decide, or failed internally.
	exitUndecided = 3
)

// exitError carries an exit code through cobra's error return. A nil err
// means the message (if any) was already printed.
type exitError struct {
	code int
	err  error
}

// Error returns the wrapped error's message, or the exit status.
func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

// Unwrap returns the wrapped error.
func (e *exitError) Unwrap() error { return e.err }

// exitWith returns an error that makes run exit with code, printing err (if
// non-nil) to stderr as "aepflow: <err>".
func exitWith(code int, err error) error { return &exitError{code: code, err: err} }

// usageError returns an exit-2 error for a bad command line.
func usageError(format string, args ...any) error {
	return exitWith(exitUsage, fmt.Errorf(format, args...))
}

// commandFactories holds the constructors of the top-level subcommands; each
// command file adds its own in an init function, so that commands stay in
// files of their own.
var commandFactories []func() *cobra.Command

// register adds a top-level subcommand constructor.
func register(f func() *cobra.Command) { commandFactories = append(commandFactories, f) }

// newRootCmd builds the whole command tree.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "aepflow",
		Short: "Validate, project, render and govern AEP workflows",
		Long: `aepflow is a toolchain for AEP, a protocol that governs agent work: workflows
are guarded state machines, evidence from verifiers decides the guards, and the
b10x harness runs the steps.

Exit codes: 0 clean, 1 problems found or input refused, 2 usage error,
3 undecided or internal failure (the hook and trace verbs document their own).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return exitWith(exitUsage, flagError(cmd, err))
	})
	addColorFlag(root)
	addVersionFlag(root)
	root.PersistentPreRunE = checkColor
	for _, f := range commandFactories {
		root.AddCommand(f())
	}
	return root
}

// run executes the command line args and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "aepflow: %v\n", ee.err)
		}
		return ee.code
	}
	// cobra's own errors (unknown command, bad arguments) are usage errors.
	fmt.Fprintf(stderr, "aepflow: %v\n", err)
	return exitUsage
}
