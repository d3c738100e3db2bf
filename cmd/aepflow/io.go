package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/deadline"
	"github.com/aepflow/aepflow/internal/fsio"
)

// This file holds the one way commands read the files they are given and
// write the files they are asked for (docs/security.md):
//
//   - readInput reads a file argument or flag through package fsio
//     (regular files only, bounded before a byte is read); the path `-`
//     reads standard input, with the same bound, at most once per command.
//   - noteInputs records the files a command read some other way (a
//     document tree), so that no output lands on one of them.
//   - writeOutput writes `--out PATH` atomically through fsio.WriteFile,
//     refusing a destination that is not a regular file or is one of the
//     command's inputs; `-` writes standard output.

// stdio is the path that means standard input for a file argument and
// standard output for --out.
const stdio = "-"

// stdinName is how diagnostics and messages name standard input.
const stdinName = "<stdin>"

// ioState is what one command line has read: which flag took standard
// input, and every input path (for the --out checks).
type ioState struct {
	stdinBy string
	inputs  []string
	// opened is standard input when it is a regular file (`< file`), so
	// that no --out replaces the file it was redirected from.
	opened []fsio.OpenedInput
	// args is the command line as the root was given it, which a group
	// command reads to name a flag written before its verb (groupRunE).
	args []string
}

type ioStateKey struct{}

// withIOState returns a context that carries a fresh ioState for the
// command line args.
func withIOState(ctx context.Context, args []string) context.Context {
	return context.WithValue(ctx, ioStateKey{}, &ioState{args: args})
}

// stateOf returns the command's ioState; a command executed without one
// (never through run) gets a throwaway state.
func stateOf(cmd *cobra.Command) *ioState {
	if ctx := cmd.Context(); ctx != nil {
		if s, ok := ctx.Value(ioStateKey{}).(*ioState); ok {
			return s
		}
	}
	return &ioState{}
}

// inputName returns the name under which the input path is reported:
// stdinName for `-`, else the path.
func inputName(path string) string {
	if path == stdio {
		return stdinName
	}
	return path
}

// stdinAnnotation marks a flag whose value `-` reads standard input; on a
// command, it names its arguments for the same rule (one name for every
// argument, "FILE", or one per position, "OLD NEW").
const stdinAnnotation = "aepflow-stdin"

// readsStdin marks the flags of cmd whose value `-` is standard input, so
// that checkStdinOnce can refuse a second `-` before anything is read.
func readsStdin(cmd *cobra.Command, flags ...string) {
	for _, name := range flags {
		if err := cmd.Flags().SetAnnotation(name, stdinAnnotation, []string{"true"}); err != nil {
			panic(err) // a flag name misspelt in the code
		}
	}
}

// argsReadStdin names the arguments of cmd, whose `-` is standard input:
// names is one name for every argument ("FILE") or one per position
// ("OLD", "NEW").
func argsReadStdin(cmd *cobra.Command, names ...string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[stdinAnnotation] = strings.Join(names, " ")
}

// checkStdinOnce refuses, as a usage error and before anything is read, a
// command line that names `-` as an input more than once (flags marked by
// readsStdin, in name order, then arguments named by argsReadStdin):
// standard input can be read once. takeStdin stays the guard of the read
// itself.
func checkStdinOnce(cmd *cobra.Command, args []string) error {
	var claims []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Changed || f.Annotations[stdinAnnotation] == nil {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if v == stdio {
				claims = append(claims, "--"+f.Name)
			}
		}
	})
	if names := strings.Fields(cmd.Annotations[stdinAnnotation]); len(names) > 0 {
		for i, a := range args {
			if a == stdio {
				claims = append(claims, names[min(i, len(names)-1)])
			}
		}
	}
	switch {
	case len(claims) < 2:
		return nil
	case claims[0] == claims[1]:
		return usageError("%s - is given twice: standard input can be read once", claims[0])
	}
	return usageError("%s - and %s - both ask for standard input, which can be read once", claims[0], claims[1])
}

// takeStdin claims standard input for what (a flag or argument name); a
// second claim in one command line is refused, since the first consumed it.
func takeStdin(cmd *cobra.Command, what string) error {
	s := stateOf(cmd)
	if s.stdinBy != "" {
		return fmt.Errorf("cannot read %s from standard input: %s already reads it", what, s.stdinBy)
	}
	s.stdinBy = what
	if f, ok := cmd.InOrStdin().(*os.File); ok {
		if in, ok := fsio.StatOpened(f, stdinName); ok {
			s.opened = append(s.opened, in)
		}
	}
	return nil
}

// maxStdinWait bounds, in total, every read of `-` but a transcript's: a
// document (a workflow, a step map, a task, evidence, a snapshot, a flow
// document, a trace specification) of at most a few MiB, which a
// producer sends in well under the bound. A pipe left open, a terminal, or
// a producer that drips a byte at a time is refused once it has not ended
// within it (docs/decisions.md, docs/security.md). A variable so that tests
// can make it short.
var maxStdinWait = 60 * time.Second

// maxStdinPause is the longest standard input may send nothing, between
// two reads, when it holds a transcript (stdinStream); a variable so that
// tests can make it short. It bounds the pause, not the whole read: a
// transcript of hundreds of megabytes piped in from a decompressor or over
// a network keeps sending and takes as long as it takes, while a pipe left
// open and silent, or a terminal, is refused after it (docs/security.md).
var maxStdinPause = 60 * time.Second

// stdinOf returns standard input as every read of `-` reads it: bounded
// in total by maxStdinWait, from the first read (deadline.ReaderWithin);
// past it every read fails with an *fsio.Error naming <stdin>. It is the
// default: nothing in cmd/aepflow reads cmd.InOrStdin for a `-` but
// through it or stdinStream.
func stdinOf(cmd *cobra.Command) io.Reader {
	return fsio.Expiring(deadline.ReaderWithin(cmd.InOrStdin(), maxStdinWait), stdinName,
		fmt.Sprintf("it did not end within %v, the bound on reading a document from standard input (pipe a file that ends, or name it)", maxStdinWait))
}

// stdinStream returns standard input for a transcript, which may be far
// larger than a document: every read that waits longer than maxStdinPause
// fails with an *fsio.Error naming <stdin> (deadline.Reader), however long
// the whole read takes.
func stdinStream(cmd *cobra.Command) io.Reader {
	return fsio.Expiring(deadline.Reader(cmd.InOrStdin(), maxStdinPause), stdinName,
		fmt.Sprintf("nothing arrived for %v, the bound on a pause in standard input (pipe a file that ends, or name it)", maxStdinPause))
}

// readInput returns the bytes of the file path names, at most limit of
// them: standard input when path is `-` (claimed for what, which names the
// flag in messages; read through stdinOf, bounded in time), else the
// regular file at path.
// Every error names the input and is an *fsio.Error or a refusal of a
// second `-`.
func readInput(cmd *cobra.Command, what, path string, limit int64) ([]byte, error) {
	if path == stdio {
		if err := takeStdin(cmd, what); err != nil {
			return nil, err
		}
		return fsio.ReadAll(stdinOf(cmd), stdinName, limit)
	}
	noteInputs(cmd, path)
	return fsio.ReadFile(path, limit)
}

// limitedReader reads r and fails with a KindTooLarge *fsio.Error once it
// has yielded more than limit bytes.
type limitedReader struct {
	r     io.Reader
	name  string
	limit int64
	read  int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.read > l.limit {
		return 0, &fsio.Error{Op: "read", Path: l.name, Kind: fsio.KindTooLarge, Limit: l.limit}
	}
	if room := l.limit + 1 - l.read; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	if l.read > l.limit {
		return n, &fsio.Error{Op: "read", Path: l.name, Kind: fsio.KindTooLarge, Limit: l.limit}
	}
	return n, err
}

func (l *limitedReader) Close() error { return nil }

// noteInputs records paths the command read without readInput (the files
// of a document tree), so that writeOutput refuses to write onto them.
func noteInputs(cmd *cobra.Command, paths ...string) {
	s := stateOf(cmd)
	for _, p := range paths {
		if p != stdio && p != "" {
			s.inputs = append(s.inputs, p)
		}
	}
}

// writeOutput writes data to out: standard output for `-`, else the file
// out atomically through fsio.WriteFile, refusing a destination that exists
// and is not a regular file, that is one of the command's inputs, or that
// is a symbolic link to a missing file (a link to a file writes its
// target). makeDirs creates missing parent directories. Every failure,
// standard output's included, is an exit-1 error naming the destination.
func writeOutput(cmd *cobra.Command, out string, data []byte, makeDirs bool) error {
	if out == stdio {
		return writeStdout(cmd, data)
	}
	s := stateOf(cmd)
	err := fsio.WriteFile(out, data, fsio.WriteOptions{Inputs: s.inputs, Opened: s.opened, MakeDirs: makeDirs})
	if err != nil {
		return exitWith(exitProblems, err)
	}
	return nil
}

// writeStdout writes data to the command's standard output; a failed write
// (a closed pipe, a full disk) is exit 1: the command could not deliver,
// which is not a usage error.
// printPath prints path, a file the command wrote or names, as one line
// of standard output after prefix, escaped as every line aepflow prints is
// (diag.EscapeText): the path comes from the command line, and a line
// break or a terminal escape in it would otherwise end the line early,
// forge another, or reach the terminal.
func printPath(cmd *cobra.Command, prefix, path string) error {
	return writeStdout(cmd, []byte(prefix+diag.EscapeText(path)+"\n"))
}

func writeStdout(cmd *cobra.Command, data []byte) error {
	if _, err := cmd.OutOrStdout().Write(data); err != nil {
		return exitWith(exitProblems, stdoutFailed(err))
	}
	return nil
}

// stdoutError is a failed write to standard output, in the project's
// words ("cannot write to standard output: no space left on device"),
// never Go's ("write /dev/stdout: …").
type stdoutError struct{ err error }

func (e *stdoutError) Error() string { return "cannot write to standard output: " + errText(e.err) }
func (e *stdoutError) Unwrap() error { return e.err }

// stdoutFailed returns err as a *stdoutError, unless it already is one.
func stdoutFailed(err error) error {
	var se *stdoutError
	if errors.As(err, &se) {
		return se
	}
	return &stdoutError{err: err}
}

// stdoutWriter is standard output as every command sees it. It remembers
// the first failed write, so that run exits 1 even where the write's error
// was dropped (cobra's help and completion scripts drop theirs), and it
// fails every write after that one: the output is already incomplete.
type stdoutWriter struct {
	mu  sync.Mutex // trace suites judge transcripts in parallel
	w   io.Writer
	err error
}

func (s *stdoutWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = stdoutFailed(err)
		return n, s.err
	}
	return n, nil
}

// failed returns the first failed write's error, or nil.
func (s *stdoutWriter) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// osFile returns the file behind w (a terminal, maybe), looking through
// the stdoutWriter.
func osFile(w io.Writer) (*os.File, bool) {
	if s, ok := w.(*stdoutWriter); ok {
		w = s.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// errText returns an error's message without Go's "write /dev/stdout:"
// style prefix when it wraps an operating-system error.
func errText(err error) string {
	var fe *fsio.Error
	if errors.As(err, &fe) {
		return fe.Reason()
	}
	return (&fsio.Error{Err: err}).Reason()
}
