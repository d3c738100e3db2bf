package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/atomicfile"
	"github.com/aepflow/aepflow/internal/textdiff"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// This file holds what the commands that read a tree and write a document
// (flow, render) share: finding the workflow, printing diagnostics, and
// writing or checking the output.

// loadTreeWorkflow parses the workflow reference id, loads the tree at root
// and finds the workflow. The tree's sources are added to sources for the
// text printer. The tree is nil when it does not load, the workflow nil when
// the reference is bad or unknown; the list says why.
func loadTreeWorkflow(root, id string, sources diag.Sources) (*workflow.Workflow, *tree.Tree, diag.List) {
	ref, err := ident.ParseRef(ident.Dotted, id)
	if err != nil {
		return nil, nil, diag.List{diag.Errorf("invalid_reference", "`--id %s` is not a workflow reference: %v", id, err).WithPath("--id")}
	}
	t, ds := tree.Load(root)
	if t != nil {
		for name, data := range t.Sources {
			sources[name] = data
		}
	}
	if ds.HasErrors() || t == nil {
		return nil, nil, ds
	}
	w, err := t.Workflow(ref)
	if err != nil {
		if l, ok := diag.AsList(err); ok {
			return nil, t, append(ds, l...)
		}
		return nil, t, append(ds, diag.Errorf("unknown_workflow", "%v", err))
	}
	return w, t, ds
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

// emitDocument prints the document to stdout, writes it atomically to out
// (printing the path), or with check compares it with out.
func emitDocument(cmd *cobra.Command, out string, check bool, doc []byte) error {
	switch {
	case check:
		return checkStale(cmd.OutOrStdout(), out, doc)
	case out != "":
		if err := atomicfile.Write(out, doc, 0o644); err != nil {
			return reportDiagnostics(cmd.ErrOrStderr(), diag.List{ioError(out, err)}, nil)
		}
		fmt.Fprintln(cmd.OutOrStdout(), out)
		return nil
	}
	_, err := cmd.OutOrStdout().Write(doc)
	return err
}

// checkStale compares the file with the bytes this run would write: exit 0
// when identical, else exit 1 with a unified diff from the file to them.
func checkStale(stdout io.Writer, path string, want []byte) error {
	have, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return exitWith(exitProblems, fmt.Errorf("%s: %v", path, err))
	}
	if err == nil && bytes.Equal(have, want) {
		return nil
	}
	fmt.Fprint(stdout, textdiff.Unified(path, path+" (regenerated)", have, want))
	if err != nil {
		return exitWith(exitProblems, fmt.Errorf("%s does not exist; run the command without --check to write it", path))
	}
	return exitWith(exitProblems, fmt.Errorf("%s is stale; run the command without --check to rewrite it", path))
}
