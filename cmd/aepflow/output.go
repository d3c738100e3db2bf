package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/textdiff"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
)

// This file holds what the commands that read a tree and write a document
// (flow, render) share: finding the workflow, printing diagnostics, and
// writing or checking the output.

// codeNoWorkflow: a command that works on every workflow of the tree
// (instruct, analyze without --id) was given a tree that declares none.
const codeNoWorkflow = "no_workflow"

// noWorkflow refuses a tree at root that declares no workflow, for a
// command that would do what to each: a check over no workflow would pass
// having checked nothing. The hint names where the workflows were looked for.
func noWorkflow(root, what string) diag.Diagnostic {
	return diag.Errorf(codeNoWorkflow, "the tree at `%s` declares no workflow: there is nothing to %s", root, what).
		WithHint("add a workflow under `%s`", filepath.ToSlash(filepath.Join(root, "workflows")))
}

// loadTreeWorkflow parses the workflow reference id, loads the tree at root
// (validate's checks included) and finds the workflow. The tree's sources
// are added to sources for the text printer, and its files to the
// command's inputs (no --out may land on one). The tree is nil when it
// does not load, the workflow nil when the reference is bad or unknown;
// the list says why.
func loadTreeWorkflow(cmd *cobra.Command, root, id string, sources diag.Sources) (*workflow.Workflow, *tree.Tree, diag.List) {
	if _, ds := workflowRef(id); ds != nil {
		return nil, nil, ds // refused before the tree is read
	}
	t, ds := tree.Load(root)
	ds.Extend(t.RequireDocuments())
	// Validated as validate validates it (documents.md §2.5: references
	// resolved, vocabulary declared): a tree the hook refuses is refused
	// here too, so that `flow --check` never passes it in CI.
	ds.Extend(treeChecks(t))
	noteTree(cmd, t, sources)
	if ds.HasErrors() {
		return nil, nil, ds
	}
	w, wds := findWorkflow(t, id)
	return w, t, append(ds, wds...)
}

// noteTree adds the sources of the loaded tree t to sources, for the text
// printer, and its files to the command's inputs, so that no --out lands
// on one.
func noteTree(cmd *cobra.Command, t *tree.Tree, sources diag.Sources) {
	maps.Copy(sources, t.Sources)
	for _, f := range t.Files {
		noteInputs(cmd, f.Path)
	}
}

// workflowRef parses `--id id`, a workflow reference; its refusal is
// invalid_reference at --id.
func workflowRef(id string) (ident.Ref, diag.List) {
	ref, err := ident.ParseRef(ident.Dotted, id)
	if err != nil {
		return ref, diag.List{diag.Errorf("invalid_reference", "`--id %s` is not a workflow reference: %v", id, err).WithPath("--id")}
	}
	return ref, nil
}

// findWorkflow returns the workflow of t that `--id id` names, or why there
// is none: invalid_reference (workflowRef) or the tree's unknown_workflow
// diagnostic, tree.Workflow's only error.
func findWorkflow(t *tree.Tree, id string) (*workflow.Workflow, diag.List) {
	ref, ds := workflowRef(id)
	if ds != nil {
		return nil, ds
	}
	w, err := t.Workflow(ref)
	if err != nil {
		ds, _ = diag.AsList(err)
	}
	return w, ds
}

// mapFlag is what `--map x` names, read at most once: the step-map file x
// (its bytes, under the name diagnostics give it) or, when no file is
// there, the step-map id x.
type mapFlag struct {
	name string
	data []byte
	file bool
}

// readMapFlag reads `--map x` the one way every command chooses a map
// (documents.md §8.5): `-` is standard input; anything at x but a
// directory is the file x, read through readInput, so that a named pipe, a
// device, a link to one or a file over the document bound is refused as
// what it is (its diagnostic is returned), never mistaken for an id; a
// directory is the id it spells when maps holds that id, and is refused as
// a directory otherwise; nothing at x is an id. The bytes read are added
// to sources, for the source lines under the map's diagnostics.
func readMapFlag(cmd *cobra.Command, x string, maps []*stepmap.Map, sources diag.Sources) (mapFlag, diag.List) {
	if x != stdio {
		info, err := os.Stat(x)
		held := slices.ContainsFunc(maps, func(m *stepmap.Map) bool { return m.ID == x })
		switch {
		case err != nil && !held && tree.IsDocumentPath(filepath.Base(x)):
			// `--map steps.yaml` that is missing names a file, not an
			// id: say so, rather than "no step map has the id".
			return mapFlag{}, diag.List{tree.ReadError(x, &fsio.Error{Op: "read", Path: x, Err: err})}
		case err != nil:
			return mapFlag{name: x}, nil
		case info.IsDir() && held:
			return mapFlag{name: x}, nil
		}
	}
	data, ds := readDocument(cmd, "--map", x, yamldoc.MaxFileSize, sources)
	if ds != nil {
		return mapFlag{}, ds
	}
	return mapFlag{name: inputName(x), data: data, file: true}, nil
}

// readDocument reads the document file path names through readInput (at
// most limit bytes; `-` is standard input, claimed for what) and adds its
// bytes to sources under inputName(path), for the source lines under its
// diagnostics. A failure is the diagnostic a tree file's is
// (tree.ReadError).
func readDocument(cmd *cobra.Command, what, path string, limit int64, sources diag.Sources) ([]byte, diag.List) {
	name := inputName(path)
	data, err := readInput(cmd, what, path, limit)
	if err != nil {
		return nil, diag.List{tree.ReadError(name, err)}
	}
	sources[name] = data
	return data, nil
}

// read is the readFile of stepmap.Select and compiler.SelectMap: the bytes
// of the map file, or fs.ErrNotExist when the flag names an id.
func (m mapFlag) read(string) ([]byte, error) {
	if !m.file {
		return nil, fs.ErrNotExist
	}
	return m.data, nil
}

// selectMapFlag reads `--map x` (readMapFlag) and selects the map for w,
// cross-validated (compiler.SelectMap).
func selectMapFlag(cmd *cobra.Command, x string, maps []*stepmap.Map, w *workflow.Workflow, sources diag.Sources) (*stepmap.Map, diag.List) {
	arg, ds := readMapFlag(cmd, x, maps, sources)
	if ds != nil {
		return nil, ds
	}
	return compiler.SelectMap(arg.name, maps, w, arg.read)
}

// reportDiagnostics prints ds (sorted) to w and returns the exit-1 error.
func reportDiagnostics(w io.Writer, ds diag.List, sources diag.Sources) error {
	_ = writeText(w, ds.Sorted(), sources)
	return exitWith(exitProblems, nil)
}

// ioError is the io_error diagnostic for a file that cannot be read or
// written.
func ioError(path string, err error) diag.Diagnostic {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return diag.Errorf("io_error", "cannot access `%s`: %v", path, err).InFile(path)
}

// maxCheckedFile bounds the file --check compares with: larger than any
// document aepflow writes, it keeps a wrong --out (a disk image, a log)
// from being read whole.
const maxCheckedFile = 64 << 20

// emitDocument writes the document to standard output (out "" or `-`),
// atomically to the file out (printing its path; see writeOutput), or with
// check compares it with out.
func emitDocument(cmd *cobra.Command, out string, check bool, doc []byte) error {
	switch {
	case check:
		return checkStale(cmd.OutOrStdout(), out, doc)
	case out != "" && out != stdio:
		if err := writeOutput(cmd, out, doc, false); err != nil {
			var ee *exitError
			if errors.As(err, &ee) && ee.err != nil {
				return reportDiagnostics(cmd.ErrOrStderr(), diag.List{outputError(out, ee.err)}, nil)
			}
			return err
		}
		return printPath(cmd, "", out)
	}
	return writeStdout(cmd, doc)
}

// outputError is the io_error diagnostic for an output that cannot be
// written, saying why (not a regular file, one of the inputs, …).
func outputError(path string, err error) diag.Diagnostic {
	var fe *fsio.Error
	if errors.As(err, &fe) {
		return diag.Errorf("io_error", "cannot write `%s`: %s", path, fe.Reason()).InFile(path)
	}
	return ioError(path, err)
}

// checkStale compares the file with the bytes this run would write: exit 0
// when identical, else exit 1 with a unified diff from the file to them.
// The file is read through fsio: a named pipe or a device is refused.
func checkStale(stdout io.Writer, path string, want []byte) error {
	diff, missing, err := staleDiff(path, path, want)
	if err != nil {
		return exitWith(exitProblems, err)
	}
	if diff == "" && !missing {
		return nil
	}
	fmt.Fprint(stdout, diff)
	if missing {
		return exitWith(exitProblems, fmt.Errorf("%s does not exist; run the command without --check to write it", path))
	}
	return exitWith(exitProblems, fmt.Errorf("%s is stale; run the command without --check to rewrite it", path))
}

// staleDiff compares the file at path with want, naming it label in the
// diff: "" when the file holds exactly want, else the unified diff from the
// file (a missing one counts as empty, and missing is true) to want. The
// file is read through fsio, bounded: one larger than maxCheckedFile, or
// one that is not a regular file, is an error.
func staleDiff(path, label string, want []byte) (diff string, missing bool, err error) {
	have, err := fsio.ReadFile(path, maxCheckedFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		missing = true
	case err != nil:
		return "", false, err
	case bytes.Equal(have, want):
		return "", false, nil
	}
	// The label is a path from the command line: escaped, as every line
	// aepflow prints is, so that it cannot end a header line early.
	label = diag.EscapeText(label)
	return textdiff.Unified(label, label+" (regenerated)", have, want), missing, nil
}
