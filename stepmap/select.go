package stepmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/suggest"
)

// Codes of the driver's single-map pick (project codes; the reference words
// these refusals without a code).
const (
	CodeNoStepMap        = "no_step_map"
	CodeAmbiguousStepMap = "ambiguous_step_map"
)

// Select chooses the map a command named with `--map x` (documents.md §8.5
// steps 1–2): when readFile can read x, x is a file and is loaded as a step
// map (structural validation applies); otherwise x must be a step map id
// naming one of maps. Cross-validation (step 3) is the caller's next call,
// since only the caller knows the selected workflow.
func Select(x string, maps []*Map, readFile func(string) ([]byte, error)) (*Map, diag.List) {
	if data, err := readFile(x); err == nil {
		m, diags := Load(x, data)
		if diags.HasErrors() {
			return nil, diags
		}
		return m, diags
	}
	if err := ident.Check(ident.Dotted, x); err != nil {
		return nil, diag.List{diag.Errorf(CodeInvalidIdentifier,
			"`%s` is neither a file nor a step map id: %v", x, err).WithPath("--map")}
	}
	for _, m := range maps {
		if m.ID == x {
			return m, nil
		}
	}
	d := diag.Errorf(CodeUnknownStepMap, "no step map has the id `%s`", x).WithPath("--map")
	if ids := mapIDs(maps); len(ids) > 0 {
		d = d.WithHint("the tree's step maps: %s", suggest.List(ids))
		if best, ok := suggest.Closest(x, ids); ok {
			d = d.WithSuggestion(best)
		}
	} else {
		d = d.WithHint("the tree has no step maps under drivers/; pass a file instead")
	}
	return nil, diag.List{d}
}

// Pick is the driver's rule for a run without `--map` (§8.5): the single
// map whose pin names workflowID and accepts version. None, or several, is
// refused: a map is never chosen silently.
func Pick(maps []*Map, workflowID string, version uint32) (*Map, error) {
	var found []*Map
	for _, m := range maps {
		if m.Workflow.ID == workflowID && m.Workflow.Accepts(version) {
			found = append(found, m)
		}
	}
	wf := fmt.Sprintf("%s/%d", workflowID, version)
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, diag.Errorf(CodeNoStepMap, "no step map is pinned to `%s`", wf).
			WithHint("write one under drivers/, or pass `--map <file>`")
	}
	return nil, diag.Errorf(CodeAmbiguousStepMap, "%d step maps are pinned to `%s`: %s", len(found), wf, strings.Join(mapIDs(found), ", ")).
		WithHint("choose one with `--map`")
}

// mapIDs returns the ids of maps in byte order.
func mapIDs(maps []*Map) []string {
	ids := make([]string, 0, len(maps))
	for _, m := range maps {
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	return ids
}
