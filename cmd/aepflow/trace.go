package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/trace"
)

func init() { register(newTraceCmd) }

// newTraceCmd builds `aepflow trace` and its three verbs (trace.md §6, §7).
func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Inspect agent transcripts and check them against trace specifications",
		Long: `trace reads an agent transcript (Claude Code stream-json or metaharness.event/1,
chosen from the first non-blank line), normalises it into typed, indexed events
and judges it against a trace-spec/1 document with three-valued verdicts that
cite event indices.

  inspect   print the transcript's census
  check     judge a transcript against a specification
  evidence  mint the verdict as a trace_conformance evidence record

Exit codes: check exits 0 conformant, 1 contradicted, 3 undecided; inspect and
evidence exit 0 when they produced output. Every verb exits 1 on refused input
(a spec or transcript refusal, an unreadable file, an unknown --advisory id, a
bad or future --observed-at) and 2 on a malformed command line.`,
		Example: `  aepflow trace inspect --transcript run.jsonl
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl --out evidence/trace.yaml`,
	}
	cmd.AddCommand(newTraceInspectCmd(), newTraceCheckCmd(), newTraceEvidenceCmd())
	return cmd
}

func newTraceInspectCmd() *cobra.Command {
	var transcript, format string
	cmd := &cobra.Command{
		Use:   "inspect --transcript FILE [--format text|json]",
		Short: "Print a transcript's census: events, requests, tool traffic and step timing",
		Long: `inspect reads a transcript and prints its census: event counts by family, unread
events, assistant events and API requests, per-tool traffic, repeated calls,
per-step generation and execution times, and the time split.

Exit codes: 0 when a census was printed, 1 when the transcript is refused or
unreadable, 2 on a malformed command line.`,
		Example: `  aepflow trace inspect --transcript run.jsonl
  aepflow trace inspect --transcript run.jsonl --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			ir, err := readTranscript(cmd, transcript)
			if err != nil {
				return err
			}
			c := trace.NewCensus(ir)
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), c)
			}
			return c.WriteText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&transcript, "transcript", "", "transcript `FILE` to read")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	completeFormats(cmd, "text", "json")
	return cmd
}

func newTraceCheckCmd() *cobra.Command {
	var spec, transcript, format string
	var redact bool
	var advisory []string
	cmd := &cobra.Command{
		Use:   "check --spec FILE --transcript FILE [--format text|json] [--redact] [--advisory ID]...",
		Short: "Judge a transcript against a trace specification",
		Long: `check evaluates every expectation of a trace-spec/1 document against a
transcript and prints one row per expectation (ok, gap or unk; advisory rows
marked "(adv)"), each citing the events behind it, then the digests, the
adapter and a verdict sentence. Checking is deterministic: no clock, network
or model.

--advisory ID downgrades a row for this run (repeatable; the spec digest is
unchanged). --redact replaces every note by a digest, so the report quotes
no command string or path from the transcript.

Exit codes: 0 conformant, 1 a gating expectation gaps (or the input is
refused, or an --advisory id is not declared), 3 a gating expectation is
undecidable, 2 on a malformed command line.`,
		Example: `  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl --format json --redact
  aepflow trace check --spec eval.trace.yaml --transcript run.jsonl --advisory billed-to-the-session`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "spec", "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			r, err := runCheck(cmd, spec, transcript, trace.CheckOptions{Advisory: advisory, Redact: redact})
			if err != nil {
				return err
			}
			if format == "json" {
				err = r.WriteJSON(cmd.OutOrStdout())
			} else {
				err = r.WriteText(cmd.OutOrStdout())
			}
			if err != nil {
				return exitWith(exitProblems, err)
			}
			if code := r.ExitCode(); code != exitOK {
				return exitWith(code, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&spec, "spec", "", "trace specification `FILE` (YAML or JSON)")
	cmd.Flags().StringVar(&transcript, "transcript", "", "transcript `FILE` to judge")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	cmd.Flags().BoolVar(&redact, "redact", false, "cite event indices and digests only, never transcript text")
	cmd.Flags().StringArrayVar(&advisory, "advisory", nil, "downgrade expectation `ID` to advisory for this run (repeatable)")
	completeFormats(cmd, "text", "json")
	return cmd
}

func newTraceEvidenceCmd() *cobra.Command {
	var spec, transcript, format, observedAt, out string
	var advisory []string
	cmd := &cobra.Command{
		Use:   "evidence --spec FILE --transcript FILE [--advisory ID]... [--observed-at DATE|EPOCH_MS] [--out FILE] [--format yaml|json|text]",
		Short: "Mint a trace_conformance evidence record from a check",
		Long: `evidence evaluates exactly as check does and emits a list of one
trace_conformance record: the spec and transcript digests, the status (passed,
failed or inconclusive), the counts, the gapped ids, the adapter, when it was
observed, the producer (verifier/trace-checker) and the provenance.

--observed-at takes YYYY-MM-DD (UTC midnight) or epoch milliseconds and
defaults to now; a future time is refused. --out writes the record atomically
(creating parent directories) and prints "<file> — <status>". The format is
yaml (default; text is the same) or json.

Exit codes: 0 whenever a record was produced, whatever its status; 1 on
refused input, an unknown --advisory id or a bad or future --observed-at;
2 on a malformed command line.`,
		Example: `  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl
  aepflow trace evidence --spec eval.trace.yaml --transcript run.jsonl --observed-at 2026-08-21 --out evidence/trace.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := requireFlags(cmd, "spec", "transcript"); err != nil {
				return err
			}
			if err := checkFormat(format, "yaml", "json", "text"); err != nil {
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
			r, err := runCheck(cmd, spec, transcript, trace.CheckOptions{Advisory: advisory})
			if err != nil {
				return err
			}
			rec, err := trace.NewEvidence(r, spec, transcript, at)
			if err != nil {
				return exitWith(exitProblems, err)
			}
			noteInputs(cmd, spec, transcript)
			return emitEvidence(cmd, rec, format, out)
		},
	}
	cmd.Flags().StringVar(&spec, "spec", "", "trace specification `FILE` (YAML or JSON)")
	cmd.Flags().StringVar(&transcript, "transcript", "", "transcript `FILE` to judge")
	cmd.Flags().StringArrayVar(&advisory, "advisory", nil, "downgrade expectation `ID` to advisory for this run (repeatable)")
	cmd.Flags().StringVar(&observedAt, "observed-at", "", "observation time: `DATE` (YYYY-MM-DD) or epoch milliseconds (default now)")
	cmd.Flags().StringVar(&out, "out", "", "write the record to `FILE` (- for stdout) instead of stdout")
	cmd.Flags().StringVar(&format, "format", "yaml", "output `FORMAT`: yaml, json or text (= yaml)")
	completeFormats(cmd, "yaml", "json", "text")
	return cmd
}

// completeFormats completes --format from the values a verb accepts.
func completeFormats(cmd *cobra.Command, formats ...string) {
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(formats...))
}

func checkFormat(format string, allowed ...string) error {
	return checkEnum("format", format, allowed)
}

// readTranscript reads and normalises a transcript, printing refusals.
func readTranscript(cmd *cobra.Command, path string) (*trace.IR, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, exitWith(exitProblems, err)
	}
	ir, adapter, refusals := trace.Read(data)
	if len(refusals) > 0 {
		printRefusals(cmd.ErrOrStderr(), fmt.Sprintf("transcript %s refused (read as %s)", path, adapter.Name), refusals)
		return nil, exitWith(exitProblems, nil)
	}
	return ir, nil
}

func readSpec(cmd *cobra.Command, path string) (*trace.Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, exitWith(exitProblems, err)
	}
	spec, refusals := trace.ReadSpec(data)
	if len(refusals) > 0 {
		printRefusals(cmd.ErrOrStderr(), fmt.Sprintf("specification %s refused", path), refusals)
		return nil, exitWith(exitProblems, nil)
	}
	return spec, nil
}

func printRefusals(w io.Writer, header string, refusals diag.List) {
	fmt.Fprintf(w, "%s: %d refusal(s)\n", header, len(refusals))
	for _, d := range refusals {
		fmt.Fprintln(w, trace.FormatRefusal(d))
	}
}

// runCheck reads both inputs and evaluates; every failure is already an exit error.
func runCheck(cmd *cobra.Command, specPath, transcriptPath string, opts trace.CheckOptions) (*trace.Report, error) {
	spec, err := readSpec(cmd, specPath)
	if err != nil {
		return nil, err
	}
	if err := trace.ValidateAdvisory(spec, opts.Advisory); err != nil {
		return nil, exitWith(exitProblems, err)
	}
	ir, err := readTranscript(cmd, transcriptPath)
	if err != nil {
		return nil, err
	}
	r, err := trace.Check(spec, ir, opts)
	if err != nil {
		return nil, exitWith(exitProblems, err)
	}
	return r, nil
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

func emitEvidence(cmd *cobra.Command, rec *trace.Evidence, format, out string) error {
	var b bytes.Buffer
	records := []*trace.Evidence{rec}
	var err error
	if format == "json" {
		err = trace.EncodeEvidenceJSON(&b, records)
	} else {
		err = trace.EncodeEvidenceYAML(&b, records)
	}
	if err != nil {
		return exitWith(exitProblems, err)
	}
	if out == "" || out == stdio {
		return writeStdout(cmd, b.Bytes())
	}
	// Parent directories are created: evidence records usually go into a
	// run directory that may not exist yet.
	if err := writeOutput(cmd, out, b.Bytes(), true); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s — %s\n", out, rec.Status)
	return nil
}

// evidenceFormat returns the format of the record: --format when given
// (set), else the one --out's extension names (`.json` JSON, `.yaml` or
// `.yml` YAML), else yaml. An extension that contradicts --format is a
// usage error, so nothing is written.
func evidenceFormat(format string, set bool, out string) (string, error) {
	var byName string
	switch strings.ToLower(filepath.Ext(out)) {
	case ".json":
		byName = "json"
	case ".yaml", ".yml":
		byName = "yaml"
	}
	switch {
	case out == "" || out == stdio || byName == "":
		return format, nil
	case !set:
		return byName, nil
	case format == "text" && byName == "yaml", format == byName:
		return format, nil
	}
	return "", usageError("--format %s contradicts --out %s, which names %s", format, out, byName)
}
