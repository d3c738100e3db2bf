package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
)

func init() { register("flow", newFlowCmd) }

// flowFlags holds the flags of `aepflow flow`.
type flowFlags struct {
	id, root, workflowFile, mapRef, out, format string
	maxAttempts                                 uint32
	check                                       bool
}

func newFlowCmd() *cobra.Command {
	var f flowFlags
	cmd := &cobra.Command{
		Use:   "flow --id REF | --workflow FILE [--root DIR] [--map FILE|ID] [--max-attempts N] [--out FILE] [--format yaml|json] [--check]",
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runFlow(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.id, "id", "", "workflow reference, `REF` = <id> or <id>/<major> (required unless --workflow)")
	fl.StringVar(&f.root, "root", ".", "document tree root `DIR`")
	fl.StringVar(&f.workflowFile, "workflow", "", "project a single workflow `FILE` (- for stdin) instead of one from the tree")
	fl.StringVar(&f.mapRef, "map", "", "step map: a file (- for stdin), or the id of a map under the tree's drivers/ (`FILE|ID`)")
	f.maxAttempts = compiler.DefaultMaxAttempts
	fl.Var((*countValue)(&f.maxAttempts), "max-attempts", "attempts of every retreat group, `N` >= 1")
	fl.StringVar(&f.out, "out", "", "write the document to `FILE` (atomically; - for stdout) instead of stdout")
	fl.StringVar(&f.format, "format", "", "output `FORMAT`: yaml or json (default: the one --out's extension names, else yaml)")
	fl.BoolVar(&f.check, "check", false, "compare with the --out file instead of writing; exit 1 with a diff when stale")
	completeRoot(cmd)
	readsStdin(cmd, "workflow", "map")
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(flowFormats...))
	return cmd
}

// validate checks the flag combination before anything is loaded, and
// returns the format: --format, else the one --out's extension names
// (`.json` JSON, `.yaml`/`.yml` YAML), else YAML. An --out the harness
// would refuse to read (another extension, or none) or whose extension
// contradicts --format is a usage error: nothing is written.
func (f *flowFlags) validate() (compiler.Format, error) {
	if f.id == "" && f.workflowFile == "" {
		return "", usageError("--id is required (or --workflow FILE)")
	}
	if f.id != "" && f.workflowFile != "" {
		return "", usageError("--id and --workflow exclude each other")
	}
	if f.id != "" {
		if err := checkRootDir(f.root); err != nil {
			return "", err
		}
	}
	if f.check && (f.out == "" || f.out == stdio) {
		return "", usageError("--check compares with the --out file: give --out FILE")
	}
	if f.format != "" {
		if err := checkEnum("format", f.format, flowFormats); err != nil {
			return "", err
		}
	}
	if f.out == "" || f.out == stdio {
		if f.format == "" {
			return compiler.YAML, nil
		}
		return compiler.Format(f.format), nil
	}
	var byName compiler.Format
	switch ext := strings.ToLower(filepath.Ext(f.out)); ext {
	case ".json":
		byName = compiler.JSON
	case ".yaml", ".yml":
		byName = compiler.YAML
	case "":
		return "", usageError("--out %s has no extension; the harness reads a flow document named .json, .yaml or .yml", f.out)
	default:
		return "", usageError("--out %s has extension `%s`; the harness reads a flow document named .json, .yaml or .yml", f.out, ext)
	}
	if f.format != "" && compiler.Format(f.format) != byName {
		return "", usageError("--format %s contradicts --out %s, which names a %s document", f.format, f.out, strings.ToUpper(string(byName)))
	}
	return byName, nil
}

// flowMemoryLimit is the soft memory limit `aepflow flow` runs under when
// the user sets no GOMEMLIMIT. A projection is a batch over one bounded
// document whose working set peaks while the generated bytes are read back
// (yaml.v3's node tree of them: about 170 MiB for an 80,000-state
// workflow); by default Go lets the heap grow to twice the live data before
// it collects, which put that projection near 400 MiB. Under the limit the
// collector runs earlier as the heap nears it; smaller projections never
// reach it and pay nothing, and a larger working set only makes the
// collector work harder (the limit is soft: nothing fails).
const flowMemoryLimit = 320 << 20

// limitMemory applies flowMemoryLimit unless GOMEMLIMIT says otherwise.
func limitMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set && debug.SetMemoryLimit(-1) > flowMemoryLimit {
		debug.SetMemoryLimit(flowMemoryLimit)
	}
}

// flowFormats lists the values of `flow --format`.
var flowFormats = []string{"yaml", "json"}

func runFlow(cmd *cobra.Command, f flowFlags) error {
	format, err := f.validate()
	if err != nil {
		return err
	}
	limitMemory()
	stderr := cmd.ErrOrStderr()
	w, maps, sources, ds := loadForFlow(cmd, f)
	if ds.HasErrors() {
		return reportDiagnostics(stderr, ds, sources)
	}
	opts := compiler.Options{MaxAttempts: f.maxAttempts}
	if f.mapRef != "" {
		m, mds := selectMapFlag(cmd, f.mapRef, maps, w, sources)
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
func loadForFlow(cmd *cobra.Command, f flowFlags) (*workflow.Workflow, []*stepmap.Map, diag.Sources, diag.List) {
	sources := diag.Sources{}
	if f.workflowFile != "" {
		data, ds := readDocument(cmd, "--workflow", f.workflowFile, yamldoc.MaxFileSize, sources)
		if ds != nil {
			return nil, nil, sources, ds
		}
		w, ds := workflow.Load(inputName(f.workflowFile), data)
		if w != nil {
			ds.Extend(w.Validate())
		}
		return w, nil, sources, ds
	}
	w, t, ds := loadTreeWorkflow(cmd, f.root, f.id, sources)
	if t == nil || w == nil {
		return nil, nil, sources, ds
	}
	return w, t.StepMapList(), sources, ds
}
