// Command aepflow-render lays out Graphviz DOT text and draws it as SVG or
// PNG. It is the companion that `aepflow render --format svg|png` runs: the
// go-graphviz library it links compiles a WebAssembly module when the
// process starts, a cost the main aepflow binary must not pay because it
// also answers the harness's transition hook (rendering.md §6.3,
// docs/render.md). Install both with `go install ./cmd/...`.
//
// Usage:
//
//	aepflow-render [--format svg|png] [--out FILE] < graph.dot
//	aepflow-render --version
//
// It reads DOT on stdin and writes the picture to stdout, or atomically to
// --out (a temporary file in the same directory, then a rename). Unlike
// `aepflow render`, it writes PNG to stdout too: its stdout is normally a
// pipe back to aepflow.
//
// Exit codes: 0 the picture was written; 1 the DOT could not be read, laid
// out or drawn (syntax error, over the size caps, Graphviz failure) or the
// output could not be written; 2 usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/aepflow/aepflow/internal/atomicfile"
	"github.com/aepflow/aepflow/internal/buildinfo"
	"github.com/aepflow/aepflow/render/graphviz"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("aepflow-render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "svg", "output format: svg or png")
	showVersion := fs.Bool("version", false, "print the version, commit, build date and Go version, and exit")
	out := fs.String("out", "", "write the picture to this file (atomically) instead of stdout")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: aepflow-render [--format svg|png] [--out FILE] < graph.dot\n       aepflow-render --version\n\n"+
			"Lays out DOT text read on stdin and draws it as SVG or PNG.\n"+
			"Exit codes: 0 written, 1 render or write failed, 2 usage error.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *showVersion {
		fmt.Fprintln(stdout, buildinfo.Read().Line("aepflow-render"))
		return exitOK
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "aepflow-render: unexpected argument %q; the DOT text comes on stdin\n", fs.Arg(0))
		return exitUsage
	}
	if !graphviz.Supported(*format) {
		fmt.Fprintf(stderr, "aepflow-render: unsupported format %q; want svg or png\n", *format)
		return exitUsage
	}
	dot, err := io.ReadAll(io.LimitReader(stdin, graphviz.MaxInput+1))
	if err != nil {
		fmt.Fprintf(stderr, "aepflow-render: read stdin: %v\n", err)
		return exitFailed
	}
	pic, err := graphviz.Render(dot, *format)
	if err != nil {
		fmt.Fprintf(stderr, "aepflow-render: %v\n", err)
		return exitFailed
	}
	if *out == "" {
		_, err = stdout.Write(pic)
	} else {
		err = atomicfile.Write(*out, pic, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "aepflow-render: %v\n", err)
		return exitFailed
	}
	return exitOK
}
