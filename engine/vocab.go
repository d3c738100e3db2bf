package engine

import (
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
)

// CheckVocabulary is the registry-wide profile/protocol check of
// documents.md §2.5: every fact path in a guard or requirement of a
// profile's workflow, and in the profile's completion, must match an
// `observables` pattern of the profile's protocol chain, else
// `unobservable_fact`. A workflow no profile names is not checked.
// Profiles whose protocol or workflow cannot be found are skipped (the
// resolver reports those).
func CheckVocabulary(docs *Documents) diag.List {
	var diags diag.List
	for _, p := range docs.Profiles {
		merged, err := docs.MergeProfile(p.ID)
		if err != nil || merged.Workflow == nil {
			continue
		}
		proto, err := docs.MergeProtocol(p.Protocol)
		if err != nil {
			continue
		}
		for _, w := range docs.Workflows {
			if w.ID != merged.Workflow.ID || !merged.Workflow.Accepts(w.Version) {
				continue
			}
			for _, path := range workflowPaths(w) {
				if !Observes(proto.Observables, path) {
					diags.Add(diag.Errorf(CodeUnobservable, "fact `%s` of workflow `%s` matches no `observables` pattern of protocol `%s`", path, w.Ref(), proto.Ref).
						InFile(p.File).WithPath("profiles[" + p.ID + "].workflow"))
				}
			}
		}
		for _, path := range setPaths(merged.Completion) {
			if !Observes(proto.Observables, path) {
				diags.Add(diag.Errorf(CodeUnobservable, "fact `%s` of profile `%s` completion matches no `observables` pattern of protocol `%s`", path, p.ID, proto.Ref).
					InFile(p.File).WithPath("completion"))
			}
		}
	}
	return diags.Sorted()
}

func workflowPaths(w *Workflow) []string {
	var paths []string
	for _, s := range w.States {
		paths = append(paths, setPaths(s.Requires)...)
	}
	for _, t := range w.Transitions {
		if t.When != nil {
			paths = append(paths, predicate.FactPaths(t.When)...)
		}
		paths = append(paths, setPaths(t.Requires)...)
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}

func setPaths(s *ReqSet) []string {
	if s == nil {
		return nil
	}
	var paths []string
	for _, p := range s.Predicates {
		paths = append(paths, predicate.FactPaths(p)...)
	}
	for _, c := range s.Conditional {
		paths = append(paths, predicate.FactPaths(c.When)...)
		paths = append(paths, setPaths(c.Require)...)
	}
	for _, a := range s.Advisory {
		paths = append(paths, setPaths(a.Require)...)
	}
	slices.Sort(paths)
	return slices.Compact(paths)
}
