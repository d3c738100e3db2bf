package stepmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// crossValidate runs documents.md §8.4 against a workflow given by its id,
// version and declared state ids. Its diagnostics carry a location but no
// file position: they are about two documents at once.
func (m *Map) crossValidate(id string, version uint32, states []string) diag.List {
	var diags diag.List
	loc := m.Location()
	switch {
	case m.Workflow.ID != id:
		diags.Add(diag.Errorf(CodeUnknownWorkflow, "the step map is pinned to `%s`, not to workflow `%s`", m.WorkflowText, id).
			WithPath(loc + ".workflow"))
		return diags
	case m.Workflow.Major != version:
		diags.Add(diag.Errorf(CodeVersionMismatch, "the step map is pinned to `%s`, but workflow `%s` is at version %d", m.WorkflowText, id, version).
			WithPath(loc + ".workflow").
			WithHint("a new major version of a workflow means the map is rewritten for it, not migrated"))
		return diags
	}
	sorted := slices.Clone(states)
	slices.Sort(sorted)
	for _, s := range m.StateIDs() {
		if _, found := slices.BinarySearch(sorted, s); !found {
			diags.Add(diag.Errorf(CodeUnknownState, "state `%s` is not a state of workflow `%s`", s, id).
				WithPath(loc+".states."+s).
				WithHint("the workflow's states: %s", strings.Join(sorted, ", ")))
		}
	}
	for _, s := range m.StateIDs() {
		for i, step := range m.States[s].Steps {
			diags.Extend(verifierCheck(step, fmt.Sprintf("%s.states.%s.steps[%d].evidence", loc, s, i)))
		}
	}
	return diags
}

// verifierCheck applies §8.4 rule 4: a named verifier class must be among
// the default verifiers of the kind it claims to establish. External tools
// are exempt: what they establish is the protocol's business.
func verifierCheck(step *Step, path string) diag.List {
	e := step.Evidence
	if step.Kind != KindCommand || e == nil || !vocab.IsNamedVerifier(e.Verifier) {
		return nil
	}
	if slices.Contains(vocab.DefaultVerifiers(e.Kind), e.Verifier) {
		return nil
	}
	d := diag.Errorf(CodeNoVerifierForEvidence, "verifier `%s` does not establish `%s` evidence", e.Verifier, e.Kind).WithPath(path)
	if kinds := vocab.KindsEstablishedBy(e.Verifier); len(kinds) > 0 {
		d = d.WithHint("`%s` establishes %s", e.Verifier, strings.Join(kinds, ", "))
	} else {
		d = d.WithHint("`%s` establishes no evidence kind by default", e.Verifier)
	}
	return diag.List{d}
}

// CrossValidate checks the map against workflow w (documents.md §8.4): the
// pin must name w's id and version, every map state must be one of w's, and
// every named verifier must establish the kind its step claims. The
// diagnostics carry a location (`driver-steps[<id>]…`) and no file position.
func (m *Map) CrossValidate(w *workflow.Workflow) diag.List {
	return m.crossValidate(w.ID, w.Version, w.StateIDs())
}
