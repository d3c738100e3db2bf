package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/instruct"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
)

func init() { register("instruct", newInstructCmd) }

// Codes of `aepflow instruct` (instructions.md §2.2) beyond the tree's and
// the step map's own.
const (
	codeOutRequired = "out_required"
)

// instructFlags holds the command line of `aepflow instruct`.
type instructFlags struct {
	root, id, mapRef, out, format string
	check                         bool
}

// instructFormats lists the values of `instruct --format`: Markdown is the
// one format instructions.md defines.
var instructFormats = []string{"markdown"}

func newInstructCmd() *cobra.Command {
	var f instructFlags
	cmd := &cobra.Command{
		Use:   "instruct [--root DIR] [--id REF] [--map ID|FILE] [--out PATH] [--check] [--format markdown]",
		Short: "Write a workflow as the Markdown a person or an agent acts on",
		Long: `Instruct writes, for a workflow of the tree at --root, the Markdown document a
person or an agent reads to act on it: its states in layout order, what each move
needs, the obligations due before entering a state and while in it, what the step
map runs there (with --map), and every principle of the tree that reaches the
workflow. Everything in it is the documents' own content; nothing is evaluated.
The output is byte-stable, fit to commit. See docs/instruct.md.

The whole tree is loaded and validated first; any error refuses the command.

With --id, one document: to stdout (also --out -), or to the file --out (missing
parent directories are created; its path is printed). Without --id, every workflow of
the tree, into the directory --out: <workflow id>.md each (adp/default ->
adp/default.md), then the index README.md; each path is printed as it is
written. Nothing is ever deleted. --map (a file, or the id of a map under the
tree's drivers/) adds the map's steps to the one document, so it needs --id.

--check (needs --out) writes nothing: it prints a unified diff for every file that
is stale or missing and, without --id, names every other *.md file under the
directory (an orphan, such as the document of a workflow the tree no longer
declares), and exits 1 when there is anything to report.

Exit codes: 0 written (or up to date); 1 the tree does not load, the workflow or
map is refused, there is no workflow, --out is missing without --id, a file
cannot be written, or --check found a stale, missing or orphaned file; 2 usage
error.`,
		Example: `  # one workflow's instructions, to stdout
  aepflow instruct --root examples/tree --id demo/review

  # with the steps its map runs
  aepflow instruct --root examples/tree --id demo/review --map demo/review-steps

  # every workflow into a directory, then keep it honest in CI
  aepflow instruct --root examples/tree --out examples/instructions
  aepflow instruct --root examples/tree --out examples/instructions --check`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			return runInstruct(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.root, "root", ".", "document tree root `DIR`")
	fl.StringVar(&f.id, "id", "", "workflow reference, `REF` = <id> or <id>/<major>; without it, every workflow")
	fl.StringVar(&f.mapRef, "map", "", "step map: a file (- for stdin), or the id of a map under the tree's drivers/ (`FILE|ID`; needs --id)")
	fl.StringVar(&f.out, "out", "", "with --id: write the document to `PATH` (- for stdout); without: write every document into the directory PATH")
	fl.StringVar(&f.format, "format", "markdown", "output `FORMAT`: markdown (the only one)")
	fl.BoolVar(&f.check, "check", false, "compare with --out instead of writing; exit 1 with a diff when stale, missing or orphaned")
	completeRoot(cmd)
	readsStdin(cmd, "map")
	_ = cmd.RegisterFlagCompletionFunc("id", completeWorkflowIDs)
	_ = cmd.RegisterFlagCompletionFunc("map", completeStepMaps)
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(instructFormats...))
	return cmd
}

// validate applies the usage rules of instructions.md §2.2, before
// anything is read.
func (f instructFlags) validate() error {
	switch {
	case !slices.Contains(instructFormats, f.format):
		return checkEnum("format", f.format, instructFormats)
	case f.mapRef != "" && f.id == "":
		return usageError("--map needs --id: a step map is written against one workflow")
	case f.check && (f.out == "" || f.out == stdio):
		return usageError("--check compares with --out: give --out (a file with --id, a directory without)")
	case f.out == stdio && f.id == "":
		return usageError("--out - is standard output, which takes one document: give --id, or a directory for every workflow")
	}
	if err := checkRootDir(f.root); err != nil {
		return err
	}
	return nil
}

// instructRun is what one run of the command has read.
type instructRun struct {
	cmd     *cobra.Command
	f       instructFlags
	tree    *tree.Tree
	sources diag.Sources
}

// runInstruct loads the tree and writes (or checks) one document or a
// directory of them, refusing in the order of §2.2.
func runInstruct(cmd *cobra.Command, f instructFlags) error {
	r := &instructRun{cmd: cmd, f: f, sources: diag.Sources{}}
	t, ds := tree.Load(f.root)
	ds.Extend(treeChecks(t)) // validated as validate validates it (instructions.md §2: D§2.5)
	noteTree(cmd, t, r.sources)
	if ds.HasErrors() {
		return reportDiagnostics(cmd.ErrOrStderr(), ds, r.sources)
	}
	if len(ds) > 0 {
		_ = writeText(cmd.ErrOrStderr(), ds.Sorted(), r.sources)
	}
	r.tree = t
	if f.id != "" {
		return r.one()
	}
	return r.all()
}

// refuse prints ds and exits 1.
func (r *instructRun) refuse(ds ...diag.Diagnostic) error {
	return reportDiagnostics(r.cmd.ErrOrStderr(), ds, r.sources)
}

// principles returns every principle of the tree: Build decides which
// bind.
func (r *instructRun) principles() []*protocol.Principle {
	ids := r.tree.PrincipleIDs()
	out := make([]*protocol.Principle, 0, len(ids))
	for _, id := range ids {
		out = append(out, r.tree.Principles[id])
	}
	return out
}

// one writes the document of the workflow --id (with --map's steps).
func (r *instructRun) one() error {
	w, ds := findWorkflow(r.tree, r.f.id)
	if w == nil {
		return r.refuse(ds...)
	}
	var m *stepmap.Map
	if r.f.mapRef != "" {
		if m, ds = selectMapFlag(r.cmd, r.f.mapRef, r.tree.StepMapList(), w, r.sources); ds.HasErrors() {
			return r.refuse(ds...)
		}
		if len(ds) > 0 {
			_ = writeText(r.cmd.ErrOrStderr(), ds.Sorted(), r.sources)
		}
	}
	doc := instruct.Markdown(instruct.Build(w, r.principles(), m))
	if r.f.check {
		return checkStale(r.cmd.OutOrStdout(), r.f.out, doc)
	}
	if r.f.out == "" || r.f.out == stdio {
		return writeStdout(r.cmd, doc)
	}
	if err := fsio.WriteFile(r.f.out, doc, r.writeOptions()); err != nil {
		return r.refuse(fileError(r.f.out, err))
	}
	return printPath(r.cmd, "", r.f.out)
}

// fileError is the diagnostic of a file the command cannot read or write:
// input_too_large for an input over the bound, io_error otherwise; an fsio
// refusal says why in its own words.
func fileError(path string, err error) diag.Diagnostic {
	var fe *fsio.Error
	if !errors.As(err, &fe) {
		return ioError(path, err)
	}
	code := tree.CodeIOError
	if fe.Kind == fsio.KindTooLarge {
		code = tree.CodeInputTooLarge
	}
	return diag.Errorf(code, "cannot %s `%s`: %s", fe.Op, path, fe.Reason()).InFile(path)
}

// writeOptions are the options of every file the command writes: missing
// parent directories are created, and none lands on one of the command's
// inputs (the tree's files, a --map file).
func (r *instructRun) writeOptions() fsio.WriteOptions {
	s := stateOf(r.cmd)
	return fsio.WriteOptions{Inputs: s.inputs, Opened: s.opened, MakeDirs: true}
}

// outputs are the files directory mode writes, in write order: the
// documents in path order, then the index.
type output struct {
	rel  string
	data []byte
}

// all writes (or checks) every workflow's document and the index into the
// directory --out.
func (r *instructRun) all() error {
	if len(r.tree.Workflows) == 0 {
		return r.refuse(noWorkflow(r.f.root, "write instructions for"))
	}
	if r.f.out == "" {
		n := len(r.tree.Workflows)
		return r.refuse(diag.Errorf(codeOutRequired, "without `--id` every workflow's document is written, %s for this tree, and they go into a directory: no `--out` was given", count(n, "document")).
			WithHint("give `--out DIR` to write every document into DIR, or `--id <workflow>` to print one document on stdout"))
	}
	outs := r.documents()
	if info, err := os.Stat(r.f.out); err == nil && !info.IsDir() {
		return r.refuse(ioError(r.f.out, fmt.Errorf("it is not a directory")))
	}
	if r.f.check {
		return r.checkDir(outs)
	}
	// Every file is checked before the first is written, and none is
	// written through a symbolic link below the directory (fsio.WriteFiles).
	files := make([]fsio.Output, len(outs))
	for i, o := range outs {
		files[i] = fsio.Output{Rel: o.rel, Data: o.data}
	}
	if i, err := fsio.WriteFiles(r.f.out, files, r.writeOptions(), func(i int) {
		_ = printPath(r.cmd, "", r.shown(outs[i].rel)) // the files are written: a lost line is not a lost write
	}); err != nil {
		return r.refuse(fileError(r.shown(outs[i].rel), err))
	}
	return nil
}

// documents builds every workflow's document and the index, in write order.
func (r *instructRun) documents() []output {
	principles := r.principles()
	var outs []output
	var entries []instruct.Entry
	for _, id := range r.tree.WorkflowIDs() {
		doc := instruct.Build(r.tree.Workflows[id], principles, nil)
		entries = append(entries, instruct.EntryOf(doc))
		outs = append(outs, output{rel: instruct.RelPath(id), data: instruct.Markdown(doc)})
	}
	slices.SortFunc(outs, func(a, b output) int { return strings.Compare(a.rel, b.rel) })
	index := instruct.Index(entries, instruct.RegenerateCommand(r.f.root, r.f.out))
	return append(outs, output{rel: instruct.IndexName, data: index})
}

// shown is how a file of the directory is named in output: --out as given,
// one `/`, the relative path.
func (r *instructRun) shown(rel string) string {
	return strings.TrimRight(r.f.out, "/") + "/" + rel
}

// checkDir compares every file directory mode would write, then names the
// orphans: the other *.md files under the directory (dot-entries skipped).
func (r *instructRun) checkDir(outs []output) error {
	stdout := r.cmd.OutOrStdout()
	stale := 0
	written := map[string]bool{}
	for _, o := range outs {
		written[o.rel] = true
		// What the write would refuse (a link below the directory) is
		// refused here too, not compared through the link.
		if err := fsio.CheckWithin(filepath.Join(r.f.out, filepath.FromSlash(o.rel)), r.f.out); err != nil {
			var fe *fsio.Error
			if errors.As(err, &fe) {
				fe.Op = "compare with"
			}
			return r.refuse(fileError(r.shown(o.rel), err))
		}
		diff, missing, err := staleDiff(filepath.Join(r.f.out, filepath.FromSlash(o.rel)), r.shown(o.rel), o.data)
		if err != nil {
			return r.refuse(fileError(r.shown(o.rel), err))
		}
		if diff != "" || missing {
			fmt.Fprint(stdout, diff)
			stale++
		}
	}
	found, err := markdownFiles(r.f.out)
	if err != nil {
		return r.refuse(ioError(r.f.out, err))
	}
	orphans := 0
	for _, rel := range found {
		if !written[rel] {
			if err := printPath(r.cmd, "orphan: ", r.shown(rel)); err != nil {
				return err
			}
			orphans++
		}
	}
	if stale == 0 && orphans == 0 {
		return nil
	}
	return exitWith(exitProblems, fmt.Errorf("%s: %s stale or missing, %s orphaned; run without --check to rewrite (orphans are deleted by hand, never by aepflow)",
		r.f.out, count(stale, "file"), count(orphans, "file")))
}

// markdownFiles returns the `/`-separated paths, relative to dir and in
// byte order, of every *.md entry under dir that is not a directory, read
// as a tree's directories are (tree.Files: dot entries skipped, a missing
// dir holds none).
func markdownFiles(dir string) ([]string, error) {
	paths, err := tree.Files(dir, func(name string) bool { return strings.HasSuffix(name, ".md") })
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(paths))
	for _, path := range paths {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return nil, err
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out, nil
}

// count is n with noun, the noun in the plural unless n is 1.
func count(n int, noun string) string { return fmt.Sprintf("%d %s", n, plural(n, noun)) }
