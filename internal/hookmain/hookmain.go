// Package hookmain is the aepflow-hook program: the b10x harness's
// transition hook, `aepflow drive transition`, in a binary that holds
// nothing else.
//
// The harness starts one process per consultation, so the hook pays its
// binary's start-up every time; aepflow-hook links the decision (package
// transition) and the standard library's flag package, not cobra, pflag or
// any other command, and starts in less time and memory than aepflow
// (bench/transition.md). It answers exactly as `aepflow drive transition`
// does: the same flags (transition.Options.Flags), the same checks, the
// same stdout, stderr and exit codes, its messages prefixed `aepflow-hook:`
// where the verb's read `aepflow: drive transition:`.
//
// Exit codes are the hook protocol's (engine.md §8.6): 0 proceed, stdout
// empty; 2 refuse, stdout exactly {"reason":"…"} and a newline; 1 cannot
// answer, one line on stderr. Usage errors, --help and --version exit 1
// too: 0 means "proceed" and 2 must carry a reason.
package hookmain

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/buildinfo"
	"github.com/aepflow/aepflow/internal/flagword"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/onceflag"
	"github.com/aepflow/aepflow/transition"
)

// Name is the program's name, the prefix of its messages.
const Name = "aepflow-hook"

// exitCannot is the exit code of an answer that could not be given,
// usage errors included.
const exitCannot = 1

// Run runs the hook with the command-line arguments args (without the
// program name) and returns its exit code. A panic is recovered as an
// answer that could not be given (exit 1, one line on stderr): Go's own
// exit code for one is 2, which the harness would read as a refusal
// without its reason.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			printLine(stderr, "internal error: "+fmt.Sprint(r))
			code = exitCannot
		}
	}()
	var opts transition.Options
	var version bool
	fs, err := parse(args, &opts, &version)
	if errors.Is(err, flag.ErrHelp) {
		writeUsage(stdout, fs)
		return exitCannot
	}
	if err != nil {
		printLine(stderr, err.Error())
		return exitCannot
	}
	if version {
		fmt.Fprintln(stdout, buildinfo.Read().Line(Name))
		return exitCannot
	}
	out := transition.Consult(stdin, opts)
	switch out.Kind {
	case transition.Refuse:
		if _, err := stdout.Write(out.Stdout()); err != nil {
			// In aepflow's words, never Go's ("write /dev/stdout: …").
			printLine(stderr, "cannot write to standard output: "+(&fsio.Error{Err: err}).Reason())
			return exitCannot
		}
	case transition.Cannot:
		printLine(stderr, out.Message)
	}
	return out.ExitCode()
}

// printLine prints msg to stderr as the one line "aepflow-hook: <msg>",
// with every control character, line break and bidirectional control
// escaped (diag.EscapeText), as aepflow prints its errors: a message quotes
// paths and flag names from the command line, which could otherwise end
// the line early, forge another or send the terminal an escape.
func printLine(stderr io.Writer, msg string) {
	fmt.Fprintf(stderr, "%s: %s\n", Name, diag.EscapeText(msg))
}

// parse reads args into opts: the hook's flags only, each value checked
// (transition.CheckValue), no positional argument; version is set by
// --version, which the verb's flags do not have (aepflow has its own).
func parse(args []string, opts *transition.Options, version *bool) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet(Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(version, "version", false, "print the program's version, commit, build date and Go version, and exit 1")
	flags := opts.Flags()
	var lists []string
	for _, fl := range flags {
		if fl.List != nil {
			list := fl.List
			fs.Func(fl.Name, fl.Usage, func(v string) error { *list = append(*list, v); return nil })
			lists = append(lists, fl.Name)
			continue
		}
		value := fl.String
		fs.Func(fl.Name, fl.Usage, func(v string) error { *value = v; return nil })
	}
	// A single-valued flag given twice is refused, as aepflow refuses it:
	// the flag package would take the last value without a word, and a
	// second --run would silently govern another run.
	once := onceflag.Guard(fs, append(lists, "version")...) // --version twice is --version, as in aepflow
	if err := fs.Parse(args); err != nil {
		if repeated := once.Err(); repeated != nil {
			return fs, repeated
		}
		if errors.Is(err, flag.ErrHelp) {
			return fs, err
		}
		return fs, flagword.Std(err, fs) // as `aepflow drive transition` words pflag's
	}
	if fs.NArg() > 0 {
		return fs, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return fs, opts.CheckGiven(func(name string) bool { return given[name] })
}

// writeUsage prints the program's help: what it is, its flags and its exit
// codes.
func writeUsage(w io.Writer, fs *flag.FlagSet) {
	var b strings.Builder
	b.WriteString(`aepflow-hook answers the b10x harness's transition hook, as
` + "`aepflow drive transition`" + ` does, in a binary that holds nothing else: it
reads the harness's JSON on stdin and says whether the protocol lets the
run move. It is strictly read-only. ` + "`aepflow hooks`" + ` names it in the hooks
file when it is installed beside aepflow.

Usage:
  aepflow-hook [--project DIR] [--run TASK/N] [--root DIR] [--task FILE]
               [--store DIR] [--map FILE|ID] [--plugin-dir DIR]... < hook.json
  aepflow-hook --help | --version

Flags:
`)
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, usage := flag.UnquoteUsage(f)
		if placeholder != "" {
			placeholder = " " + placeholder
		}
		fmt.Fprintf(&b, "  --%s%s\n        %s\n", f.Name, placeholder, usage)
	})
	b.WriteString(`
Exit codes:
  0  proceed; stdout is empty
  2  refuse; stdout is exactly {"reason":"…"} and a newline
  1  cannot answer (bad stdin, moment, project, documents, task, store, run,
     --map or flags; one line on stderr), and --help and --version (printed
     on stdout). The harness reads it as a refusal.

Example:
  echo '{"hook":"transition","path":"root.implement","moment":"leave","failed":false}' |
    aepflow-hook --project /abs/project --run AUTH-142/3
`)
	io.WriteString(w, b.String())
}
