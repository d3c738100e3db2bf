package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/gitrev"
	"github.com/aepflow/aepflow/semdiff"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
)

func init() { register("diff", newDiffCmd) }

// diffFormats lists the values `diff --format` accepts.
var diffFormats = []string{"text", "json", "markdown"}

// Diagnostic codes of `aepflow diff` (docs/diff.md).
const (
	codeDiffKindMismatch = "diff_kind_mismatch"
	codeDiffKind         = "diff_unsupported_kind"
	codeGit              = "git_error"
	codeDiffNothing      = "diff_nothing_to_compare"
)

// gitTimeout bounds all the git work of one `diff --against`.
const gitTimeout = 2 * time.Minute

// diffFlags holds the command line of `aepflow diff`.
type diffFlags struct {
	against, root, format, out string
}

func newDiffCmd() *cobra.Command {
	var f diffFlags
	cmd := &cobra.Command{
		Use:   "diff OLD NEW | diff --against REV [--root DIR] [--format text|json|markdown] [--out FILE]",
		Short: "Compare workflow and step-map versions by meaning",
		Long: `Diff compares two versions of a workflow, or of a step map, by what they mean
rather than by their lines: comments, key order, YAML quoting and the other
spellings the loaders erase are no change, and guards are compared after
simplification with the members of every all/any in a canonical order, so a
reordered conjunction is no change either.

For a workflow it reports the initial state; states added, removed and changed
(title, summary, terminal, phases, irreversible, requires, capabilities,
on_failure, each with its old and new value); transitions added, removed and
changed, keyed by (from, to, occurrence), and the states whose transitions are
tried in another order (the engine takes the first whose guard holds); a
behaviour change under an unchanged version (every reference id/major that
accepted the old workflow reaches the new behaviour); and, in one line each,
the impact on the projected flow (groups added, removed, re-nested; retreats
gained or lost) and on the diagram. For a step map: its pin, and per state the
visit budget and the steps added, removed, changed and reordered.

With OLD and NEW, the two files are compared (either may be - for stdin); both
must be workflows or both step maps. With --against REV, every workflow and
step map of the tree at --root is compared with the same tree at git revision
REV, read with git without touching the working tree or the index; documents
are matched by id, and those added or removed are listed.

Both sides must validate; a side that does not is refused with its diagnostics.

Output: text, json (the change set; with --against, the changed documents plus
the ids added, removed and unchanged) or markdown (a summary table and a
section per document, for a pull-request comment). --out writes it to a file
atomically (- is stdout); without --format, an --out named .json, .md or .txt
names the format.

Exit codes: 0 both sides read and compared, no change; 1 changes (the report
is printed), a side refused (diagnostics on stderr, no report), or the report
could not be written (an io_error, nothing on stdout); 2 usage error; 3 a
side could not be read at all (an I/O error, git absent or failing, an
unknown revision), so whether anything changed is undecided.`,
		Example: `  # two versions of one workflow
  aepflow diff old/review.yaml workflows/demo/review.yaml

  # what a branch changes, against main, as a pull-request comment
  aepflow diff --root examples/tree --against origin/main --format markdown --out diff.md

  # the committed version against the edited one, for a program
  git show HEAD:workflows/review.yaml | aepflow diff - workflows/review.yaml --format json`,
		RunE: func(cmd *cobra.Command, args []string) error { return runDiff(cmd, f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.against, "against", "", "compare the tree at --root with the same tree at git revision `REV`")
	fl.StringVar(&f.root, "root", ".", "document tree root `DIR` (with --against)")
	outFormatFlag(fl, &f.format, "text", "text, json or markdown")
	fl.StringVar(&f.out, "out", "", "write the report to `FILE` atomically (- is stdout)")
	completeRoot(cmd)
	argsReadStdin(cmd, "OLD", "NEW")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(diffFormats...))
	return cmd
}

// validate checks the command line before anything is read.
func (f *diffFlags) validate(cmd *cobra.Command, args []string) error {
	if err := checkEnum("format", f.format, diffFormats); err != nil {
		return err
	}
	var err error
	if f.format, err = formatFromOut(f.out, f.format, cmd.Flags().Changed("format"), diffFormats, reportExtensions); err != nil {
		return err
	}
	if f.against != "" {
		if len(args) > 0 {
			return usageError("--against compares a whole tree: give no files (got %d)", len(args))
		}
		if strings.HasPrefix(f.against, "-") {
			return usageError("--against %q is not a revision", f.against)
		}
		if err := checkRootDir(f.root); err != nil {
			return err
		}
		return nil
	}
	if cmd.Flags().Changed("root") {
		return usageError("--root is for --against; two files are compared on their own")
	}
	if len(args) != 2 {
		return usageError("diff needs OLD and NEW (got %s), or --against REV", count(len(args), "file"))
	}
	return nil
}

func runDiff(cmd *cobra.Command, f diffFlags, args []string) error {
	if err := f.validate(cmd, args); err != nil {
		return err
	}
	var report *semdiff.Report
	sources := diag.Sources{}
	var ds diag.List
	if f.against != "" {
		report, ds = diffAgainst(cmd, f.root, f.against, sources)
	} else {
		report, ds = diffFiles(cmd, args[0], args[1], sources)
	}
	if ds.HasErrors() {
		_ = writeText(cmd.ErrOrStderr(), ds.Sorted(), sources)
		if slices.ContainsFunc(ds, unreadable) {
			return exitWith(exitUndecided, nil)
		}
		return exitWith(exitProblems, nil)
	}
	if len(ds) > 0 {
		_ = writeText(cmd.ErrOrStderr(), ds.Sorted(), sources)
	}
	var b bytes.Buffer
	if err := writeReport(&b, f.format, report); err != nil {
		return exitWith(exitUndecided, err)
	}
	// The report goes where every command's output goes: stdout, or --out
	// written atomically (never onto an input) with its path printed. A
	// failed write is exit 1 with an io_error and nothing on stdout, so it
	// differs from "changes" (exit 1 too) by the path not being printed.
	if err := emitDocument(cmd, f.out, false, b.Bytes()); err != nil {
		return err
	}
	if report.Changed() {
		return exitWith(exitProblems, nil)
	}
	return nil
}

// unreadable reports whether d says an input could not be read at all, as
// opposed to read and refused.
func unreadable(d diag.Diagnostic) bool {
	return d.Severity == diag.Error && (d.Code == tree.CodeIOError || d.Code == codeGit)
}

func writeReport(w io.Writer, format string, r *semdiff.Report) error {
	switch format {
	case "json":
		return semdiff.WriteJSON(w, r)
	case "markdown":
		return semdiff.WriteMarkdown(w, r)
	}
	return semdiff.WriteText(w, r)
}

// diffFiles compares two document files (one of them may be - for stdin).
func diffFiles(cmd *cobra.Command, oldPath, newPath string, sources diag.Sources) (*semdiff.Report, diag.List) {
	var ds diag.List
	oldDoc := loadDiffDocument(cmd, "OLD", oldPath, sources, &ds)
	newDoc := loadDiffDocument(cmd, "NEW", newPath, sources, &ds)
	if oldDoc == nil || newDoc == nil || ds.HasErrors() {
		return nil, ds
	}
	if oldDoc.Kind != newDoc.Kind {
		return nil, append(ds, diag.Errorf(codeDiffKindMismatch, "`%s` is a %s and `%s` a %s; diff compares two documents of one kind",
			oldPath, kindWord(oldDoc.Kind), newPath, kindWord(newDoc.Kind)).InFile(newDoc.File))
	}
	if oldDoc.Kind == tree.KindWorkflow {
		return semdiff.Single(semdiff.Workflows(oldDoc.Workflow, newDoc.Workflow)), ds
	}
	return semdiff.Single(semdiff.StepMaps(oldDoc.StepMap, newDoc.StepMap)), ds
}

// loadDiffDocument reads (through readInput: a regular file, or standard
// input for `-`, bounded before it is read), detects and validates one
// side, what naming it (OLD or NEW); nil when it cannot be compared (ds
// says why: io_error or input_too_large when it cannot be read).
func loadDiffDocument(cmd *cobra.Command, what, path string, sources diag.Sources, ds *diag.List) *tree.Document {
	data, rds := readDocument(cmd, what, path, yamldoc.MaxFileSize, sources)
	if rds != nil {
		ds.Extend(rds)
		return nil
	}
	name := inputName(path)
	d, lds := tree.LoadDocument(name, data, "")
	ds.Extend(lds)
	if d == nil {
		return nil
	}
	if d.Kind != tree.KindWorkflow && d.Kind != tree.KindStepMap {
		ds.Add(diag.Errorf(codeDiffKind, "`%s` is a %s; diff compares workflows and step maps", path, kindWord(d.Kind)).InFile(name))
		return nil
	}
	return d
}

func kindWord(k tree.Kind) string {
	if k == tree.KindStepMap {
		return "step map"
	}
	return string(k)
}

// diffRows are the rows of a tree that diff compares.
var diffRows = []tree.Kind{tree.KindWorkflow, tree.KindStepMap}

// diffAgainst compares the tree at root with the same tree at git revision
// rev. It returns the report and the diagnostics of both sides; the files
// it read from the working tree are noted as the command's inputs, so that
// --out is never written onto one.
func diffAgainst(cmd *cobra.Command, root, rev string, sources diag.Sources) (*semdiff.Report, diag.List) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	oldTree, ds := loadRevisionTree(ctx, root, rev, sources)
	newTree, nds := tree.LoadKinds(root, diffRows...)
	noteTree(cmd, newTree, sources)
	ds.Extend(nds)
	if ds.HasErrors() || oldTree == nil {
		return nil, ds
	}
	if len(oldTree.Files)+len(newTree.Files) == 0 {
		// An empty comparison would pass a CI step pointed at the wrong
		// directory forever.
		return nil, diag.List{diag.Errorf(codeDiffNothing, "neither the working tree nor %s holds a workflow or a step map under `%s`", rev, root).
			InFile(root).WithHint("--root names the tree's root, the directory holding workflows/ and drivers/")}
	}
	return semdiff.CompareTrees(rev, oldTree, newTree), ds
}

// loadRevisionTree reads the workflows and step maps of the tree at root
// as they are at revision rev: the files each row's walk would collect,
// each refused unread when over yamldoc.MaxFileSize or when git holds it
// as a symbolic link or a submodule. Diagnostics name files `REV:path`,
// path from the repository's top, the spelling `git show` takes.
func loadRevisionTree(ctx context.Context, root, rev string, sources diag.Sources) (*tree.Tree, diag.List) {
	repo, err := gitrev.Open(ctx, root)
	if err != nil {
		return nil, diag.List{gitDiagnostic(err, root)}
	}
	treeID, err := repo.ResolveTree(ctx, rev)
	if err != nil {
		return nil, diag.List{gitDiagnostic(err, root)}
	}
	rows := map[string]tree.Kind{}
	var dirs []string
	for _, r := range tree.Rows {
		if slices.Contains(diffRows, r.Kind) {
			rows[r.Dir] = r.Kind
			dirs = append(dirs, r.Dir)
		}
	}
	entries, err := repo.List(ctx, treeID, dirs...)
	if err != nil {
		return nil, diag.List{gitDiagnostic(err, root)}
	}
	var ds diag.List
	var wanted []gitrev.Entry
	var kinds []tree.Kind
	var total int64
	for _, e := range entries {
		kind, rel, ok := rowOf(e.Path, rows)
		if !ok || !tree.IsDocumentPath(rel) {
			continue
		}
		name := rev + ":" + repo.Prefix() + e.Path
		switch {
		case !e.Regular():
			ds.Add(diag.Errorf(tree.CodeIOError, "cannot read the file: git holds it as %s, not a regular file", gitKind(e)).InFile(name).
				WithHint("diff reads documents as blobs of the revision; make it a regular file"))
		case e.Size > yamldoc.MaxFileSize:
			ds.Add(diag.Errorf(tree.CodeInputTooLarge, "the file is %d bytes, over the limit of %d bytes", e.Size, yamldoc.MaxFileSize).InFile(name))
		case total+e.Size > maxRevisionBytes:
			// The blobs are held at once: the revision's documents are
			// bounded in all, as a tree on disk is, before any is read.
			if total <= maxRevisionBytes {
				ds.Add(tree.OverBudget(name, maxRevisionBytes))
			}
			total = maxRevisionBytes + 1
		default:
			total += e.Size
			wanted = append(wanted, e)
			kinds = append(kinds, kind)
		}
	}
	oids := make([]string, len(wanted))
	for i, e := range wanted {
		oids[i] = e.OID
	}
	blobs, err := repo.ReadBlobs(ctx, oids, yamldoc.MaxFileSize)
	if err != nil {
		return nil, append(ds, gitDiagnostic(err, root))
	}
	srcs := make([]tree.Source, len(wanted))
	for i, e := range wanted {
		srcs[i] = tree.Source{Path: rev + ":" + repo.Prefix() + e.Path, Kind: kinds[i], Data: blobs[i]}
	}
	t, tds := tree.LoadSources(rev+":"+repo.Prefix(), srcs)
	maps.Copy(sources, t.Sources)
	return t, append(ds, tds...)
}

// maxRevisionBytes bounds the documents read from one git revision in all:
// the tree's bound (a variable so that a test can lower it).
var maxRevisionBytes int64 = tree.MaxTreeBytes

// rowOf finds the row directory path lies under and returns its kind and
// the path below it.
func rowOf(path string, rows map[string]tree.Kind) (tree.Kind, string, bool) {
	for dir, kind := range rows {
		if rel, ok := strings.CutPrefix(path, dir+"/"); ok {
			return kind, rel, true
		}
	}
	return "", "", false
}

func gitKind(e gitrev.Entry) string {
	switch {
	case e.Mode == "120000":
		return "a symbolic link"
	case e.Type == "commit":
		return "a submodule"
	}
	return "mode " + e.Mode
}

// gitDiagnostic turns a git failure into the diagnostic that says why the
// revision could not be read.
func gitDiagnostic(err error, root string) diag.Diagnostic {
	var ge *gitrev.Error
	switch {
	case errors.Is(err, gitrev.ErrNoGit):
		return diag.Errorf(codeGit, "git is not installed or not on PATH").
			WithHint("--against reads the revision with git; install git, or compare two files with `aepflow diff OLD NEW`")
	case errors.As(err, &ge):
		return diag.Errorf(codeGit, "%v", err).InFile(filepath.Clean(root))
	}
	return diag.Errorf(codeGit, "%v", err).InFile(filepath.Clean(root))
}
