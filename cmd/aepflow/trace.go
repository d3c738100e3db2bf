package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/trace"
)

func init() { register("trace", newTraceCmd) }

// newTraceCmd builds `aepflow trace` and its three verbs (trace.md §6, §7).
func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Inspect agent transcripts and check them against trace specifications",
		Long: `trace reads agent transcripts (Claude Code stream-json, metaharness.event/1 or a
Codex rollout, chosen from the first non-blank line), normalises each into
typed, indexed events and judges it against a trace-spec/1 document with
three-valued verdicts that cite event indices.

  inspect   print a transcript's census
  check     judge transcripts against a specification
  evidence  mint the verdicts as trace_conformance evidence records

--transcript is repeatable and takes files or directories (every *.jsonl
inside, sorted): several transcripts are a suite, judged in parallel, each
with its own report, then a summary table.

Exit codes: check exits 0 conformant, 1 contradicted, 3 undecided (a suite:
the worst transcript's); inspect and evidence exit 0 when they produced
output. Every verb exits 1 on refused input (a spec or transcript refusal,
an unreadable file, an unknown --advisory id, a bad or future --observed-at)
and 2 on a malformed command line.`,
		Example: `  aepflow trace inspect --transcript run.jsonl
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace check --spec eval.trace.yaml --transcript runs/ --format junit > report.xml
  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl --out evidence/trace.yaml`,
	}
	cmd.AddCommand(newTraceInspectCmd(), newTraceCheckCmd(), newTraceEvidenceCmd())
	return cmd
}

func newTraceInspectCmd() *cobra.Command {
	var transcripts []string
	var format string
	cmd := &cobra.Command{
		Use:   "inspect --transcript FILE|DIR... [--format text|json]",
		Short: "Print a transcript's census: events, requests, tool traffic and step timing",
		Long: `inspect reads a transcript and prints its census: event counts by family, unread
events, assistant events and API requests, per-tool traffic, repeated calls,
per-step generation and execution times, and the time split.

Several --transcript values, or a directory (every *.jsonl inside, sorted),
print a census per transcript, then a table of them all. - reads standard
input.

Exit codes: 0 when every census was printed, 1 when a transcript is refused
or unreadable, 2 on a malformed command line.`,
		Example: `  aepflow trace inspect --transcript run.jsonl
  aepflow trace inspect --transcript run.jsonl --format json
  aepflow trace inspect --transcript runs/ --transcript extra.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			set, err := expandTranscripts(cmd, transcripts)
			if err != nil {
				return err
			}
			suite := trace.InspectSuite(set.sources, trace.ReadOptions{}, 0)
			printSuiteRefusals(cmd.ErrOrStderr(), suite)
			if !set.suite {
				return emitSingleCensus(cmd, suite, format)
			}
			if err := writeSuite(cmd, suite, format); err != nil {
				return err
			}
			return exitCode(suite.ExitCode())
		},
	}
	cmd.Flags().StringArrayVar(&transcripts, "transcript", nil, "transcript `FILE` or directory of *.jsonl to read (repeatable; - is standard input)")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	readsStdin(cmd, "transcript")
	completeFormats(cmd, "text", "json")
	return cmd
}

func newTraceCheckCmd() *cobra.Command {
	var spec, format string
	var transcripts, advisory []string
	var redact bool
	cmd := &cobra.Command{
		Use:   "check --spec FILE --transcript FILE|DIR... [--format text|json|junit] [--redact] [--advisory ID]...",
		Short: "Judge transcripts against a trace specification",
		Long: `check evaluates every expectation of a trace-spec/1 document against a
transcript and prints one row per expectation (ok, gap or unk; advisory rows
marked "(adv)"), each citing the events behind it, then the digests, the
adapter and a verdict sentence. Checking is deterministic: no clock, network
or model.

Several --transcript values, or a directory (every *.jsonl inside, sorted),
are a suite: judged in parallel across cores, each with its own report, then
a summary table (transcript, adapter, ok / gap / unknown counts, verdict).
--format json covers the suite (trace-suite/1); --format junit writes JUnit
XML for CI: a <testsuite> per transcript, a <testcase> per expectation, a
gap as <failure>, an unknown as <error>.

--advisory ID downgrades a row for this run (repeatable; the spec digest is
unchanged). --redact replaces every note by a digest, so the report quotes
no command string or path from the transcript; the text and JUnit reports
and the refusals name an event type, a rate-limit window or a format tag
by its digest too (the JSON report keeps the reasons' payloads, trace.md
§6.2).

Exit codes: 0 conformant, 1 a gating expectation gaps (or the input is
refused, or an --advisory id is not declared), 3 a gating expectation is
undecidable, 2 on a malformed command line. A suite exits with its worst
transcript's code: 1 if any is contradicted or refused, else 3 if any is
undecided, else 0.`,
		Example: `  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl --format json --redact
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl --advisory billed-to-the-session
  aepflow trace check --spec eval.trace.yaml --transcript runs/ --format junit > junit.xml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "spec", "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, "text", "json", "junit"); err != nil {
				return err
			}
			suite, set, err := runCheckSuite(cmd, spec, transcripts, trace.CheckOptions{Advisory: advisory, Redact: redact})
			if err != nil {
				return err
			}
			printSuiteRefusals(cmd.ErrOrStderr(), suite)
			if !set.suite && format != "junit" {
				return emitSingleReport(cmd, suite, format)
			}
			if err := writeSuite(cmd, suite, format); err != nil {
				return err
			}
			return exitCode(suite.ExitCode())
		},
	}
	cmd.Flags().StringVar(&spec, "spec", "", "trace specification `FILE` (YAML or JSON; - is standard input)")
	cmd.Flags().StringArrayVar(&transcripts, "transcript", nil, "transcript `FILE` or directory of *.jsonl to judge (repeatable; - is standard input)")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, json or junit")
	cmd.Flags().BoolVar(&redact, "redact", false, "cite event indices and digests only, never transcript text")
	cmd.Flags().StringArrayVar(&advisory, "advisory", nil, "downgrade expectation `ID` to advisory for this run (repeatable)")
	readsStdin(cmd, "spec", "transcript")
	completeFormats(cmd, "text", "json", "junit")
	return cmd
}

func newTraceEvidenceCmd() *cobra.Command {
	var spec, format, observedAt, out string
	var transcripts, advisory []string
	cmd := &cobra.Command{
		Use:   "evidence --spec FILE --transcript FILE|DIR... [--advisory ID]... [--observed-at DATE|EPOCH_MS] [--out FILE] [--format yaml|json|text]",
		Short: "Mint trace_conformance evidence records from a check",
		Long: `evidence evaluates exactly as check does and emits a list of
trace_conformance records, one per transcript: the spec and transcript
digests, the status (passed, failed or inconclusive), the counts, the gapped
ids, the adapter, when it was observed, the producer (verifier/trace-checker)
and the provenance (the command that judges that one transcript).

--observed-at takes YYYY-MM-DD (UTC midnight, from 1970-01-01) or epoch
milliseconds and defaults to now; a future time is refused. --out writes the
list atomically (creating parent directories) to one file, never onto an
input or a device, and prints "<file> — <status>" per record (with the
transcript after the status when there are several); - is standard output.
Several records are written passed first, failed last, so that the engine,
where a later record of a kind wins, sees the worst. The format is yaml
(default; text is the same) or json. If any transcript is refused, no record
is written.

Exit codes: 0 whenever the records were produced, whatever their status; 1
on refused input, an unknown --advisory id or a bad or future --observed-at;
2 on a malformed command line.`,
		Example: `  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl --observed-at 2026-08-21 --out evidence/trace.yaml
  aepflow trace evidence --spec eval.trace.yaml --transcript runs/ --out evidence/suite.yaml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "spec", "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, evidenceFormats...); err != nil {
				return err
			}
			var err error
			if format, err = evidenceFormat(format, cmd.Flags().Changed("format"), out); err != nil {
				return err
			}
			at := time.Now().UnixMilli()
			if cmd.Flags().Changed("observed-at") {
				var err error
				if at, err = trace.ParseObservedAt(observedAt, time.Now()); err != nil {
					return exitWith(exitProblems, err)
				}
			}
			suite, set, err := runCheckSuite(cmd, spec, transcripts, trace.CheckOptions{Advisory: advisory})
			if err != nil {
				return err
			}
			if printSuiteRefusals(cmd.ErrOrStderr(), suite) > 0 {
				return exitWith(exitProblems, nil)
			}
			records := make([]suiteRecord, len(suite.Transcripts))
			for i := range suite.Transcripts {
				rec, err := trace.NewEvidence(suite.Transcripts[i].Report, spec, set.given[i], at)
				if err != nil {
					return exitWith(exitProblems, err)
				}
				records[i] = suiteRecord{rec, suite.Transcripts[i].Name}
			}
			return emitEvidence(cmd, worstLast(records), set.suite, format, out, cmd.Flags().Changed("out"))
		},
	}
	cmd.Flags().StringVar(&spec, "spec", "", "trace specification `FILE` (YAML or JSON; - is standard input)")
	cmd.Flags().StringArrayVar(&transcripts, "transcript", nil, "transcript `FILE` or directory of *.jsonl to judge (repeatable; - is standard input)")
	cmd.Flags().StringArrayVar(&advisory, "advisory", nil, "downgrade expectation `ID` to advisory for this run (repeatable)")
	cmd.Flags().StringVar(&observedAt, "observed-at", "", "observation time: `DATE` (YYYY-MM-DD) or epoch milliseconds (default now)")
	cmd.Flags().StringVar(&out, "out", "", "write the records to `FILE` instead of stdout (- is stdout)")
	outFormatFlag(cmd.Flags(), &format, "yaml", "yaml, json or text (= yaml)")
	readsStdin(cmd, "spec", "transcript")
	completeFormats(cmd, evidenceFormats...)
	return cmd
}

// completeFormats completes --format from the values a verb accepts.
func completeFormats(cmd *cobra.Command, formats ...string) {
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(formats...))
}

func checkFormat(format string, allowed ...string) error {
	return checkEnum("format", format, allowed)
}

// exitCode turns a verdict's exit code into the command's result.
func exitCode(code int) error {
	if code == exitOK {
		return nil
	}
	return exitWith(code, nil)
}

// Bounds on the inputs of the trace verbs (docs/security.md); variables so
// that tests can make them small.
var (
	transcriptLimit int64 = trace.MaxTranscriptBytes
	specLimit       int64 = trace.MaxSpecBytes
	// suiteLimit bounds the transcripts one command line judges, and
	// dirEntryLimit the entries read from one --transcript directory
	// (*.jsonl or not), so a directory of millions of files is refused
	// before it is listed whole.
	suiteLimit    = 10000
	dirEntryLimit = 100000
)

// traceSet is the transcripts a command line names.
type traceSet struct {
	sources []trace.Source
	// given holds each transcript's path as the command line gives it
	// (`-`, or a directory joined with an entry), for provenance.
	given []string
	// suite is set when the transcripts are a suite: several values, or a
	// directory.
	suite bool
}

// expandTranscripts turns the --transcript values into sources: a
// directory stands for every `*.jsonl` directly inside it, sorted by name
// (entries that are not regular files are kept, and refused when read, so
// nothing in the directory is silently skipped); `-` is standard input
// (named once: checkStdinOnce refuses a second `-` before the command
// runs). A directory without one is refused: an empty suite proves nothing.
func expandTranscripts(cmd *cobra.Command, values []string) (*traceSet, error) {
	set := &traceSet{suite: len(values) > 1}
	for _, v := range values {
		if v == "-" {
			if err := takeStdin(cmd, "--transcript"); err != nil {
				return nil, exitWith(exitProblems, err)
			}
			set.add(v, stdinName, func() (io.ReadCloser, error) {
				return &limitedReader{r: stdinStream(cmd), name: stdinName, limit: transcriptLimit}, nil
			})
			continue
		}
		if info, err := os.Stat(v); err == nil && info.IsDir() {
			set.suite = true
			if err := set.addDirectory(v); err != nil {
				return nil, exitWith(exitProblems, err)
			}
			continue
		}
		if len(set.sources) >= suiteLimit {
			return nil, exitWith(exitProblems, fmt.Errorf("more than %d transcripts (the bound); judge the suite in parts", suiteLimit))
		}
		set.add(v, v, openFile(v))
	}
	noteInputs(cmd, set.given...)
	return set, nil
}

func (s *traceSet) add(given, name string, open func() (io.ReadCloser, error)) {
	s.given = append(s.given, given)
	s.sources = append(s.sources, trace.Source{Name: name, Open: open})
}

// openFile opens a transcript file through fsio: a regular file of at most
// transcriptLimit bytes.
func openFile(path string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		f, err := fsio.Open(path, transcriptLimit)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// addDirectory adds every `*.jsonl` entry of dir, sorted by name. It reads
// the directory a batch at a time (fsio.ReadDir) and refuses it past
// dirEntryLimit entries or suiteLimit transcripts in all.
func (s *traceSet) addDirectory(dir string) error {
	entries, err := fsio.ReadDir(dir, dirEntryLimit)
	if fsio.IsTooManyEntries(err) {
		return fmt.Errorf("directory `%s` holds more than %d entries (the bound); judge it in parts", dir, dirEntryLimit)
	}
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".jsonl") {
			names = append(names, e.Name())
		}
	}
	if len(s.sources)+len(names) > suiteLimit {
		return fmt.Errorf("more than %d transcripts (the bound) with directory `%s`; judge the suite in parts", suiteLimit, dir)
	}
	if len(names) == 0 {
		return fmt.Errorf("directory `%s` holds no *.jsonl transcript", dir)
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		s.add(path, path, openFile(path))
	}
	return nil
}

// runCheckSuite reads the spec and judges every transcript; every failure
// is already an exit error.
func runCheckSuite(cmd *cobra.Command, specPath string, transcripts []string, opts trace.CheckOptions) (*trace.Suite, *traceSet, error) {
	spec, err := readSpec(cmd, specPath)
	if err != nil {
		return nil, nil, err
	}
	if err := trace.ValidateAdvisory(spec, opts.Advisory); err != nil {
		return nil, nil, exitWith(exitProblems, err)
	}
	set, err := expandTranscripts(cmd, transcripts)
	if err != nil {
		return nil, nil, err
	}
	suite, err := trace.CheckSuite(spec, set.sources, opts, trace.ReadOptions{}, 0)
	if err != nil {
		return nil, nil, exitWith(exitProblems, err)
	}
	return suite, set, nil
}

func readSpec(cmd *cobra.Command, path string) (*trace.Spec, error) {
	data, err := readInput(cmd, "--spec", path, specLimit)
	if err != nil {
		return nil, exitWith(exitProblems, err)
	}
	spec, refusals := trace.ReadSpec(data)
	if len(refusals) > 0 {
		printRefusals(cmd.ErrOrStderr(), fmt.Sprintf("specification %s refused", inputName(path)), refusals)
		return nil, exitWith(exitProblems, nil)
	}
	return spec, nil
}

// printSuiteRefusals prints, in order, why each transcript that was not
// judged was not: its refusals under a header naming it and the wire it
// was read as, or the error that kept it from being read. It returns how
// many there were. Every line is escaped as the reports are
// (trace.WriteLine, trace.WriteRefusals): the name of a file found in a
// directory, and what a refusal quotes, are not the user's to choose.
func printSuiteRefusals(w io.Writer, suite *trace.Suite) int {
	n := 0
	for i := range suite.Transcripts {
		j := &suite.Transcripts[i]
		switch {
		case j.Err != nil:
			printError(w, j.Err)
		case len(j.Refusals) > 0:
			printRefusals(w, fmt.Sprintf("transcript %s refused (%s)", j.Name, j.ReadAs()), j.Refusals)
		default:
			continue
		}
		n++
	}
	return n
}

func printRefusals(w io.Writer, header string, refusals diag.List) {
	_ = trace.WriteRefusals(w, header, refusals)
}

// emitSingleCensus prints the census of the one transcript of a command
// line, as inspect always has; a refusal is already printed.
func emitSingleCensus(cmd *cobra.Command, suite *trace.Suite, format string) error {
	j := &suite.Transcripts[0]
	if j.Census == nil {
		return exitWith(exitProblems, nil)
	}
	if format == "json" {
		return writeJSON(cmd.OutOrStdout(), j.Census)
	}
	return j.Census.WriteText(cmd.OutOrStdout())
}

// emitSingleReport prints the report of the one transcript of a command
// line, as check always has; a refusal is already printed.
func emitSingleReport(cmd *cobra.Command, suite *trace.Suite, format string) error {
	r := suite.Transcripts[0].Report
	if r == nil {
		return exitWith(exitProblems, nil)
	}
	var err error
	if format == "json" {
		err = r.WriteJSON(cmd.OutOrStdout())
	} else {
		err = r.WriteText(cmd.OutOrStdout())
	}
	if err != nil {
		return exitWith(exitProblems, err)
	}
	return exitCode(r.ExitCode())
}

// writeSuite prints a suite in format (text, json or junit).
func writeSuite(cmd *cobra.Command, suite *trace.Suite, format string) error {
	var err error
	switch format {
	case "json":
		err = suite.WriteJSON(cmd.OutOrStdout())
	case "junit":
		err = suite.WriteJUnit(cmd.OutOrStdout())
	default:
		err = suite.WriteText(cmd.OutOrStdout())
	}
	if err != nil {
		return exitWith(exitProblems, err)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// suiteRecord is one transcript's record and the transcript's name.
type suiteRecord struct {
	rec  *trace.Evidence
	name string
}

// worstLast orders a suite's records passed, then inconclusive, then
// failed, each group in transcript order. A reader that lets the later
// record of a kind decide — the engine binds the facts of every record in
// turn, and a later binding wins — then sees the worst transcript's
// verdict: `trace_conformance.passed` of a suite's records is true only
// when every transcript passed.
func worstLast(records []suiteRecord) []suiteRecord {
	rank := map[string]int{trace.StatusPassed: 0, trace.StatusInconclusive: 1, trace.StatusFailed: 2}
	slices.SortStableFunc(records, func(a, b suiteRecord) int { return rank[a.rec.Status] - rank[b.rec.Status] })
	return records
}

// emitEvidence prints the records when --out is absent (outGiven false) or
// `-`, or writes them to out as one list through writeOutput: atomically,
// never onto an input or anything but a regular file. An empty --out is a
// destination like any other, which the writer refuses; it is never
// standard output.
func emitEvidence(cmd *cobra.Command, records []suiteRecord, suite bool, format, out string, outGiven bool) error {
	list := make([]*trace.Evidence, len(records))
	for i, r := range records {
		list[i] = r.rec
	}
	var b bytes.Buffer
	var err error
	if format == "json" {
		err = trace.EncodeEvidenceJSON(&b, list)
	} else {
		err = trace.EncodeEvidenceYAML(&b, list)
	}
	if err != nil {
		return exitWith(exitProblems, err)
	}
	if !outGiven || out == stdio {
		return writeStdout(cmd, b.Bytes())
	}
	// Parent directories are created: evidence records usually go into a
	// run directory that may not exist yet.
	if err := writeOutput(cmd, out, b.Bytes(), true); err != nil {
		return err
	}
	for _, r := range records {
		var err error
		if suite {
			err = trace.WriteLine(cmd.OutOrStdout(), "%s — %s — %s", out, r.rec.Status, r.name)
		} else {
			err = trace.WriteLine(cmd.OutOrStdout(), "%s — %s", out, r.rec.Status)
		}
		if err != nil {
			return exitWith(exitProblems, stdoutFailed(err))
		}
	}
	return nil
}

// evidenceFormats lists the values of `trace evidence --format`; text is
// yaml.
var evidenceFormats = []string{"yaml", "json", "text"}

// evidenceExtensions maps the extensions of `trace evidence --out` to the
// format they name.
var evidenceExtensions = map[string]string{".json": "json", ".yaml": "yaml", ".yml": "yaml"}

// evidenceFormat returns the format of the record as every command chooses
// it (formatFromOut): --format when given (set), else the one --out's
// extension names (`.json` JSON, `.yaml` or `.yml` YAML), else yaml. An
// extension that contradicts --format is a usage error, so nothing is
// written; --format text, being yaml, agrees with a YAML extension.
func evidenceFormat(format string, set bool, out string) (string, error) {
	if set && format == "text" && evidenceExtensions[strings.ToLower(filepath.Ext(out))] == "yaml" {
		return format, nil
	}
	return formatFromOut(out, format, set, evidenceFormats, evidenceExtensions)
}
