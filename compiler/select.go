package compiler

import (
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

// CodeMapDoesNotApply closes the list of cross-validation errors of a step
// map that does not fit the workflow being projected.
const CodeMapDoesNotApply = "map_does_not_apply"

// SelectMap chooses the step map named by x for workflow w
// (documents.md §8.5): a file when readFile can read x, else the id of one of
// maps. The map must then apply to w (§8.4); when it does not, every
// cross-validation error is returned, followed by one map_does_not_apply
// error naming the map and `<workflow id>/<version>`. The map is nil
// whenever the list holds errors.
func SelectMap(x string, maps []*stepmap.Map, w *workflow.Workflow, readFile func(string) ([]byte, error)) (*stepmap.Map, diag.List) {
	m, ds := stepmap.Select(x, maps, readFile)
	if m == nil || ds.HasErrors() {
		return nil, ds
	}
	cross := m.CrossValidate(w)
	ds.Extend(cross)
	if cross.HasErrors() {
		ds.Add(diag.Errorf(CodeMapDoesNotApply, "the step map `%s` does not apply to workflow `%s/%d`", m.ID, w.ID, w.Version).
			WithPath(m.Location()).WithHint("fix the map, or choose another with --map"))
		return nil, ds
	}
	return m, ds
}
