package main

import (
	"bytes"
	"time"

	"github.com/aepflow/aepflow/analysis"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/spf13/cobra"
)

func init() { register("simulate", newSimulateCmd) }

// Exit codes of simulate (analysis.md §2.3, §10.7).
const (
	exitSimCompleted = exitOK
	exitSimRefused   = exitProblems
	exitSimInternal  = exitUndecided
	exitSimBlocked   = 4
	exitSimBudget    = 5
)

// maxTaskFile bounds a task document.
const maxTaskFile = yamldoc.MaxFileSize

type simulateFlags struct {
	root, id, mapRef, task, format, out string
	evidence                            []string
	maxVisits                           int
}

func newSimulateCmd() *cobra.Command {
	var f simulateFlags
	cmd := &cobra.Command{
		Use:   "simulate [--root DIR] --id REF [--map ID|FILE] --evidence FILE... [--task FILE] [--max-visits N] [--format text|json] [--out FILE]",
		Short: "Walk a workflow against hypothetical evidence with the real engine",
		Long: `simulate walks a workflow with the engine's own evaluate and transition,
against scenario documents: evidence submitted at the start and on each entry
into a state (per visit, so that a retreat can be exercised), plan facts and
an artifact graph. It prints the path, each move with the guard and the facts
that opened it, the retreats, and where the run blocks in the engine's own
words.

Each --evidence file is an evidence document (a list of records) or a
scenario document (format: aep.scenario/1; docs/simulate.md). Without --task
the run is under a bare plan: no principles, no completion set. With --task
the task is resolved as evaluate resolves it; its profile's workflow must be
--id's. With --out the run is written atomically to FILE (- is stdout) and
its path printed; the exit code is the same; without --format, an --out
named .json or .txt names the format. Every state may be entered at most
its visit budget times (--max-visits, else the map's visit_budget, else 3).

Exit codes: 0 the run completed, 1 a document, task, map or scenario could
not be read or resolved (diagnostics on stderr), 2 usage error, 3 internal
failure, 4 the run blocked, 5 a visit budget was exhausted.`,
		Example: `  # the bundled example (from a clone): a failed check and a round of review changes, then merged
  aepflow simulate --root examples/tree --id demo/review --map demo/review-steps --evidence examples/scenarios/demo-review.yaml

  aepflow simulate --root tree --id demo/gate --evidence scenario.yaml
  aepflow simulate --root tree --id demo/gate --evidence diff.yaml --evidence tests.yaml --max-visits 2
  aepflow simulate --root tree --id adp/default --task task.yaml --evidence scenario.yaml --format json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSimulate(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.root, "root", ".", "document tree `DIR`")
	fl.StringVar(&f.id, "id", "", "workflow reference `REF` (required)")
	fl.StringVar(&f.mapRef, "map", "", "step map whose visit budgets apply: a file (- for stdin), or the id of a map under the tree's drivers/ (`FILE|ID`)")
	fl.StringArrayVar(&f.evidence, "evidence", nil, "evidence or scenario document `FILE` (- for stdin), repeatable, read in order (required)")
	fl.StringVar(&f.task, "task", "", "task document `FILE` (- for stdin) to resolve instead of the bare plan")
	fl.IntVar(&f.maxVisits, "max-visits", 0, "visit budget `N` of every state (at least 1)")
	outFormatFlag(fl, &f.format, "text", "text or json")
	fl.StringVar(&f.out, "out", "", "write the run to `FILE` (atomically; - is stdout) instead of stdout")
	completeRoot(cmd)
	readsStdin(cmd, "evidence", "task", "map")
	completeFormats(cmd, simulateFormats...)
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	return cmd
}

// simulateFormats lists the values of `simulate --format`.
var simulateFormats = []string{"text", "json"}

func runSimulate(cmd *cobra.Command, f simulateFlags) error {
	if err := requireFlags(cmd, "id", "evidence"); err != nil {
		return err
	}
	if err := checkEnum("format", f.format, simulateFormats); err != nil {
		return err
	}
	var err error
	if f.format, err = formatFromOut(f.out, f.format, cmd.Flags().Changed("format"), simulateFormats, reportExtensions); err != nil {
		return err
	}
	if cmd.Flags().Changed("max-visits") && (f.maxVisits < 1 || f.maxVisits > analysis.MaxVisitBudget) {
		return usageError("--max-visits must be from 1 to %d, not %d", analysis.MaxVisitBudget, f.maxVisits)
	}
	if err := checkRootDir(f.root); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	sources := diag.Sources{}
	w, t, ds := loadTreeWorkflow(cmd, f.root, f.id, sources)
	if w == nil || ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	var m *stepmap.Map
	if f.mapRef != "" {
		sel, mds := selectMapFlag(cmd, f.mapRef, t.StepMapList(), w, sources)
		if sel == nil || mds.HasErrors() {
			return reportDiagnostics(stderr, mds, sources)
		}
		m = sel
	}
	var files []analysis.ScenarioFile
	for _, name := range f.evidence {
		data, ds := readDocument(cmd, "--evidence", name, analysis.MaxScenarioFile, sources)
		if ds != nil {
			return reportDiagnostics(stderr, ds, sources)
		}
		files = append(files, analysis.ScenarioFile{Name: inputName(name), Data: data})
	}
	sc, ds := analysis.ReadScenarios(files, w, time.Now())
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	plan, ds := simulationPlan(cmd, t, w, f.task, sc, sources)
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	run, ds, err := analysis.Simulate(t, w, sc, analysis.SimOptions{Plan: plan, MaxVisits: uint32(f.maxVisits), Map: m})
	if err != nil {
		return exitWith(exitSimInternal, err)
	}
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	var out bytes.Buffer
	if f.format == "json" {
		err = analysis.WriteRunJSON(&out, run)
	} else {
		err = analysis.WriteRunText(&out, run)
	}
	if err != nil {
		return exitWith(exitSimInternal, err)
	}
	if err := emitDocument(cmd, f.out, false, out.Bytes()); err != nil {
		return err
	}
	switch run.Outcome.Kind {
	case analysis.OutcomeBlocked:
		return exitWith(exitSimBlocked, nil)
	case analysis.OutcomeBudget:
		return exitWith(exitSimBudget, nil)
	}
	return nil
}

// simulationPlan resolves --task with the scenario's facts appended to its
// constraints.facts; nil without --task (the bare plan).
func simulationPlan(cmd *cobra.Command, t *tree.Tree, w *workflow.Workflow, taskFile string, sc *analysis.Scenario, sources diag.Sources) (*engine.Plan, diag.List) {
	if taskFile == "" {
		return nil, nil
	}
	data, ds := readDocument(cmd, "--task", taskFile, maxTaskFile, sources)
	if ds != nil {
		return nil, ds
	}
	taskFile = inputName(taskFile)
	task, ds := engine.ReadTask(taskFile, data)
	if ds.HasErrors() {
		return nil, ds
	}
	task.Facts = append(task.Facts, sc.Facts...)
	plan, ds := engine.Resolve(t, task)
	if ds.HasErrors() {
		return nil, ds
	}
	if plan.Workflow != w {
		return nil, diag.List{diag.Errorf(analysis.CodeWorkflowMismatch, "the task's profile `%s` runs workflow `%s`, not `%s`", plan.Profile.ID, plan.Workflow.Ref(), w.Ref()).InFile(taskFile).
			WithHint("simulate the task's workflow with --id %s, or another task", plan.Workflow.ID)}
	}
	return plan, ds
}
