// Command aepflow-render lays out Graphviz DOT text and draws it as SVG or
// PNG. It is the companion that `aepflow render --format svg|png` runs: the
// go-graphviz library it links compiles a WebAssembly module when the
// process starts, a cost the main aepflow binary must not pay because it
// also answers the harness's transition hook (rendering.md §6.3,
// docs/render.md). Install both with `go install ./cmd/...`.
//
// Usage:
//
//	aepflow-render [--format svg|png] [--out FILE] [--timeout DURATION] < graph.dot
//	aepflow-render --version
//
// It reads DOT on stdin (at most graphviz.MaxInput bytes, which must end
// within a minute: maxStdinWait) and writes the picture (the format --out's
// extension names when --format is not given) to stdout, or atomically to
// --out (a temporary file in the same directory, then a rename; `-` is
// stdout; a destination that exists and is not a regular file is refused). Unlike `aepflow render`, it writes PNG to
// stdout too: its stdout is normally a pipe back to aepflow.
//
// The library cannot be cancelled, so the layout is bounded in time
// instead: past --timeout (default 60s) the process gives up and exits 1.
// On Linux it dies with its parent (a parent-death signal), so a killed
// `aepflow render` never leaves it running; SIGINT, SIGTERM and SIGHUP
// remove the temporary file of a write in flight.
//
// Exit codes: 0 the picture was written; 1 the DOT could not be read, laid
// out or drawn (syntax error, no graph, over the size caps or the time
// bound, Graphviz failure) or the output could not be written; 2 usage
// error.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/buildinfo"
	"github.com/aepflow/aepflow/internal/deadline"
	"github.com/aepflow/aepflow/internal/flagword"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/onceflag"
	"github.com/aepflow/aepflow/internal/stopsig"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/render/graphviz"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// DefaultTimeout is the time bound of one layout unless --timeout says
// otherwise: generous, since a graph within the size caps lays out in well
// under a second, and the bound only stops a pathological one (one ran
// past a minute at 3 GB).
const DefaultTimeout = 60 * time.Second

// ParentEnv names the variable in which aepflow passes its process id: a
// companion whose parent is already another process (aepflow died before
// the parent-death signal was armed) exits at once.
const ParentEnv = "AEPFLOW_RENDER_PARENT"

func main() {
	dieWithParent()
	stopsig.Handle(fsio.RemoveTemps)
	stopsig.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// layout lays out the DOT text; tests replace it.
var layout = graphviz.Render

// run executes the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	code, err := render(args, stdin, stdout, stderr)
	if err != nil {
		printError(stderr, err)
	}
	return code
}

// printError prints err to stderr as the one line "aepflow-render: <err>",
// with every control character, line break and bidirectional control of
// its message escaped (diag.EscapeText), as aepflow prints its errors: a
// message quotes paths and flag names from the command line, which could
// otherwise end the line early, forge another or send the terminal an
// escape. It is the one place the program prints an error.
func printError(stderr io.Writer, err error) {
	fmt.Fprintf(stderr, "aepflow-render: %s\n", diag.EscapeText(err.Error()))
}

// render runs the command line args and returns the exit code and the
// error run prints, if any.
func render(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("aepflow-render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "svg", "output format: svg or png")
	showVersion := fs.Bool("version", false, "print the version, commit, build date and Go version, and exit")
	out := fs.String("out", "", "write the picture to this file (atomically; - for stdout) instead of stdout")
	timeout := fs.Duration("timeout", DefaultTimeout, "give up on a layout that takes longer than this")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: aepflow-render [--format svg|png] [--out FILE] [--timeout DURATION] < graph.dot\n       aepflow-render --version\n\n"+
			"Lays out DOT text read on stdin and draws it as SVG or PNG (the format --out's\n"+
			"extension names, when --format is not given).\n"+
			"Exit codes: 0 written, 1 render or write failed (or took longer than --timeout), 2 usage error.\n\n"+
			"Examples:\n"+
			"  aepflow render --root tree --id demo/w --format dot | aepflow-render > w.svg\n"+
			"  aepflow render --root tree --id demo/w --format dot | aepflow-render --out w.png\n\nFlags:\n")
		onceflag.PrintDefaults(fs)
	}
	// A flag given twice is refused, as aepflow refuses it: the flag
	// package would take the last --out without a word.
	once := onceflag.Guard(fs, "version") // --version twice is --version, as in aepflow
	// The flag package prints its error, then the whole usage; a usage
	// error is one line here, as in aepflow (--help prints the usage).
	var parseOut bytes.Buffer
	fs.SetOutput(&parseOut)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if errors.Is(err, flag.ErrHelp) {
		_, _ = stderr.Write(parseOut.Bytes())
		return exitOK, nil
	}
	if repeated := once.Err(); repeated != nil {
		return exitUsage, repeated
	}
	if err != nil {
		return exitUsage, flagword.Std(err, fs) // in aepflow's words
	}
	// `--out ""` meant standard output, as if --out were absent; aepflow
	// refuses an empty value for every flag, and so does this program.
	if err := flagword.StdEmpty(fs); err != nil {
		return exitUsage, err
	}
	if *showVersion {
		if _, err := fmt.Fprintln(stdout, buildinfo.Read().Line("aepflow-render")); err != nil {
			return exitFailed, stdoutError(err)
		}
		return exitOK, nil
	}
	if fs.NArg() > 0 {
		return exitUsage, fmt.Errorf("unexpected argument %q; the DOT text comes on stdin", fs.Arg(0))
	}
	if !graphviz.Supported(*format) {
		msg := fmt.Sprintf("unsupported format %q; want svg or png", *format)
		if best, ok := suggest.Closest(*format, graphviz.Formats); ok {
			msg += fmt.Sprintf("; did you mean %q?", best)
		}
		return exitUsage, errors.New(msg)
	}
	if byName := formatOfOut(*out); byName != "" && byName != *format {
		if formatSet(fs) {
			// aepflow's one wording of the contradiction.
			return exitUsage, fmt.Errorf("--format %s contradicts --out %s, which names %s", *format, *out, byName)
		}
		*format = byName
	}
	if *timeout <= 0 {
		return exitUsage, fmt.Errorf("--timeout must be positive, not %v", *timeout)
	}
	dot, err := fsio.ReadAll(boundedStdin(stdin), "stdin", graphviz.MaxInput)
	if err != nil {
		return exitFailed, err
	}
	pic, err := layoutWithin(dot, *format, *timeout)
	if err != nil {
		return exitFailed, err
	}
	if *out == "" || *out == "-" {
		if _, err = stdout.Write(pic); err != nil {
			err = stdoutError(err)
		}
	} else {
		err = fsio.WriteFile(*out, pic, fsio.WriteOptions{Opened: stdinOpened(stdin)})
	}
	if err != nil {
		return exitFailed, err
	}
	return exitOK, nil
}

// maxStdinWait bounds the read of the DOT text in all, from its first
// byte asked: at most 4 MiB, which aepflow writes at once (its stdin is a
// buffer) and any other producer sends in well under it. A pipe left open,
// a terminal or a producer that drips is refused after it, as aepflow
// refuses a document read from `-` (docs/security.md). A variable so that
// tests can make it short.
var maxStdinWait = 60 * time.Second

// boundedStdin returns stdin bounded in time by maxStdinWait
// (deadline.ReaderWithin); past it, a read fails with an *fsio.Error
// naming stdin and the bound.
func boundedStdin(stdin io.Reader) io.Reader {
	return fsio.Expiring(deadline.ReaderWithin(stdin, maxStdinWait), "stdin",
		fmt.Sprintf("it did not end within %v, the bound on reading the DOT text (pipe a file that ends, or redirect one)", maxStdinWait))
}

// stdinOpened is standard input as an input --out may not replace, when
// it is redirected from a regular file (`--out g.dot < g.dot` would
// otherwise overwrite the DOT text with its picture).
func stdinOpened(stdin io.Reader) []fsio.OpenedInput {
	if f, ok := stdin.(*os.File); ok {
		if in, ok := fsio.StatOpened(f, "stdin"); ok {
			return []fsio.OpenedInput{in}
		}
	}
	return nil
}

// stdoutError words a failed write to standard output as aepflow does,
// without Go's "write /dev/stdout:".
func stdoutError(err error) error {
	return fmt.Errorf("cannot write to standard output: %v", (&fsio.Error{Err: err}).Reason())
}

// formatOfOut returns the format out's extension names (svg or png), or ""
// for standard output, no extension or another one.
func formatOfOut(out string) string {
	if out == "" || out == "-" {
		return ""
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".svg":
		return "svg"
	case ".png":
		return "png"
	}
	return ""
}

// formatSet reports whether --format was given on the command line.
func formatSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "format" })
	return set
}

// layoutWithin runs layout and gives up after timeout. The library cannot
// be stopped, so the layout goes on in its goroutine; the process exits
// right after, which ends it.
func layoutWithin(dot []byte, format string, timeout time.Duration) ([]byte, error) {
	render := layout // read here: the goroutine may outlive this call
	pic, err := deadline.Call(timeout, func() ([]byte, error) { return render(dot, format) })
	if errors.Is(err, deadline.ErrExpired) {
		return nil, fmt.Errorf("graphviz did not finish the %s layout within %v (--timeout); the graph is too costly to lay out: use --format dot or mermaid", format, timeout)
	}
	return pic, err
}
