package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/trace"
)

// withTraceLimits makes the trace verbs' input bounds small for one test.
func withTraceLimits(t *testing.T, transcript, spec int64) {
	t.Helper()
	oldT, oldS := transcriptLimit, specLimit
	transcriptLimit, specLimit = transcript, spec
	t.Cleanup(func() { transcriptLimit, specLimit = oldT, oldS })
}

const limitsTranscript = `{"type":"system","subtype":"init","model":"m","tools":["Bash"]}
{"type":"result","subtype":"success","is_error":false,"num_turns":1}
`

const limitsSpec = `format: trace-spec/1
id: cli/limits
expectations:
  - {id: turns, expect: {turns: {count: {at_most: 1}}}}
`

// writeLimitsInputs writes limitsTranscript and limitsSpec to files of a
// new directory and returns their paths.
func writeLimitsInputs(t *testing.T) (transcript, spec string) {
	t.Helper()
	dir := t.TempDir()
	transcript, spec = filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(transcript, []byte(limitsTranscript), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(spec, []byte(limitsSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	return transcript, spec
}

// TestTraceInputBounds: a transcript or a spec over its bound is refused
// (exit 1, naming the input and the limit), from a file and from standard
// input alike; within the bound both are read.
func TestTraceInputBounds(t *testing.T) {
	transcript, spec := writeLimitsInputs(t)
	small := int64(len(limitsTranscript) - 1)
	for _, c := range []struct {
		name             string
		transcript, spec int64
		args             []string
		stdin            string
		code             int
		stderr           string
	}{
		{"within the bounds", 1 << 20, 1 << 20, []string{"trace", "check", "--spec", spec, "--transcript", transcript}, "", exitOK, ""},
		{"transcript file", small, 1 << 20, []string{"trace", "check", "--spec", spec, "--transcript", transcript}, "", exitProblems,
			"aepflow: cannot read `" + transcript + "`: it is larger than the limit of 132 bytes\n"},
		{"transcript on stdin", small, 1 << 20, []string{"trace", "inspect", "--transcript", "-"}, limitsTranscript, exitProblems,
			"aepflow: cannot read `<stdin>`: it is larger than the limit of 132 bytes\n"},
		{"spec file", 1 << 20, 64, []string{"trace", "evidence", "--spec", spec, "--transcript", transcript}, "", exitProblems,
			"aepflow: cannot read `" + spec + "`: it is larger than the limit of 64 bytes\n"},
		{"spec on stdin", 1 << 20, 64, []string{"trace", "check", "--spec", "-", "--transcript", transcript}, limitsSpec, exitProblems,
			"aepflow: cannot read `<stdin>`: it is larger than the limit of 64 bytes\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			withTraceLimits(t, c.transcript, c.spec)
			var stdout, stderr bytes.Buffer
			code := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			if code != c.code || stderr.String() != c.stderr {
				t.Fatalf("exit %d, want %d\nstderr: %q\nwant:   %q\nstdout: %s", code, c.code, stderr.String(), c.stderr, stdout.String())
			}
			if c.code != exitOK && stdout.Len() > 0 {
				t.Errorf("a refusal printed on stdout: %s", stdout.String())
			}
		})
	}
}

// TestSecurityTraceBounds checks the limits of docs/security.md's trace
// rows against the constants the trace readers use.
func TestSecurityTraceBounds(t *testing.T) {
	rows := testkit.TableRows(t, "../../docs/security.md", "### trace")
	size := fsio.FormatSize
	for first, want := range map[string]string{
		"`--transcript` file or `-`": size(trace.MaxTranscriptBytes) + " (`trace.MaxTranscriptBytes`)",
		"one transcript line":        size(trace.MaxLineBytes) + " (`trace.MaxLineBytes`); skipped without being held",
		"line refusals listed":       fmt.Sprintf("%d (`trace.MaxListedRefusals`), the rest counted", trace.MaxListedRefusals),
		"`--spec` file or `-`":       size(trace.MaxSpecBytes) + " (`trace.MaxSpecBytes`)",
		"spec expansion: scalar bytes + 8 per node, each use of an alias counting what it expands to": size(trace.MaxSpecExpansion) + " (`trace.MaxSpecExpansion`)",
		"spec nesting":                          fmt.Sprintf("%d levels (`trace.MaxSpecDepth`)", trace.MaxSpecDepth),
		"a `{regex: …}` pattern":                fmt.Sprintf("%d RE2 instructions (`trace.MaxRegexInsts`); each distinct pattern compiled once per spec", trace.MaxRegexInsts),
		"transcripts of one command line":       fmt.Sprintf("%d, named or in directories", suiteLimit),
		"entries of a `--transcript` directory": fmt.Sprintf("%d, `*.jsonl` or not, read a batch at a time", dirEntryLimit),
	} {
		row, ok := rows[first]
		if !ok {
			t.Errorf("docs/security.md has no trace row %q", first)
			continue
		}
		if row[1] != want {
			t.Errorf("row %q: the limit reads %q; the code says %q", first, row[1], want)
		}
	}
	// Standard input: a transcript bounded by its pause, a spec in all,
	// as every document read from `-`.
	for first, want := range map[string]string{
		"standard input (`--transcript -`), between two reads": fmt.Sprintf("%d s without a byte (`maxStdinPause`); the whole read is not bounded in time", int(maxStdinPause.Seconds())),
		"standard input (`--spec -`), until it ends":           fmt.Sprintf("%d s in all (`maxStdinWait`), as every document's", int(maxStdinWait.Seconds())),
	} {
		if row, ok := rows[first]; !ok {
			t.Errorf("docs/security.md has no trace row %q", first)
		} else if row[1] != want {
			t.Errorf("row %q: the limit reads %q; the code says %q", first, row[1], want)
		}
	}
	if transcriptLimit != trace.MaxTranscriptBytes || specLimit != trace.MaxSpecBytes {
		t.Errorf("the commands read with limits %d and %d, not the documented ones", transcriptLimit, specLimit)
	}
}

// TestTraceSuiteBounds: a suite of more transcripts than the bound, named
// one by one or held by a directory, and a directory of more entries than
// its bound (transcripts or not), are refused before any is read (exit 1,
// naming the bound); at the bound the suite is judged.
func TestTraceSuiteBounds(t *testing.T) {
	oldSuite, oldEntries := suiteLimit, dirEntryLimit
	suiteLimit, dirEntryLimit = 3, 5
	t.Cleanup(func() { suiteLimit, dirEntryLimit = oldSuite, oldEntries })
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(limitsSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(sub string, names ...string) string {
		d := filepath.Join(dir, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(d, n), []byte(limitsTranscript), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	three := write("three", "a.jsonl", "b.jsonl", "c.jsonl")
	four := write("four", "a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl")
	crowded := write("crowded", "a.jsonl", "1.txt", "2.txt", "3.txt", "4.txt", "5.txt")
	check := func(transcripts ...string) []string {
		args := []string{"trace", "check", "--spec", spec}
		for _, tr := range transcripts {
			args = append(args, "--transcript", tr)
		}
		return args
	}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a directory at the bound", check(three), exitOK, ""},
		{"a directory over the bound", check(four), exitProblems,
			"aepflow: more than 3 transcripts (the bound) with directory `" + four + "`; judge the suite in parts\n"},
		{"a directory and files over the bound", check(filepath.Join(four, "a.jsonl"), three), exitProblems,
			"aepflow: more than 3 transcripts (the bound) with directory `" + three + "`; judge the suite in parts\n"},
		{"files over the bound", check(filepath.Join(four, "a.jsonl"), filepath.Join(four, "b.jsonl"), filepath.Join(four, "c.jsonl"), filepath.Join(four, "d.jsonl")), exitProblems,
			"aepflow: more than 3 transcripts (the bound); judge the suite in parts\n"},
		{"a directory of too many entries", check(crowded), exitProblems,
			"aepflow: directory `" + crowded + "` holds more than 5 entries (the bound); judge it in parts\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, strings.NewReader(""), &stdout, &stderr)
			if code != c.code || stderr.String() != c.stderr {
				t.Fatalf("exit %d, want %d\nstderr: %q\nwant:   %q\nstdout: %s", code, c.code, stderr.String(), c.stderr, stdout.String())
			}
			if c.code != exitOK && stdout.Len() > 0 {
				t.Errorf("a refusal printed on stdout: %s", stdout.String())
			}
		})
	}
}

// dripReader sends its text one byte per Read, each after a pause.
type dripReader struct {
	text  string
	pause time.Duration
}

func (d *dripReader) Read(p []byte) (int, error) {
	if d.text == "" {
		return 0, io.EOF
	}
	time.Sleep(d.pause)
	p[0], d.text = d.text[0], d.text[1:]
	return 1, nil
}

// TestTraceStdinPause: a transcript read from `-` that stops sending
// without ending (a pipe left open, a terminal) is refused once it has sent
// nothing for maxStdinPause (exit 1, naming standard input and the bound);
// it hung for ever. The bound is on the pause, not the whole read: a stdin
// that keeps sending, however slowly in all (longer than maxStdinWait), is
// read. A spec is a document: its read is bounded in total (maxStdinWait).
func TestTraceStdinPause(t *testing.T) {
	withStdinBounds(t, 100*time.Millisecond, 100*time.Millisecond)
	transcript, spec := writeLimitsInputs(t)
	const refusal = "aepflow: cannot read `<stdin>`: nothing arrived for 100ms, the bound on a pause in standard input (pipe a file that ends, or name it)\n"
	for _, c := range []struct {
		name   string
		args   []string
		stdin  func(w *io.PipeWriter)
		code   int
		stderr string
	}{
		{"a transcript that never ends", []string{"trace", "inspect", "--transcript", "-"},
			func(w *io.PipeWriter) { _, _ = w.Write([]byte(limitsTranscript[:20])) }, exitProblems, refusal},
		{"a transcript in a suite", []string{"trace", "check", "--spec", spec, "--transcript", transcript, "--transcript", "-"},
			func(*io.PipeWriter) {}, exitProblems, refusal},
		{"a spec that never ends", []string{"trace", "evidence", "--spec", "-", "--transcript", transcript},
			func(w *io.PipeWriter) { _, _ = w.Write([]byte(limitsSpec)) }, exitProblems,
			"aepflow: cannot read `<stdin>`: it did not end within 100ms, the bound on reading a document from standard input (pipe a file that ends, or name it)\n"},
		{"a slow stdin that ends", []string{"trace", "check", "--spec", spec, "--transcript", "-"},
			func(w *io.PipeWriter) {
				_, _ = io.Copy(w, &dripReader{text: limitsTranscript[:40], pause: 10 * time.Millisecond})
				_, _ = w.Write([]byte(limitsTranscript[40:]))
				w.Close()
			}, exitOK, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, w := io.Pipe()
			t.Cleanup(func() { w.Close() }) // releases the read left behind
			go c.stdin(w)
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(c.args, r, &stdout, &stderr) }()
			var code int
			select {
			case code = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the command hung on standard input")
			}
			if code != c.code || stderr.String() != c.stderr {
				t.Fatalf("exit %d, want %d\nstderr: %q\nwant:   %q\nstdout: %s", code, c.code, stderr.String(), c.stderr, stdout.String())
			}
		})
	}
}
