package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/flagword"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/transition"
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

// commandFactory is the constructor of one top-level subcommand, under the
// name its command takes.
type commandFactory struct {
	name  string
	build func() *cobra.Command
}

// commandFactories holds the constructors of the top-level subcommands; each
// command file adds its own in an init function, so that commands stay in
// files of their own.
var commandFactories []commandFactory

// register adds the constructor of the top-level subcommand name (the
// first word of its Use).
func register(name string, build func() *cobra.Command) {
	commandFactories = append(commandFactories, commandFactory{name, build})
}

// newRootCmd builds the whole command tree.
func newRootCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return newRootCmdFor(nil, stdin, stdout, stderr)
}

// newRootCmdFor builds the command tree that the command line args runs:
// when its first word names a top-level subcommand, the root with that
// subcommand alone, else the whole tree. Building one command instead of
// all of them is most of what the transition hook's process start costs
// beyond the runtime's own; every path cobra takes under that subcommand
// (its flags, its verbs, their help and errors) is the same either way,
// while anything else (no command, a flag first, `help`, `completion`, a
// misspelt command and its "did you mean") gets the whole tree.
func newRootCmdFor(args []string, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
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
	only := ""
	if len(args) > 0 {
		only = args[0]
	}
	if f, ok := factoryNamed(only); ok {
		root.AddCommand(f.build())
	} else {
		for _, f := range commandFactories {
			root.AddCommand(f.build())
		}
	}
	// A command name the root does not know gets the groups' wording
	// and "did you mean", not cobra's multi-line one.
	root.Args = cobra.ArbitraryArgs
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return groupRunE(cmd, args)
	}
	// cobra adds completion and help when it executes; add them now, so
	// that guardCommands makes them fail closed too (`completion` with no
	// shell, `help bogus`: both printed help and exited 0).
	root.InitDefaultCompletionCmd()
	root.SetHelpCommand(newHelpCmd())
	root.InitDefaultHelpCmd()
	guardCommands(root)
	// Completion parses a command line's flags more than once and runs
	// nothing, so only a command line that runs refuses a repeated flag.
	if only != cobra.ShellCompRequestCmd && only != cobra.ShellCompNoDescRequestCmd {
		visitCommands(root, onceFlags)
	}
	return root
}

// visitCommands calls visit on cmd and every command under it.
func visitCommands(cmd *cobra.Command, visit func(*cobra.Command)) {
	visit(cmd)
	for _, c := range cmd.Commands() {
		visitCommands(c, visit)
	}
}

// factoryNamed returns the constructor of the top-level subcommand name.
func factoryNamed(name string) (commandFactory, bool) {
	for _, f := range commandFactories {
		if f.name == name {
			return f, true
		}
	}
	return commandFactory{}, false
}

// noArgs is cobra.NoArgs in the project's words: a leaf command given an
// argument is told it takes none (cobra called the argument an "unknown
// command", which sends a user who gave a file looking for a verb).
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("%q takes no arguments, got %q (its files are flags; see %q)", cmd.CommandPath(), args[0], cmd.CommandPath()+" --help")
}

// newHelpCmd returns the help command: cobra's, except that a topic it
// does not know is a usage error with "did you mean", not the root's
// usage and exit 0.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: aepflow help [path to command].",
		Args:  cobra.ArbitraryArgs,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			switch {
			case err != nil:
				return exitWith(exitUsage, err)
			case len(rest) > 0 && cmd.HasSubCommands():
				return exitWith(exitUsage, unknownVerb(cmd, rest))
			case len(rest) > 0:
				return usageError("unknown help topic %q: %q has no verbs", strings.Join(args, " "), cmd.CommandPath())
			}
			return cmd.Help()
		},
	}
}

// guardCommands makes every command of the tree fail closed: a command
// that has subcommands refuses no verb or an unknown one (usage error, with
// cobra's suggestions) instead of printing help and exiting 0, and every
// RunE is wrapped by guardRun.
func guardCommands(cmd *cobra.Command) {
	if cmd.HasSubCommands() && cmd.RunE == nil && cmd.Run == nil && cmd.HasParent() {
		cmd.Args = cobra.ArbitraryArgs
		// Flags after an unknown verb belong to the verb meant: report
		// the verb, not its first flag.
		cmd.FParseErrWhitelist.UnknownFlags = true
		cmd.RunE = groupRunE
	}
	if cmd.RunE != nil {
		cmd.RunE = guardRun(cmd.RunE)
	}
	for _, c := range cmd.Commands() {
		guardCommands(c)
	}
}

// guardRun wraps a command's RunE: an error that carries no exit code (a
// failed write, say) exits 1, since usage errors never reach RunE, and a
// panic is reported as an internal failure (exit 3) instead of crashing
// with Go's exit 2, which means "usage" here and "refuse" to the hook.
func guardRun(runE func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) (err error) {
		defer func() {
			if r := recover(); r != nil {
				where := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
				err = exitWith(internalExit(cmd), fmt.Errorf("%s: internal error: %v (a bug in aepflow; please report it)", where, r))
			}
		}()
		if err = emptyFlags(cmd); err == nil {
			err = emptyArgs(cmd, args)
		}
		if err == nil {
			if err = checkStdinOnce(cmd, args); err == nil {
				err = runE(cmd, args)
			}
		}
		var ee *exitError
		if err != nil && !errors.As(err, &ee) {
			err = exitWith(exitProblems, err)
		}
		return err
	}
}

// emptyFlags refuses a command line that gives a string-valued flag (or
// one value of a repeatable one) the empty string: every such flag either
// names something (a file, a state, an id) or picks among named values, so
// `--snapshot ""` is always a mistake, most often a variable left unset,
// and reading it as "not given" would run the command on its defaults and
// exit 0. It is a usage error naming the flag; under the hook, whose
// protocol fixes its own codes, "cannot answer". No command takes an empty
// value on purpose (docs/decisions.md).
func emptyFlags(cmd *cobra.Command) error {
	var empty string
	check := func(f *pflag.Flag) {
		if empty != "" || !f.Changed {
			return
		}
		var values []string
		switch sv, isSlice := f.Value.(pflag.SliceValue); {
		case isSlice && strings.HasPrefix(f.Value.Type(), "string"):
			values = sv.GetSlice()
		case f.Value.Type() == "string":
			values = []string{f.Value.String()}
		}
		if slices.Contains(values, "") {
			empty = f.Name
		}
	}
	cmd.Flags().VisitAll(check)
	if empty == "" {
		return nil
	}
	err := flagword.Empty(empty)
	if cmd.Annotations[hookAnnotation] != "" {
		return exitWith(hookCannot, fmt.Errorf("drive transition: %v", err))
	}
	return exitWith(exitUsage, err)
}

// emptyArgs refuses, as emptyFlags does a flag, an empty file argument
// (`validate ""`, `diff "" NEW`, the arguments named by argsReadStdin): it
// is a variable left unset, and reading it gave an io_error that named no
// file (`cannot read the file: no such file or directory`).
func emptyArgs(cmd *cobra.Command, args []string) error {
	names := strings.Fields(cmd.Annotations[stdinAnnotation])
	if len(names) == 0 {
		return nil
	}
	for i, a := range args {
		if a == "" {
			return usageError("%s must not be empty", names[min(i, len(names)-1)])
		}
	}
	return nil
}

// groupRunE answers a group command (drive, trace) run with no verb or an
// unknown one: a usage error naming the verbs, with cobra's "did you mean"
// suggestion. Under drive it also prints the hook's refusal line, because
// the hook's exit 2 always carries `{"reason": …}` on stdout.
//
// A flag the group does not know, written before its verb, makes cobra take
// the verb for the flag's value, so the group reads the command line itself
// (stateOf(cmd).args) to name the flag rather than the verb it lacks.
func groupRunE(cmd *cobra.Command, args []string) error {
	err := unknownVerb(cmd, args)
	if flag := strayFlag(cmd, stateOf(cmd).args); flag != "" {
		err = fmt.Errorf("unknown flag %s before the verb of %q: a verb's flags follow the verb (see %q)", flag, cmd.CommandPath(), cmd.CommandPath()+" --help")
	}
	if underDrive(cmd) {
		_ = writeStdout(cmd, transition.RefusalJSON(err.Error()))
	}
	return exitWith(exitUsage, err)
}

// unknownVerb returns the usage error of a group command given no verb or
// an unknown one (args[0]).
func unknownVerb(cmd *cobra.Command, args []string) error {
	var verbs []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			verbs = append(verbs, c.Name())
		}
	}
	var msg string
	switch {
	case len(args) == 0:
		msg = fmt.Sprintf("%q needs a verb: %s (see %q)", cmd.CommandPath(), suggest.OrList(verbs), cmd.CommandPath()+" --help")
	case slices.Contains(verbs, args[0]):
		// Only "--" keeps cobra from taking a verb for the verb.
		msg = fmt.Sprintf("%q follows \"--\", which makes it an argument and not a verb: write %q", args[0], cmd.CommandPath()+" "+args[0])
	default:
		msg = fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2 // cobra's default for the root
		}
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %q?", s[0])
		} else if !cmd.HasParent() {
			msg += fmt.Sprintf(" (see %q)", cmd.CommandPath()+" --help")
		} else {
			msg += "; its verbs are " + suggest.OrList(verbs)
		}
	}
	return errors.New(msg)
}

// strayFlag returns the first flag of raw, the command line, that stands
// between group's name and its verb and that group does not know, or "".
// cobra reads such a flag as taking a value, so the verb it swallows is
// missing from the group's arguments ("needs a verb") or the next word
// stands in its place ("unknown command").
func strayFlag(group *cobra.Command, raw []string) string {
	at := slices.Index(raw, group.Name())
	if at < 0 {
		return ""
	}
	for _, a := range raw[at+1:] {
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			return ""
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		known := group.Flags().Lookup(name) != nil || group.InheritedFlags().Lookup(name) != nil
		if !strings.HasPrefix(a, "--") {
			known = group.Flags().ShorthandLookup(name[:1]) != nil || group.InheritedFlags().ShorthandLookup(name[:1]) != nil
		}
		if !known {
			return a
		}
	}
	return ""
}

// underDrive reports whether cmd is `aepflow drive` or one of its verbs:
// the commands the harness runs as its hook, whose exit codes the hook
// protocol fixes.
func underDrive(cmd *cobra.Command) bool {
	for c := cmd; c != nil && c.HasParent(); c = c.Parent() {
		if !c.Parent().HasParent() {
			return c.Name() == "drive"
		}
	}
	return false
}

// namesDrive reports whether args invoke the hook: their first word that is
// neither a root flag nor a root flag's value is `drive`.
func namesDrive(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return i+1 < len(args) && args[i+1] == "drive"
		case a == "--color":
			i++ // its value follows
		case strings.HasPrefix(a, "-"):
		default:
			return a == "drive"
		}
	}
	return false
}

// internalExit returns the exit code of an internal failure of cmd: 3,
// except under a protocol that fixes its own (the hook: 1, cannot answer).
func internalExit(cmd *cobra.Command) int {
	if underDrive(cmd) {
		return hookCannot
	}
	return exitUndecided
}

// run executes the command line args and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &stdoutWriter{w: stdout}
	code := execute(newRootCmdFor(args, stdin, out, stderr), args, stderr)
	if err := out.failed(); err != nil && code == exitOK {
		// The command could not deliver what it printed, though it
		// did not notice (help, completion): not "done".
		printError(stderr, err)
		return exitProblems
	}
	return code
}

// printError prints err to stderr as the one line "aepflow: <err>"
// (printLine). It is the one place the runner prints an error.
func printError(stderr io.Writer, err error) { printLine(stderr, err.Error()) }

// printLine prints text to stderr as the one line "aepflow: <text>", with
// every control character, line break and bidirectional control of text
// escaped (diag.EscapeText): a line quotes file names, flag values and the
// running binary's path, which could otherwise end the line early, forge
// another or send the terminal an escape. Every line the runner writes to
// stderr of its own goes through it: errors (printError), notes
// ("note: …") and warnings ("warning: …"); diagnostics go through diag's
// printer, which escapes alike.
func printLine(stderr io.Writer, text string) {
	fmt.Fprintf(stderr, "aepflow: %s\n", diag.EscapeText(text))
}

// execute runs the command tree root on args and returns the exit code,
// printing the error (if any) to stderr as "aepflow: <err>" (printError).
func execute(root *cobra.Command, args []string, stderr io.Writer) int {
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(withIOState(context.Background(), args))
	if namesDrive(args) && (cmd == nil || !underDrive(cmd)) {
		// The hook's command line, answered by the root (`aepflow
		// --version drive transition`, a root flag it does not know):
		// not the hook's answer, so neither 0 (proceed) nor 2 (refuse,
		// which carries a reason) but "cannot answer".
		if err != nil {
			printError(stderr, err)
		}
		return hookCannot
	}
	if err == nil {
		if underDrive(cmd) && helpAsked(cmd) {
			// Asking the hook for help is not an answer: exit 0 would
			// let the transition through (`aepflow help drive
			// transition` shows the same text and exits 0).
			return hookCannot
		}
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printError(stderr, ee.err)
		}
		return ee.code
	}
	// cobra's own errors (unknown command, bad arguments) are usage
	// errors, but for a failed write (--version's); under drive, where
	// exit 2 must carry a reason, they are "cannot answer".
	printError(stderr, err)
	var se *stdoutError
	if errors.As(err, &se) {
		return exitProblems
	}
	if cmd != nil && underDrive(cmd) {
		return hookCannot
	}
	return exitUsage
}

// helpAsked reports whether cmd ran because --help or -h was given.
func helpAsked(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("help")
	return f != nil && f.Changed
}
