package stepmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// crossValidate runs documents.md §8.4 against a workflow given by its id,
// version and declared state ids. Its diagnostics are positioned in the
// map's file: at the pin, at the state's key, at the step's evidence. On a
// map with shape errors it checks what decoded: nothing without a
// readable pin, no state whose key is not a valid id, no evidence whose
// kind or verifier did not decode.
func (m *Map) crossValidate(id string, version uint32, states []string) diag.List {
	var diags diag.List
	if m.Workflow.ID == "" {
		return nil // the pin did not decode; its own diagnostic says why
	}
	loc := m.Location()
	pin := m.nodes.pos("workflow")
	switch {
	case m.Workflow.ID != id:
		diags.Add(diag.Errorf(CodeUnknownWorkflow, "the step map is pinned to `%s`, not to workflow `%s`", m.WorkflowText, id).
			At(m.File, pin).WithPath(loc + ".workflow"))
		return diags
	case m.Workflow.Major != version:
		diags.Add(diag.Errorf(CodeVersionMismatch, "the step map is pinned to `%s`, but workflow `%s` is at version %d", m.WorkflowText, id, version).
			At(m.File, pin).WithPath(loc + ".workflow").
			WithHint("a new major version of a workflow means the map is rewritten for it, not migrated"))
		return diags
	}
	sorted := slices.Clone(states)
	slices.Sort(sorted)
	var finder *suggest.Finder
	for _, s := range m.StateIDs() {
		if _, found := slices.BinarySearch(sorted, s); found || m.States[s].badKey {
			continue
		}
		if finder == nil {
			finder = suggest.NewFinder(slices.DeleteFunc(slices.Clone(sorted), func(w string) bool { return m.States[w] != nil }))
		}
		st := m.States[s]
		d := diag.Errorf(CodeUnknownState, "state `%s` is not a state of workflow `%s`", s, id).
			At(m.File, st.keyPos).WithPath(loc+".states."+s).
			WithHint("the workflow's states: %s", suggest.List(sorted))
		if best, ok := finder.Closest(s); ok {
			d = d.WithSuggestion(best)
			if st.keySpan.Start.IsValid() {
				d = d.WithFix(diag.Replace(m.File, st.keySpan, s, best))
			}
		}
		diags.Add(d)
	}
	for _, s := range m.StateIDs() {
		for i, step := range m.States[s].Steps {
			diags.Extend(verifierCheck(step, fmt.Sprintf("%s.states.%s.steps[%d].evidence", loc, s, i), m.File))
		}
	}
	return diags
}

// PinFix returns the edit that replaces the map's workflow pin with
// `<id>/<major>` (the pin's own major), for a pin naming a workflow the
// tree lacks; false when the source allows no exact edit.
func (m *Map) PinFix(id string) (diag.Fix, bool) {
	if !m.pinSpan.Start.IsValid() || !m.Workflow.Pinned() {
		return diag.Fix{}, false
	}
	text := fmt.Sprintf("%s/%d", id, m.Workflow.Major)
	if strings.HasPrefix(m.WorkflowText, "workflow:") {
		text = "workflow:" + text
	}
	return diag.Replace(m.File, m.pinSpan, m.WorkflowText, text), true
}

// PinPos returns the position of the map's `workflow` value (the map's own
// position when it has none).
func (m *Map) PinPos() diag.Pos { return m.nodes.pos("workflow") }

// verifierCheck applies §8.4 rule 4: a named verifier class must be among
// the default verifiers of the kind it claims to establish. External tools
// are exempt: what they establish is the protocol's business.
func verifierCheck(step *Step, path, file string) diag.List {
	e := step.Evidence
	if step.Kind != KindCommand || e == nil || e.shaky.kind || e.shaky.verifier || !vocab.IsNamedVerifier(e.Verifier) {
		return nil
	}
	if slices.Contains(vocab.DefaultVerifiers(e.Kind), e.Verifier) {
		return nil
	}
	d := diag.Errorf(CodeNoVerifierForEvidence, "verifier `%s` does not establish `%s` evidence", e.Verifier, e.Kind).
		At(file, e.nodes.pos("verifier")).WithPath(path)
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
// diagnostics are positioned in the map's file and carry a location
// (`driver-steps[<id>]…`).
func (m *Map) CrossValidate(w *workflow.Workflow) diag.List {
	return m.crossValidate(w.ID, w.Version, w.StateIDs())
}
