package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/aepflow/aepflow/analysis"
	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/diag/sarif"
	"github.com/aepflow/aepflow/internal/rules"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	"github.com/spf13/cobra"
)

func init() { register("analyze", newAnalyzeCmd) }

// Exit codes of analyze (analysis.md §2.3): the shared ones.
const (
	exitAnalyzeClean    = exitOK
	exitAnalyzeFindings = exitProblems
)

type analyzeFlags struct {
	root, id, mapRef, format, out string
}

func newAnalyzeCmd() *cobra.Command {
	var f analyzeFlags
	cmd := &cobra.Command{
		Use:   "analyze [--root DIR] [--id REF] [--map ID|FILE] [--format text|json|sarif] [--out FILE]",
		Short: "Report what can be known about a workflow's guards and evidence before any run",
		Long: `analyze loads and validates the document tree as validate does (any error
refuses the command), then reports for each workflow (or --id's) what holds
in every run the engine can make: guards that can never hold or always hold,
transitions never taken because an earlier one is permitted whenever they
are, moves whose requirements contradict their guard, evidence no declared
kind or verifier can produce, facts nothing binds, states with no way out,
cycles that cannot be left, states never entered, and moves that document
order silently decides between (confirmed by a witness the engine checks).

With --map, the step map (an id of the tree's drivers/ or a file) is
cross-validated against the workflow, and the moves that need evidence no
step in their state or before it can produce are reported too.

A finding is never a guess: impossibility is decided over every value the
facts can take, possibility is confirmed by the engine's own evaluator, and
where a bound stops a decision, analysis_incomplete says so.
Codes: docs/codes-analysis.md. With --out the report is written atomically
to FILE (- is stdout) and its path printed; the exit code is the same.
Without --format, an --out named .json, .sarif or .txt names the format.

Exit codes: 0 no error-severity finding (warnings allowed), 1 at least one
error, or the tree, workflow or map refused, 2 usage error, 3 internal
failure.`,
		Example: `  # every workflow of the tree in the current directory
  aepflow analyze

  # one workflow, under the step map the harness will run
  aepflow analyze --root tree --id adp/default --map development/default

  # for a code-scanning upload
  aepflow analyze --root tree --format sarif > analyze.sarif`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runAnalyze(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.root, "root", ".", "document tree `DIR`")
	fl.StringVar(&f.id, "id", "", "workflow reference `REF` (default: every workflow, or the one --map pins)")
	fl.StringVar(&f.mapRef, "map", "", "step map to judge the moves under: a file (- for stdin), or the id of a map under the tree's drivers/ (`FILE|ID`)")
	outFormatFlag(fl, &f.format, "text", "text, json or sarif")
	fl.StringVar(&f.out, "out", "", "write the report to `FILE` (atomically; - is stdout) instead of stdout")
	completeRoot(cmd)
	readsStdin(cmd, "map")
	completeFormats(cmd, outputFormats...)
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	return cmd
}

func runAnalyze(cmd *cobra.Command, f analyzeFlags) error {
	if err := checkEnum("format", f.format, outputFormats); err != nil {
		return err
	}
	var err error
	if f.format, err = formatFromOut(f.out, f.format, cmd.Flags().Changed("format"), outputFormats, reportExtensions); err != nil {
		return err
	}
	if err := checkRootDir(f.root); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	t, ds := tree.Load(f.root)
	ds.Extend(t.RequireDocuments())
	ds.Extend(treeChecks(t)) // what validate checks: references resolved, vocabulary declared
	sources := diag.Sources{}
	noteTree(cmd, t, sources)
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	if f.id == "" && f.mapRef == "" && len(t.Workflows) == 0 {
		return reportDiagnostics(stderr, diag.List{noWorkflow(f.root, "analyse")}, sources)
	}
	ws, m, ds := analyzeTargets(cmd, t, f, sources)
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	var findings diag.List
	var witnesses []analysis.WitnessOf
	var undecided analysis.Undecided
	for _, w := range ws {
		r := analysis.AnalyzeWitnessed(t, w, analysis.Options{Map: m})
		findings.Extend(r.Findings)
		witnesses = append(witnesses, r.Witnesses...)
		undecided.Add(r.Undecided)
	}
	var report bytes.Buffer
	color := (f.out == "" || f.out == "-") && useColor(cmd.OutOrStdout())
	status := writeFindings(&report, f.format, findings.Sorted(), witnesses, undecided, sources, len(ws), color)
	if err := emitDocument(cmd, f.out, false, report.Bytes()); err != nil {
		return err
	}
	return status
}

// analyzeTargets selects the workflows to analyse and the map, if any.
func analyzeTargets(cmd *cobra.Command, t *tree.Tree, f analyzeFlags, sources diag.Sources) ([]*workflow.Workflow, *stepmap.Map, diag.List) {
	var w *workflow.Workflow
	if f.id != "" {
		var ds diag.List
		if w, ds = findWorkflow(t, f.id); w == nil {
			return nil, nil, ds
		}
	}
	if f.mapRef == "" {
		if w != nil {
			return []*workflow.Workflow{w}, nil, nil
		}
		var all []*workflow.Workflow
		for _, id := range t.WorkflowIDs() {
			all = append(all, t.Workflows[id])
		}
		return all, nil, nil
	}
	arg, ds := readMapFlag(cmd, f.mapRef, t.StepMapList(), sources)
	if ds != nil {
		return nil, nil, ds
	}
	sel, ds := stepmap.Select(arg.name, t.StepMapList(), arg.read)
	if sel == nil || ds.HasErrors() {
		return nil, nil, ds
	}
	if w == nil {
		pinned, err := t.Workflow(sel.Workflow)
		if err != nil {
			return nil, nil, append(ds, diag.Errorf(analysis.CodeUnknownWorkflow, "the step map `%s` pins workflow `%s`, which the tree lacks", sel.ID, sel.WorkflowText).WithPath(sel.Location()))
		}
		w = pinned
	}
	m, mds := compiler.SelectMap(arg.name, t.StepMapList(), w, arg.read)
	ds = mds
	if m == nil || ds.HasErrors() {
		return nil, nil, ds
	}
	return []*workflow.Workflow{w}, m, ds
}

// writeFindings prints the findings as validate prints diagnostics; JSON
// objects of overlapping_guards carry their witness. An analysis a bound
// left incomplete never reads "ok": the text summary line says so, and
// the JSON objects of analysis_incomplete carry `"incomplete": true`. It
// stays exit 0 when nothing else is an error (analysis.md §5, §11.1:
// analysis_incomplete is a warning, "no error"; docs/decisions.md).
func writeFindings(w io.Writer, format string, ds diag.List, witnesses []analysis.WitnessOf, undecided analysis.Undecided, sources diag.Sources, count int, color bool) error {
	var err error
	switch format {
	case "json":
		err = analysis.WriteJSON(w, ds, witnesses)
	case "sarif":
		err = sarif.Write(w, ds, sarif.Tool{Name: "aepflow", Version: version(), InformationURI: rules.Repository, Rule: rules.Lookup})
	default:
		if len(ds) == 0 {
			_, err = fmt.Fprintf(w, "ok: %d %s analysed, 0 findings\n", count, plural(count, "workflow"))
		} else {
			err = diag.TextOptions{Color: color, SummaryNote: undecided.Note()}.Write(w, ds, sources)
		}
	}
	if err != nil {
		return exitWith(exitUndecided, err)
	}
	if ds.HasErrors() {
		return exitWith(exitAnalyzeFindings, nil)
	}
	return nil
}
