package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/spf13/cobra"
)

func init() { register("evaluate", newEvaluateCmd) }

type evaluateFlags struct {
	task, root, store, state, snapshot, format string
	evidence                                   []string
	facts                                      bool
}

func newEvaluateCmd() *cobra.Command {
	var f evaluateFlags
	cmd := &cobra.Command{
		Use:   "evaluate --task FILE [--root DIR] [--evidence FILE]... [--store DIR] [--state STATE | --snapshot FILE] [--format text|json] [--facts]",
		Short: "Show what a task owes in its state and what each move out still needs",
		Long: `evaluate resolves a task against the document tree, positions an execution
(the workflow's initial state, --state, or a run's --snapshot), appends the
evidence documents in argument order, and prints what is owed in the current
state, each transition out in document order with its guard and unmet
requirement lines, and the completion lines (engine.md §5.2).

The artifact graph comes from the planning store at --store; without it the
graph is empty. --state enters the state without evaluating any guard.
--facts prints the fact store instead: every observed path with its value,
in byte order (the path a guard reads and finds unobserved is absent).

Exit codes: 0 the evaluation ran (whatever it found), 1 a document, task,
store, evidence document or snapshot could not be read or resolved
(diagnostics on stderr), 2 usage error.`,
		Example: `  aepflow evaluate --task task.yaml --root tree
  aepflow evaluate --task task.yaml --root tree --store .engineering/planning --state establish_verifiers
  aepflow evaluate --task task.yaml --root tree --evidence red-test.yaml --evidence diff.yaml --format json
  aepflow evaluate --task task.yaml --root tree --snapshot runs/AUTH-142/1/snapshot.json

  # Which facts the evidence produced (why is a guard unknown?)
  aepflow evaluate --task task.yaml --root tree --evidence trace-evidence.yaml --facts`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEvaluate(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.task, "task", "", "task document `FILE` (- for stdin; required)")
	fl.StringVar(&f.root, "root", ".", "document tree `DIR`")
	fl.StringArrayVar(&f.evidence, "evidence", nil, "evidence document `FILE` (- for stdin), repeatable, appended in order")
	fl.StringVar(&f.store, "store", "", "planning store `DIR` (default: an empty graph)")
	fl.StringVar(&f.state, "state", "", "enter the state `ID` (no guard evaluated)")
	fl.StringVar(&f.snapshot, "snapshot", "", "restore the engine snapshot `FILE` (- for stdin)")
	fl.StringVar(&f.format, "format", "text", "output `FORMAT`: text or json")
	fl.BoolVar(&f.facts, "facts", false, "print the fact store (every observed path and its value) instead of the report")
	completeRoot(cmd, "store")
	readsStdin(cmd, "task", "evidence", "snapshot")
	_ = cmd.RegisterFlagCompletionFunc("state", completeStates)
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(evaluateFormats...))
	return cmd
}

// maxEvidenceBytes bounds the bytes of all --evidence documents of one
// run (each is also bounded by the document limit): their records are
// kept in memory.
const maxEvidenceBytes = 64 << 20

// evaluateFormats lists the values of `evaluate --format`.
var evaluateFormats = []string{"text", "json"}

func runEvaluate(cmd *cobra.Command, f evaluateFlags) error {
	if err := requireFlags(cmd, "task"); err != nil {
		return err
	}
	if err := checkEnum("format", f.format, evaluateFormats); err != nil {
		return err
	}
	if f.state != "" && f.snapshot != "" {
		return usageError("--state and --snapshot are mutually exclusive")
	}
	if err := checkRootDir(f.root); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	now := time.Now()
	sources := diag.Sources{}
	exec, diags, err := positionExecution(cmd, f, now, sources)
	if err != nil {
		return exitWith(exitProblems, err)
	}
	if diags.HasErrors() {
		return reportDiagnostics(stderr, diags, sources)
	}
	var all diag.List
	var total int64
	for _, file := range f.evidence {
		data, err := readInput(cmd, "--evidence", file, yamldoc.MaxFileSize)
		if err != nil {
			return exitWith(exitProblems, fmt.Errorf("cannot read evidence: %w", err))
		}
		if total += int64(len(data)); total > maxEvidenceBytes {
			return exitWith(exitProblems, fmt.Errorf("cannot read evidence: the --evidence documents exceed the limit of %s in all (at `%s`)", fsio.FormatSize(maxEvidenceBytes), inputName(file)))
		}
		sources[inputName(file)] = data
		recs, ds := evidence.ReadDocument(inputName(file), data, now)
		all.Extend(ds)
		if !ds.HasErrors() {
			exec.Submit(recs...)
		}
	}
	if all.HasErrors() {
		return reportDiagnostics(stderr, all, sources)
	}
	if f.facts {
		return writeFacts(cmd.OutOrStdout(), exec.Facts(), f.format)
	}
	report, err := engine.NewReport(exec)
	if err != nil {
		return exitWith(exitProblems, err)
	}
	if f.format == "json" {
		return report.WriteJSON(cmd.OutOrStdout())
	}
	return report.WriteText(cmd.OutOrStdout())
}

// positionExecution loads documents, task and store, resolves, and places
// the execution at its initial state, --state or --snapshot. It keeps the
// bytes of the documents and the task it read in sources, for the source
// lines under diagnostics.
func positionExecution(cmd *cobra.Command, f evaluateFlags, now time.Time, sources diag.Sources) (*engine.Execution, diag.List, error) {
	docTree, diags := engine.LoadTree(f.root)
	maps.Copy(sources, docTree.Sources)
	taskData, err := readInput(cmd, "--task", f.task, yamldoc.MaxFileSize)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the task: %w", err)
	}
	sources[inputName(f.task)] = taskData
	task, ds := engine.ReadTask(inputName(f.task), taskData)
	diags.Extend(ds)
	if diags.HasErrors() {
		return nil, diags, nil
	}
	plan, ds := engine.Resolve(docTree, task)
	if ds.HasErrors() {
		return nil, ds, nil
	}
	graph := artifact.NewGraph(nil)
	if f.store != "" {
		if st, err := os.Stat(f.store); err != nil || !st.IsDir() {
			return nil, nil, fmt.Errorf("--store %s is not a directory", f.store)
		}
		g, ds := artifact.ReadStore(f.store)
		if ds.HasErrors() {
			return nil, ds, nil
		}
		graph = g
	}
	if f.snapshot != "" {
		data, err := readInput(cmd, "--snapshot", f.snapshot, yamldoc.MaxFileSize)
		if err != nil {
			return nil, nil, fmt.Errorf("cannot read the snapshot: %w", err)
		}
		sources[inputName(f.snapshot)] = data
		snap, ds := engine.DecodeSnapshot(inputName(f.snapshot), data)
		if ds.HasErrors() {
			return nil, ds, nil
		}
		exec, err := engine.Restore(plan, graph, snap, now)
		if err != nil {
			// A refusal at one of the snapshot's values is printed there.
			if re, ok := errors.AsType[*engine.RestoreError](err); ok && re.Diagnostic.Code != "" {
				return nil, diag.List{re.Diagnostic}, nil
			}
			return nil, nil, fmt.Errorf("cannot restore %s: %w", f.snapshot, err)
		}
		return exec, nil, nil
	}
	exec := engine.NewExecution(plan, graph, now)
	if f.state != "" && f.state != exec.State {
		if plan.Workflow.States[f.state] == nil {
			msg := "--state `" + f.state + "` is not a state of workflow `" + plan.Workflow.Ref().String() + "`"
			if best, ok := suggest.Closest(f.state, plan.Workflow.StateIDs()); ok {
				msg += "; did you mean `" + best + "`?"
			}
			return nil, nil, errors.New(msg)
		}
		exec.EnterState(f.state)
	}
	return exec, nil, nil
}

// writeFacts prints the fact store in byte order of paths: `path = value`
// lines, or one JSON object mapping each path to its typed value.
func writeFacts(w io.Writer, facts predicate.MapFacts, format string) error {
	paths := slices.Sorted(maps.Keys(facts))
	if format == "json" {
		out := make(map[string]any, len(paths))
		for _, p := range paths {
			v := facts[p]
			switch v.Kind() {
			case predicate.KindBool:
				out[p] = v.Bool()
			case predicate.KindNumber:
				out[p] = v.Number()
			default:
				out[p] = v.Text()
			}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	for _, p := range paths {
		// A path or a text value an evidence record spells (a property
		// name, a deployment's status) may hold a line break or a
		// terminal escape: escaped, it cannot forge a line.
		fmt.Fprintf(&b, "%s\n", diag.EscapeText(p+" = "+facts[p].String()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
