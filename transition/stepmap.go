package transition

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/diagline"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
)

// errNotAFile tells stepmap.Select that x is not a file to read.
var errNotAFile = errors.New("not a file")

// CheckMap resolves an explicit --map x (documents.md §8.5) and checks it
// against w, the workflow the task resolved to, taken from t, the tree the
// engine loaded. An existing regular file is loaded as a step map and
// validated structurally (§8.3); otherwise x must be a dotted step-map id
// declared under `<t.Root>/drivers/`, which is read only then (engine.md
// §1.1) and added to t. The map is then cross-validated against w (§8.4).
// The error, when any, is one line naming the map and every problem; a
// step map never changes an answer otherwise (engine.md §9).
func CheckMap(x string, t *tree.Tree, w *workflow.Workflow) error {
	m, err := loadMap(x, t)
	if err != nil {
		return err
	}
	return fitMap(m, w)
}

// loadMap selects the step map x names (selectMap), and fails when there
// is none or it has problems.
func loadMap(x string, t *tree.Tree) (*stepmap.Map, error) {
	m, diags := selectMap(x, t)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", problems(diags))
	}
	if m == nil {
		return nil, fmt.Errorf("the file holds no step map")
	}
	return m, nil
}

// fitMap cross-validates m against w.
func fitMap(m *stepmap.Map, w *workflow.Workflow) error {
	if diags := m.CrossValidate(w); diags.HasErrors() {
		return fmt.Errorf("step map `%s` (%s) does not fit workflow `%s/%d`: %s", m.ID, m.File, w.ID, w.Version, problems(diags))
	}
	return nil
}

// selectMap is stepmap.Select with the verb's reading rules: a file is
// read through tree.ReadFile (regular files only, under the tree's size
// bound); an id is checked before drivers/ is
// walked, so a malformed id never reads the tree. Problems of drivers/
// refuse the map too, since a broken or duplicate file may be the one the
// id names.
func selectMap(x string, t *tree.Tree) (*stepmap.Map, diag.List) {
	// Anything at x but a directory is the file named: a named pipe or a
	// device is refused by tree.ReadFile (never opened blocking, never
	// read), not taken for an id.
	if st, err := os.Stat(x); err == nil && !st.IsDir() {
		data, diags := tree.ReadFile(x)
		if data == nil {
			return nil, diags
		}
		return stepmap.Select(x, nil, func(string) ([]byte, error) { return data, nil })
	}
	notAFile := func(string) ([]byte, error) { return nil, errNotAFile }
	if ident.Check(ident.Dotted, x) != nil {
		return stepmap.Select(x, nil, notAFile)
	}
	diags := t.AddDir(filepath.Join(t.Root, "drivers"), tree.KindStepMap)
	m, ds := stepmap.Select(x, t.StepMapList(), notAFile)
	diags.Extend(ds)
	return m, diags
}

// problems joins the errors of list on one line with their hints (the
// known ids, the pin to write), each escaped as diagline.Join escapes
// (diag.EscapeText), leaving out the `--map` location the line already
// starts with.
func problems(list diag.List) string {
	var parts []string
	for _, d := range list.Errors().Sorted() {
		if d.File == "" && d.Path == "--map" {
			d.Path = ""
		}
		s := d.Error()
		if d.Hint != "" {
			s += " (" + d.Hint + ")"
		}
		parts = append(parts, diag.EscapeText(s))
	}
	return strings.Join(parts, "; ")
}

// CheckSetup answers what a hook configured with opts will meet, for the
// command that writes the hooks file (`aepflow hooks`): the project must
// be found (at opts.Project when given, else upward from opts.WorkDir),
// and an explicit opts.Map must resolve — a file that holds a valid step
// map, or a step-map id of the tree's drivers/ — and, when the task
// resolves, fit its workflow. The run is not read (a hooks file is written
// before its run exists), and a task or store not there yet is not an
// error here: the hook reads those when it is asked. Nothing is written.
//
// reads are the files the hook will read at every consultation, as far as
// they exist now — the task, the tree's documents (the project's own
// principles and profiles too), a step map's file, the planning store's
// files — so that the hooks file is never written over one of them.
func CheckSetup(opts Options) (reads []string, err error) {
	opts.Run = ""
	loc, out := locate(opts)
	if loc == nil {
		return nil, errors.New(out.Message)
	}
	docTree, diags := engine.LoadTree(loc.root, loc.extra...)
	reads = setupReads(loc, docTree)
	if opts.Map == "" {
		return reads, nil
	}
	if diags.HasErrors() {
		return reads, fmt.Errorf("--map %s: cannot load the documents it is checked against: %s", opts.Map, diagline.Join(diags))
	}
	m, err := loadMap(opts.Map, docTree)
	if err == nil {
		reads = append(reads, m.File)
		if w := taskWorkflow(loc, docTree); w != nil {
			err = fitMap(m, w)
		}
	}
	if err != nil {
		return reads, fmt.Errorf("--map %s: %v", opts.Map, err)
	}
	return reads, nil
}

// setupReads lists the files the hook located at loc reads: the task, the
// files of the tree t, and every file of the planning store (names only:
// nothing more is read).
func setupReads(loc *location, t *tree.Tree) []string {
	reads := []string{loc.task}
	for _, f := range t.Files {
		reads = append(reads, f.Path)
	}
	if loc.store != "" {
		store, _ := tree.Files(loc.store, func(string) bool { return true })
		reads = append(reads, store...)
	}
	return reads
}

// taskWorkflow returns the tree's model of the workflow the located task
// resolves to, or nil when the task cannot be read or resolved yet.
func taskWorkflow(loc *location, t *tree.Tree) *workflow.Workflow {
	data, err := fsio.ReadFile(loc.task, yamldoc.MaxFileSize)
	if err != nil {
		return nil
	}
	task, diags := engine.ReadTask(loc.task, data)
	if diags.HasErrors() {
		return nil
	}
	plan, diags := engine.Resolve(t, task)
	if diags.HasErrors() {
		return nil
	}
	return plan.Workflow
}
