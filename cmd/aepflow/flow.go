package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

func init() { register(newFlowCmd) }

// flowFlags holds the flags of `aepflow flow`.
type flowFlags struct {
	id, root, workflowFile, mapRef, out, format string
	maxAttempts                                 uint32
	check                                       bool
}

func newFlowCmd() *cobra.Command {
	var f flowFlags
	cmd := &cobra.Command{
		Use:   "flow --id REF [--root DIR] [--map FILE|ID] [--out FILE] [--check]",
		Short: "Project a workflow (and a step map) into a b10x flow document",
		Long: `Project an AEP workflow, optionally with a step map, into the flow document that
` + "`b10x-harness workflow plan|run`" + ` executes: every non-terminal state becomes a group
holding its steps, retreats (back edges) become repeating groups bounded by
--max-attempts, and guards and terminal states are dropped (the engine governs
them through the transition hook). The output is byte-stable run to run.

The whole tree at --root is loaded and validated first; any error refuses the
command. Every document written is first checked the way the harness checks it,
and a document it would refuse is never written.

Without --out the document goes to stdout. With --out it is written atomically
and its path printed. With --check (needs --out) nothing is written: the command
exits 1 with a unified diff when the file is stale, which is what CI runs to
keep committed flows honest.

Exit codes: 0 written (or up to date), 1 refused or stale, 2 usage error.`,
		Example: `  # The bundled example, with its step map, to stdout
  aepflow flow --root examples/tree --id demo/review --map demo/review-steps

  # Write it, then keep it honest in CI
  aepflow flow --root examples/tree --id demo/review --map demo/review-steps --out flow.yaml
  aepflow flow --root examples/tree --id demo/review --map demo/review-steps --out flow.yaml --check

  # A pinned reference, JSON output, retreats bounded at 5 attempts
  aepflow flow --root . --id adp/default/2 --max-attempts 5 --format json

  # A single workflow file, outside any tree
  aepflow flow --workflow workflow.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runFlow(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.id, "id", "", "workflow reference, `REF` = <id> or <id>/<major> (required unless --workflow)")
	fl.StringVar(&f.root, "root", ".", "document tree root `DIR`")
	fl.StringVar(&f.workflowFile, "workflow", "", "project a single workflow `FILE` instead of one from the tree")
	fl.StringVar(&f.mapRef, "map", "", "step map: a file, or the id of a map under the tree's drivers/ (`FILE|ID`)")
	fl.Uint32Var(&f.maxAttempts, "max-attempts", compiler.DefaultMaxAttempts, "attempts of every retreat group, `N` >= 1")
	fl.StringVar(&f.out, "out", "", "write the document to `FILE` (atomically) instead of stdout")
	fl.StringVar(&f.format, "format", "", "output `FORMAT`: yaml or json (default: json when --out ends in .json, else yaml)")
	fl.BoolVar(&f.check, "check", false, "compare with the --out file instead of writing; exit 1 with a diff when stale")
	completeRoot(cmd)
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(flowFormats...))
	return cmd
}

// validate checks the flag combination before anything is loaded.
func (f *flowFlags) validate() (compiler.Format, error) {
	if f.maxAttempts == 0 {
		return "", usageError("--max-attempts must be 1 or more: it is the number of attempts of each retreat group, the first included")
	}
	if f.id == "" && f.workflowFile == "" {
		return "", usageError("--id is required (or --workflow FILE)")
	}
	if f.id != "" && f.workflowFile != "" {
		return "", usageError("--id and --workflow exclude each other")
	}
	if f.check && f.out == "" {
		return "", usageError("--check compares with the --out file: give --out")
	}
	switch f.format {
	case "":
		if strings.HasSuffix(strings.ToLower(f.out), ".json") {
			return compiler.JSON, nil
		}
		return compiler.YAML, nil
	case "yaml", "json":
		return compiler.Format(f.format), nil
	}
	return "", checkEnum("format", f.format, flowFormats)
}

// flowFormats lists the values of `flow --format`.
var flowFormats = []string{"yaml", "json"}

func runFlow(cmd *cobra.Command, f flowFlags) error {
	format, err := f.validate()
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	w, maps, sources, ds := loadForFlow(f)
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	opts := compiler.Options{MaxAttempts: f.maxAttempts}
	if f.mapRef != "" {
		m, mds := compiler.SelectMap(f.mapRef, maps, w, os.ReadFile)
		ds.Extend(mds)
		if mds.HasErrors() {
			return reportDiagnostics(stderr, ds, sources)
		}
		opts.Map = m
	}
	out, _, gds := compiler.Generate(w, opts, format)
	ds.Extend(gds)
	if out == nil {
		return reportDiagnostics(stderr, ds, sources)
	}
	if len(ds) > 0 {
		_ = writeText(stderr, ds.Sorted(), sources)
	}
	return emitDocument(cmd, f.out, f.check, out)
}

// loadForFlow finds the workflow (and the tree's step maps) the command
// projects.
func loadForFlow(f flowFlags) (*workflow.Workflow, []*stepmap.Map, diag.Sources, diag.List) {
	sources := diag.Sources{}
	if f.workflowFile != "" {
		data, err := os.ReadFile(f.workflowFile)
		if err != nil {
			return nil, nil, sources, diag.List{ioError(f.workflowFile, err)}
		}
		sources[f.workflowFile] = data
		w, ds := workflow.Load(f.workflowFile, data)
		if w != nil {
			ds.Extend(w.Validate())
		}
		return w, nil, sources, ds
	}
	w, t, ds := loadTreeWorkflow(f.root, f.id, sources)
	if t == nil || w == nil {
		return nil, nil, sources, ds
	}
	return w, t.StepMapList(), sources, ds
}
