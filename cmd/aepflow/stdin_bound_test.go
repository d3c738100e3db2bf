package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withStdinBounds makes the time bounds of standard input short for one
// test: wait bounds a document's read in all, pause a transcript's pauses.
func withStdinBounds(t *testing.T, wait, pause time.Duration) {
	t.Helper()
	oldWait, oldPause := maxStdinWait, maxStdinPause
	maxStdinWait, maxStdinPause = wait, pause
	t.Cleanup(func() { maxStdinWait, maxStdinPause = oldWait, oldPause })
}

// runWithPipe runs args with a standard input that feed writes into and
// never closes (the pipe is closed when the test ends, which releases the
// read left behind); a command that does not return within 20 s hung.
func runWithPipe(t *testing.T, args []string, feed func(w *io.PipeWriter)) (int, string, string) {
	t.Helper()
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	go feed(w)
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, r, &stdout, &stderr) }()
	select {
	case code := <-done:
		return code, stdout.String(), stderr.String()
	case <-time.After(20 * time.Second):
		t.Fatal("the command hung on standard input")
	}
	return 0, "", ""
}

// TestStdinBound: every command that reads a document from `-` refuses a
// standard input that does not end within maxStdinWait (exit 1, naming
// standard input and the bound): a pipe left open, a terminal, a producer
// that drips a byte at a time. They hung for ever: only the trace verbs
// bounded standard input. One command line per way of reading `-` (an
// argument, a flag read before the tree, a flag read after it, a step map,
// a flow document, a snapshot, a scenario, a trace specification).
func TestStdinBound(t *testing.T) {
	withStdinBounds(t, 200*time.Millisecond, time.Minute)
	tree, err := filepath.Abs("../../examples/tree")
	if err != nil {
		t.Fatal(err)
	}
	workflowFile := filepath.Join(tree, "workflows", "demo", "review.yaml")
	dir := t.TempDir()
	transcript := filepath.Join(dir, "run.jsonl")
	write(t, transcript, []byte(limitsTranscript))
	// Each command words the refusal as it words any unreadable input
	// (validate's report on stdout, an io_error, a one-line refusal), but
	// names <stdin> and the bound.
	const reason = "it did not end within 200ms, the bound on reading a document from standard input (pipe a file that ends, or name it)"
	partial := func(text string) func(w *io.PipeWriter) {
		return func(w *io.PipeWriter) { _, _ = w.Write([]byte(text)) }
	}
	// drip sends a byte every 10 ms for ever (until the pipe is closed):
	// never a pause of the bound's length, never an end.
	drip := func(w *io.PipeWriter) {
		for {
			if _, err := w.Write([]byte("#")); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for _, c := range []struct {
		name string
		args []string
		feed func(w *io.PipeWriter)
		code int
		want string
	}{
		{"validate FILE", []string{"validate", "-"}, partial("id: demo/x\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"validate FILE, dripping", []string{"validate", "-"}, drip, exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"diff OLD", []string{"diff", "-", workflowFile}, partial("id: demo/review\n"), exitUndecided,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"evaluate --task", []string{"evaluate", "--root", tree, "--task", "-"}, partial("id: T-1\n"), exitProblems,
			"aepflow: cannot read the task: cannot read `<stdin>`: " + reason},
		{"flow --workflow", []string{"flow", "--workflow", "-"}, partial("id: demo/x\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"flow --map", []string{"flow", "--root", tree, "--id", "demo/review", "--map", "-"}, partial("format: aep.driver-steps/1\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"analyze --map", []string{"analyze", "--root", tree, "--id", "demo/review", "--map", "-"}, partial("format: aep.driver-steps/1\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"instruct --map", []string{"instruct", "--root", tree, "--id", "demo/review", "--map", "-"}, partial("format: aep.driver-steps/1\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"plan --flow", []string{"plan", "--flow", "-"}, partial("id: demo/x\n"), exitProblems,
			"<stdin>: cannot read flow document `<stdin>`: " + reason + " [flow_unreadable]"},
		{"render --snapshot", []string{"render", "--root", tree, "--id", "demo/review", "--format", "dot", "--snapshot", "-"}, partial(`{"execution": "T-1.1"`), exitProblems,
			"aepflow: cannot read the snapshot: cannot read `<stdin>`: " + reason},
		{"simulate --evidence", []string{"simulate", "--root", tree, "--id", "demo/review", "--evidence", "-"}, partial("- kind: diff\n"), exitProblems,
			"<stdin>: cannot read the file: " + reason + " [io_error]"},
		{"trace --spec", []string{"trace", "check", "--spec", "-", "--transcript", transcript}, partial(limitsSpec), exitProblems,
			"aepflow: cannot read `<stdin>`: " + reason},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runWithPipe(t, c.args, c.feed)
			if code != c.code || !strings.Contains(stdout+stderr, c.want+"\n") {
				t.Fatalf("exit %d, want %d\nstdout: %q\nstderr: %q\nwant a line: %q", code, c.code, stdout, stderr, c.want)
			}
		})
	}
}

// TestStdinBoundWithin: a document that arrives slowly but ends within
// maxStdinWait is read; the transcript of a trace verb keeps its bound on
// the pause, not the whole read.
func TestStdinBoundWithin(t *testing.T) {
	withStdinBounds(t, 5*time.Second, 5*time.Second)
	doc := "id: demo/x\ntitle: X\ninitial: a\nstates:\n  a: {title: A, terminal: true}\n"
	code, stdout, stderr := runWithPipe(t, []string{"validate", "-"}, func(w *io.PipeWriter) {
		_, _ = io.Copy(w, &dripReader{text: doc[:10], pause: 10 * time.Millisecond})
		_, _ = w.Write([]byte(doc[10:]))
		w.Close()
	})
	if code != exitOK {
		t.Fatalf("exit %d\nstderr: %s\nstdout: %s", code, stderr, stdout)
	}
}

// TestStdinReadOnlyThroughIO: the commands read standard input only
// through io.go (stdinOf, bounded by default, or stdinStream for a
// transcript), so that no command reads `-` without a time bound; the
// hook (drive.go: transition.Consult bounds its own stdin) and the
// language server (lsp.go: a session, not a document) are the exceptions.
func TestStdinReadOnlyThroughIO(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "io.go" || f == "drive.go" || f == "lsp.go" {
			continue
		}
		data := readFixture(t, f)
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "InOrStdin()") || (strings.Contains(line, "os.Stdin") && f != "main.go") {
				t.Errorf("%s:%d reads standard input outside io.go: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
