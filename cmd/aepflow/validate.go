package main

import (
	"fmt"
	"io"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/diag/sarif"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/internal/rules"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/spf13/cobra"
)

func init() { register("validate", newValidateCmd) }

// outputFormats lists the values --format accepts.
var outputFormats = []string{"text", "json", "sarif"}

// kindNames lists the values --kind accepts.
var kindNames = []string{"driver-steps", "lifecycle", "principle", "profile", "protocol", "step_map", "workflow"}

func newValidateCmd() *cobra.Command {
	var root, format, kind string
	cmd := &cobra.Command{
		Use:   "validate [--root DIR] [--format text|json|sarif] [--kind KIND] [FILE...]",
		Short: "Validate an AEP document tree, or single documents",
		Long: `Validate loads an AEP document tree and reports every problem it finds at once,
each at its file, line and column with a stable code (docs/codes-documents.md).

Without FILE arguments the whole tree at --root is loaded: protocols/, principles/,
workflows/, profiles/, artifacts/lifecycles/ and drivers/, in that order. Every
document is read strictly and validated, duplicates and misplaced documents are
refused, and every step map is checked against the workflow it pins. Every
reference a profile or protocol makes (protocol, extends, workflow, principles)
is resolved as evaluate and the hook resolve it, and one the tree lacks is
reported at its line (resolution_failed). Every fact a
profile's workflow or completion reads must match an ` + "`observables`" + ` pattern of the
profile's protocol chain (unobservable_fact).

With FILE arguments each file is validated on its own (- reads standard input). Its kind is read from its
contents (a step map declares ` + "`format:`" + `, a workflow has ` + "`initial`" + ` and ` + "`states`" + `, …),
else from the directory it sits in, or forced with --kind (protocol, principle,
workflow, profile, lifecycle, step_map; driver-steps is accepted for step_map).
Checks that need other documents (cross-validation of a step map) run only in
tree mode.

Output: text (file:line:col: message [code], with the hint and source line),
json (an array of diagnostics) or sarif (SARIF 2.1.0). A clean text run prints
one summary line, "ok: N documents, 0 problems".

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage error
(unknown --format or --kind, --root not a directory).`,
		Example: `  # validate the bundled example tree
  aepflow validate --root examples/tree

  # validate the tree in the current directory, for a CI problem matcher
  aepflow validate --format sarif > aepflow.sarif

  # validate one step map, whatever folder it is in
  aepflow validate --kind driver-steps my-steps.yaml`,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := checkEnum("format", format, outputFormats); err != nil {
				return err
			}
			var k tree.Kind
			if kind != "" {
				var ok bool
				if k, ok = tree.ParseKind(kind); !ok {
					return checkEnum("kind", kind, kindNames)
				}
			}
			if kind != "" && len(files) == 0 {
				return usageError("--kind is for FILE arguments: a tree's documents are told apart by their directories")
			}
			var diags diag.List
			var sources diag.Sources
			var count int
			if len(files) > 0 {
				diags, sources, count = validateFiles(cmd, files, k)
			} else {
				if err := checkRootDir(root); err != nil {
					return err
				}
				t, ds := tree.Load(root)
				ds.Extend(t.RequireDocuments())
				ds.Extend(treeChecks(t))
				diags, sources, count = ds, t.Sources, len(t.Files)
			}
			return report(cmd.OutOrStdout(), format, diags.Sorted(), sources, count)
		},
	}
	cmd.Flags().StringVar(&root, "root", ".", "root `DIR` of the document tree")
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text, json or sarif")
	cmd.Flags().StringVar(&kind, "kind", "", "`KIND` of every FILE, instead of detecting it")
	completeRoot(cmd)
	argsReadStdin(cmd, "FILE")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(outputFormats...))
	_ = cmd.RegisterFlagCompletionFunc("kind", fixedCompletion(kindNames...))
	return cmd
}

// treeChecks runs the checks of a tree beyond tree.Load's own: references
// between documents, and every fact a profile's workflow or completion
// reads must be observable (engine.CheckTree). `aepflow lsp` runs the same
// function, so the editor and validate cannot drift.
func treeChecks(t *tree.Tree) diag.List { return engine.CheckTree(t) }

// validateFiles validates each file on its own; `-` is standard input,
// whose kind is told from its contents (or --kind), as a file's is.
func validateFiles(cmd *cobra.Command, files []string, kind tree.Kind) (diag.List, diag.Sources, int) {
	var diags diag.List
	sources := diag.Sources{}
	for _, f := range files {
		data, ds := readDocument(cmd, "FILE", f, yamldoc.MaxFileSize, sources)
		if ds == nil {
			_, ds = tree.LoadDocument(inputName(f), data, kind)
		}
		for i := range ds {
			if ds[i].Code == tree.CodeUnknownKind {
				ds[i].Hint += "; " + tree.NameKindHint("--kind")
			}
		}
		diags.Extend(ds)
	}
	return diags, sources, len(files)
}

// report prints the diagnostics in the chosen format and returns the exit
// status: 1 when any is an error.
func report(w io.Writer, format string, diags diag.List, sources diag.Sources, count int) error {
	var err error
	switch format {
	case "json":
		err = diag.WriteJSON(w, diags)
	case "sarif":
		err = sarif.Write(w, diags, sarif.Tool{Name: "aepflow", Version: version(), InformationURI: rules.Repository, Rule: rules.Lookup})
	default:
		if len(diags) == 0 {
			_, err = fmt.Fprintf(w, "ok: %d %s, 0 problems\n", count, plural(count, "document"))
		} else {
			err = writeText(w, diags, sources)
		}
	}
	if err != nil {
		return exitWith(exitProblems, fmt.Errorf("cannot write the report: %v", errText(err)))
	}
	if diags.HasErrors() {
		return exitWith(exitProblems, nil)
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
