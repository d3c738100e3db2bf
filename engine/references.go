package engine

import (
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// CheckReferences resolves every reference the profiles and protocols of
// t make, with the engine's own resolution (MergeProfile, MergeProtocol
// and the lookups Resolve runs), and reports each one the tree cannot
// resolve at the line that writes it (resolution_failed): a profile's
// `protocol`, `extends`, `workflow` and each of its `principles`, a
// protocol's `extends`. A reference that resolves but leads to a broken
// chain further on is reported at the document that breaks it, once. So
// `aepflow validate` refuses what `evaluate` and the hook would refuse,
// and blames the document, not a task.
//
// The profiles and protocols that decoded with shape errors (tree.Unsound)
// are checked too, on the references that decoded: a shape error in one
// part of a document does not hide a dangling reference in another. A
// reference to a document whose file failed to load is not reported (that
// file's own problems are the cause).
func CheckReferences(t *tree.Tree) diag.List {
	var diags diag.List
	for _, ref := range t.ProtocolRefs() {
		diags.Extend(protocolReferences(t, t.Protocols[ref]))
	}
	for _, id := range t.ProfileIDs() {
		diags.Extend(profileReferences(t, t.Profiles[id], true))
	}
	for _, d := range t.Unsound() {
		switch {
		case d.Profile != nil:
			diags.Extend(profileReferences(t, d.Profile, false))
		case d.Protocol != nil && d.Protocol.Extends != nil && t.Protocols[*d.Protocol.Extends] == nil && !broken(t, tree.KindProtocol, d.Protocol.Extends.ID):
			diags.Add(failf("protocol `%s` extends `%s`, which is not in the tree", d.Protocol.Ref(), d.Protocol.Extends).
				At(d.Protocol.File, d.Protocol.ExtendsPos).WithPath(d.Protocol.Location() + ".extends"))
		}
	}
	return diags.Sorted()
}

// broken reports whether a document of kind whose id reads as id failed to
// load: a reference to it is not reported again.
func broken(t *tree.Tree, kind tree.Kind, id string) bool {
	named, _ := t.Broken(kind, id)
	return len(named) > 0
}

// protocolReferences checks p's extends chain in t.
func protocolReferences(t *tree.Tree, p *protocol.Protocol) diag.List {
	if p.Extends == nil {
		return nil
	}
	if _, err := MergeProtocol(t, p.Ref()); err != nil && (t.Protocols[*p.Extends] == nil || isChainBound(err)) {
		d := asFailure(err)
		if t.Protocols[*p.Extends] == nil {
			d = failf("protocol `%s` extends `%s`, which is not in the tree", p.Ref(), p.Extends)
		}
		return diag.List{d.At(p.File, p.ExtendsPos).WithPath(p.Location() + ".extends")}
	}
	return nil
}

// profileReferences checks what profile p names itself; what it inherits
// is checked at the profile that names it. A profile that is not
// registered (it decoded with shape errors) is checked on the references
// that decoded, by lookup: its chain cannot be merged.
func profileReferences(t *tree.Tree, p *protocol.Profile, registered bool) diag.List {
	var diags diag.List
	put := func(d diag.Diagnostic, pos diag.Pos, key string) {
		diags.Add(d.At(p.File, pos).WithPath(p.Location() + "." + key))
	}
	// missing reports a name the tree lacks, with a "did you mean" among
	// the names of its kind.
	missing := func(pos diag.Pos, key, name string, have []string, format string, args ...any) {
		d := failf(format, args...)
		if best, ok := suggest.Closest(name, have); ok {
			d = d.WithSuggestion(best)
		}
		put(d, pos, key)
	}
	switch {
	case p.Extends == "" || broken(t, tree.KindProfile, p.Extends):
	case !registered:
		if t.Profiles[p.Extends] == nil {
			missing(p.ExtendsPos, "extends", p.Extends, t.ProfileIDs(), "profile `%s` extends `%s`, which is not in the tree", p.ID, p.Extends)
		}
	default:
		if _, err := MergeProfile(t, p.ID); err != nil && (t.Profiles[p.Extends] == nil || isChainBound(err)) {
			// The engine's own diagnostic, with its "did you mean".
			put(asFailure(err), p.ExtendsPos, "extends")
		}
	}
	switch {
	case !p.ProtocolPos.IsValid() || broken(t, tree.KindProtocol, p.Protocol.ID):
		// The reference did not decode, or names a file that failed to
		// load: their own diagnostics are the cause.
	case t.Protocols[p.Protocol] == nil:
		missing(p.ProtocolPos, "protocol", p.Protocol.String(), protocolIDs(t), "profile `%s` names protocol `%s`, which is not in the tree", p.ID, p.Protocol)
	default:
		if _, err := MergeProtocol(t, p.Protocol); err != nil && isChainBound(err) {
			put(asFailure(err), p.ProtocolPos, "protocol")
		}
	}
	if p.Workflow != nil && workflowFor(t, *p.Workflow) == nil && !broken(t, tree.KindWorkflow, p.Workflow.ID) {
		if w := t.Workflows[p.Workflow.ID]; w != nil {
			put(failf("workflow `%s` of profile `%s` is not in the tree", p.Workflow, p.ID).
				WithHint("the tree holds `%s` at version %d", w.ID, w.Version), p.WorkflowPos, "workflow")
		} else {
			missing(p.WorkflowPos, "workflow", p.Workflow.ID, t.WorkflowIDs(), "workflow `%s` of profile `%s` is not in the tree", p.Workflow, p.ID)
		}
	}
	for i, r := range p.Principles {
		if t.Principles[r.String()] == nil && !broken(t, tree.KindPrinciple, r.ID) {
			pos := diag.Pos{}
			if i < len(p.PrinciplePos) {
				pos = p.PrinciplePos[i]
			}
			missing(pos, "principles", r.String(), t.PrincipleIDs(), "principle `%s` of profile `%s` is not in the tree", r, p.ID)
		}
	}
	return diags
}

// isChainBound reports whether err is the engine's refusal of an extends
// chain that is too deep or a cycle.
func isChainBound(err error) bool {
	return strings.Contains(err.Error(), "levels deep (or in a cycle)")
}

// workflowFor returns the workflow of t a profile's reference names, as
// Resolve picks it: the one with its id (a tree holds one major per id)
// when the reference accepts its version, else nil.
func workflowFor(t *tree.Tree, ref ident.Ref) *workflow.Workflow {
	if w := t.Workflows[ref.ID]; w != nil && ref.Accepts(w.Version) {
		return w
	}
	return nil
}
