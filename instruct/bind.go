package instruct

import (
	"slices"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

// This file decides which principles bind a workflow and where their
// obligations land (§3.2, §3.3). Landing is by phase or state only: no
// condition is evaluated.

// land returns where timing t lands in w, and whether it reaches w: an
// always timing reaches everywhere and lands on no state; a phase timing
// lands on the states that declare the phase, a state timing on that
// state when w declares it.
func land(w *workflow.Workflow, t protocol.Timing) (Landing, bool) {
	l := Landing{Kind: t.Kind}
	switch {
	case t.Kind == protocol.Always:
		return l, true
	case t.State != "":
		if _, ok := w.States[t.State]; ok {
			l.States = []string{t.State}
		}
	default:
		l.Phase = t.Phase
		for _, id := range w.StateIDs() {
			if slices.Contains(w.States[id].Phases, t.Phase) {
				l.States = append(l.States, id)
			}
		}
	}
	return l, len(l.States) > 0
}

// bindings returns the sections of the principles that bind w, in byte
// order of their references; a principle that binds nothing is left out.
func bindings(w *workflow.Workflow, principles []*protocol.Principle) []Principle {
	var out []Principle
	for _, p := range sortedByRef(principles) {
		if sec, binds := bind(w, p); binds {
			out = append(out, sec)
		}
	}
	return out
}

// bind builds p's section for w and reports whether p binds w (§3.2): an
// obligation or a verification reaches it, its capability policy denies
// something or puts something behind approval, or it has a top-level
// `evidence:` list. An `allow` list alone does not bind.
func bind(w *workflow.Workflow, p *protocol.Principle) (Principle, bool) {
	sec := Principle{
		Ref: principleRef(p), Title: collapse(p.Title), Summary: optional(p.Summary),
		Evidence:  evidenceLines(p.Evidence),
		Deny:      capabilityList(p.Capabilities.Deny),
		Approval:  capabilityList(p.Capabilities.ApprovalRequired),
		Allow:     capabilityList(p.Capabilities.Allow),
		OnFailure: policyText(p.OnFailure),
	}
	if p.AppliesWhen != nil && !predicate.IsAlways(p.AppliesWhen) {
		sec.AppliesWhen = collapse(p.AppliesWhen.String())
	}
	var elsewhere []string
	// The obligations as the engine names and orders them (engine.md
	// §4.6): the timed sets of `requires` (keyed ones in key order, the
	// gathered set last), then the explicit `obligations[]`.
	for _, o := range engine.Obligations(p) {
		l, reaches := land(w, o.Timing)
		if !reaches {
			elsewhere = append(elsewhere, timingText(o.Timing))
			continue
		}
		sec.Obligations = append(sec.Obligations, BoundObligation{
			ID: o.ID, Landing: l, Description: optional(o.Description), Requires: requirementLines(*o.Requires),
		})
	}
	slices.Sort(elsewhere)
	sec.Elsewhere = slices.Compact(elsewhere)
	verified := false
	for _, v := range p.Verification {
		line := VerificationLine{Text: verificationText(v)}
		t := protocol.DefaultTiming
		if v.Timing != nil {
			t = *v.Timing
		}
		if l, reaches := land(w, t); reaches {
			line.Landing, verified = &l, true
		}
		sec.Verification = append(sec.Verification, line)
	}
	binds := len(sec.Obligations) > 0 || verified || len(sec.Deny) > 0 || len(sec.Approval) > 0 || len(sec.Evidence) > 0
	return sec, binds
}
