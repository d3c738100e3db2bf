package transition

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/diagline"
	"github.com/aepflow/aepflow/yamldoc"
)

// StepMapFormat is the format tag of a step map (documents.md §8).
const StepMapFormat = "aep.driver-steps/1"

// mapHeader is what the verb reads of a step map: enough to select it and
// check its pin. The map never changes an answer (engine.md §9).
type mapHeader struct {
	File     string
	ID       string
	Workflow ident.Ref
}

// CheckMap resolves an explicit --map (documents.md §8.5): an existing file
// is read as a step map; otherwise x must be a dotted step-map id found
// under `<root>/drivers`. The map must pin the plan's workflow id and
// major. Only the header (`format`, `id`, `workflow`) is checked.
func CheckMap(x, root string, wf *engine.Workflow) error {
	var h *mapHeader
	if st, err := os.Stat(x); err == nil && st.Mode().IsRegular() {
		if h, err = readMapHeader(x); err != nil {
			return err
		}
	} else {
		if err := ident.Check(ident.Dotted, x); err != nil {
			return fmt.Errorf("neither a file nor a step map id: %v", err)
		}
		if h, err = findMap(x, filepath.Join(root, "drivers")); err != nil {
			return err
		}
	}
	if h.Workflow.ID != wf.ID || h.Workflow.Major != wf.Version {
		return fmt.Errorf("step map `%s` pins workflow `%s`, but the task runs `%s`", h.ID, h.Workflow, wf.Ref())
	}
	return nil
}

// findMap looks id up among the tree's step maps.
func findMap(id, drivers string) (*mapHeader, error) {
	var files []string
	_ = filepath.WalkDir(drivers, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if path != drivers && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			files = append(files, path)
		}
		return nil
	})
	slices.Sort(files)
	for _, f := range files {
		h, err := readMapHeader(f)
		if err != nil {
			return nil, err
		}
		if h.ID == id {
			return h, nil
		}
	}
	return nil, fmt.Errorf("no step map `%s` under %s", id, drivers)
}

// readMapHeader reads a step map's format, id and workflow pin.
func readMapHeader(file string) (*mapHeader, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, diags := yamldoc.Parse(file, data)
	if diags.HasErrors() || doc == nil {
		if doc == nil && !diags.HasErrors() {
			diags.Add(diag.Errorf(yamldoc.CodeMissingField, "the step map is empty").At(file, diag.Pos{Line: 1, Column: 1}))
		}
		return nil, fmt.Errorf("%s", diagline.Join(diags))
	}
	r := yamldoc.NewReader(doc, &diags)
	m := r.Map(doc.Root, "", false)
	format, _ := r.String(m.Require("format"), "format")
	id, _ := r.String(m.Require("id"), "id")
	pin, _ := r.String(m.Require("workflow"), "workflow")
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diagline.Join(diags))
	}
	if format != StepMapFormat {
		return nil, fmt.Errorf("%s: format %q is not %q", file, format, StepMapFormat)
	}
	if err := ident.Check(ident.Dotted, id); err != nil {
		return nil, fmt.Errorf("%s: step map id %q: %v", file, id, err)
	}
	ref, err := ident.ParsePinnedRef(ident.Dotted, pin)
	if err != nil {
		return nil, fmt.Errorf("%s: workflow %q: %v", file, pin, err)
	}
	return &mapHeader{File: file, ID: id, Workflow: ref}, nil
}
