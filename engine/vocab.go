package engine

import (
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// CheckVocabulary is the registry-wide profile/protocol check of
// documents.md §2.5 over the documents of tree t: every fact path in a
// guard or requirement of a profile's workflow, and in the profile's
// completion, must match an `observables` pattern of the profile's
// protocol chain, else `unobservable_fact`, reported at the profile's file
// and root position. A workflow no profile names is not checked. Profiles
// whose protocol or workflow cannot be found are skipped (the resolver
// reports those).
func CheckVocabulary(t *tree.Tree) diag.List {
	var diags diag.List
	for _, id := range t.ProfileIDs() {
		p := t.Profiles[id]
		merged, err := MergeProfile(t, p.ID)
		if err != nil || merged.Workflow == nil {
			continue
		}
		proto, err := MergeProtocol(t, p.Protocol)
		if err != nil {
			continue
		}
		if w := t.Workflows[merged.Workflow.ID]; w != nil && merged.Workflow.Accepts(w.Version) {
			for _, path := range workflowPaths(w) {
				if !Observes(proto.Observables, path) {
					diags.Add(diag.Errorf(CodeUnobservable, "fact `%s` of workflow `%s` matches no `observables` pattern of protocol `%s`", path, w.Ref(), proto.Ref).
						At(p.File, orPos(p.WorkflowPos, p.Pos)).WithPath("profiles["+p.ID+"].workflow").
						WithHint("declare a pattern matching `%s` under `observables` of protocol `%s` or a protocol it extends", path, proto.Ref))
				}
			}
		}
		for _, path := range merged.Completion.FactPaths() {
			if !Observes(proto.Observables, path) {
				diags.Add(diag.Errorf(CodeUnobservable, "fact `%s` of profile `%s` completion matches no `observables` pattern of protocol `%s`", path, p.ID, proto.Ref).
					At(p.File, orPos(p.Completion.Pos, p.Pos)).WithPath("completion").
					WithHint("declare a pattern matching `%s` under `observables` of protocol `%s` or a protocol it extends", path, proto.Ref))
			}
		}
	}
	return diags.Sorted()
}

// workflowPaths returns the fact paths of w's state requirements,
// transition guards and transition requirements, byte-sorted and
// de-duplicated.
func workflowPaths(w *workflow.Workflow) []string {
	var paths []string
	for _, s := range w.States {
		paths = append(paths, s.Requires.FactPaths()...)
	}
	for _, t := range w.Transitions {
		if t.When != nil {
			paths = append(paths, predicate.FactPaths(t.When)...)
		}
		paths = append(paths, t.Requires.FactPaths()...)
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}

// orPos returns pos, or fallback when pos is not set (a value the profile
// inherits rather than writes).
func orPos(pos, fallback diag.Pos) diag.Pos {
	if pos.IsValid() {
		return pos
	}
	return fallback
}
