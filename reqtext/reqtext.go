// Package reqtext is the one printer of requirement lines: the text of each
// item of a requirement set (workflow.RequirementSet) and of a principle's
// verification items (protocol.Verification), as rendering.md §2 draws them
// under a state or an edge and as engine.md §4.3 prints them in an
// evaluated line.
//
// It is a package of its own because packages render, engine, instruct
// and semdiff all print these lines, and none may import another for it;
// it sits just above the models it prints (packages workflow and
// protocol), which do not print. The callers differ only in what a line
// adds to the diagram's text (an evidence horizon, an item that need not be
// fresh), and those are fields of Printer, not second printers.
//
// It is not an evaluator: it prints what a requirement asks for, never
// whether it holds (the engine adds the mark, the detail and the source).
// It resolves nothing either: it prints the kinds it is given, so the
// engine hands it items whose artifact kinds it has already resolved
// (engine.md §2.4) and the renderers hand it the documents' own.
package reqtext

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

// Printer prints requirement lines. Its zero value prints them as the
// renderers do (rendering.md §2).
type Printer struct {
	// Horizons appends ` within <N>d` to the line of an evidence item that
	// has a horizon, as the engine does (engine.md §4.3); rendering.md §2
	// shows none.
	Horizons bool
	// Stale appends ` (stale ones count)` to the line of an artifact or a
	// review item that need not be fresh, which neither the diagram nor the
	// engine shows but a change set must (package semdiff).
	Stale bool
}

// The printers the project uses.
var (
	// Render prints as the renderers do: no horizons.
	Render = Printer{}
	// Evaluation prints as the engine does: horizons shown.
	Evaluation = Printer{Horizons: true}
	// Change prints as a change set shows a requirement: everything that
	// decides its meaning, horizons and staleness included.
	Change = Printer{Horizons: true, Stale: true}
)

// Lines returns the display lines of a requirement set in the order of
// rendering.md §2: predicates, evidence, artifacts, reviews, approvals,
// conditionals, then advisory items (which §2 does not list; see
// docs/render.md). A conditional or advisory item is one line holding its
// nested set's lines (see Nested).
func (p Printer) Lines(s workflow.RequirementSet) []string {
	var out []string
	for _, pr := range s.Predicates {
		out = append(out, pr.String())
	}
	for _, e := range s.Evidence {
		out = append(out, p.Evidence(e))
	}
	for _, a := range s.Artifacts {
		out = append(out, p.stale(Artifact(a), a.Fresh))
	}
	for _, r := range s.Reviews {
		out = append(out, p.stale(Review(r), r.Fresh))
	}
	for _, a := range s.Approvals {
		out = append(out, Approval(a))
	}
	for _, c := range s.Conditional {
		out = append(out, p.Nested(ConditionalHead(c), c.Require))
	}
	for _, a := range s.Advisory {
		out = append(out, p.Nested(AdvisoryHead(a), a.Require))
	}
	return out
}

// stale returns line, marked when p.Stale is set and the item it prints
// need not be fresh.
func (p Printer) stale(line string, fresh bool) string {
	if p.Stale && !fresh {
		return line + " (stale ones count)"
	}
	return line
}

// Nested returns a header followed by a nested set's lines: `<head>: a; b`,
// or `<head> …` (U+2026) when the set is empty.
func (p Printer) Nested(head string, s workflow.RequirementSet) string {
	inner := p.Lines(s)
	if len(inner) == 0 {
		return Elided(head)
	}
	return head + ": " + strings.Join(inner, "; ")
}

// Elided returns `<head> …` (U+2026): a header whose nested items are not
// shown. The engine prints a conditional item so (engine.md §4.3), whatever
// its nested set holds, and evaluates the nested items as items of their
// own.
func Elided(head string) string { return head + " …" }

// Evidence returns the line of an evidence item:
// `evidence <kind>[ x<n>][ for <subject>][ from <verifier>][ (independent)]`,
// then ` within <N>d` when p.Horizons is set and the item has a horizon.
func (p Printer) Evidence(e workflow.EvidenceReq) string {
	var b strings.Builder
	b.WriteString("evidence " + e.Kind)
	if e.AtLeast != 1 {
		fmt.Fprintf(&b, " x%d", e.AtLeast)
	}
	if e.Subject != "" {
		b.WriteString(" for " + e.Subject)
	}
	if e.Verifier != "" {
		b.WriteString(" from " + e.Verifier)
	}
	if e.Independent {
		b.WriteString(" (independent)")
	}
	if p.Horizons && e.HorizonDays > 0 {
		fmt.Fprintf(&b, " within %dd", e.HorizonDays)
	}
	return b.String()
}

// Artifact returns the line of an artifact item:
// `artifact <kind>[ (<status>)][ x<n>][ which <relation>[ a <kind>][ of this task| this task]]`.
func Artifact(a workflow.ArtifactReq) string {
	var b strings.Builder
	b.WriteString("artifact " + a.Kind)
	if a.Status != "" {
		b.WriteString(" (" + a.Status + ")")
	}
	if a.AtLeast != 1 {
		fmt.Fprintf(&b, " x%d", a.AtLeast)
	}
	if r := a.Relation; r != nil {
		b.WriteString(" which " + r.Kind)
		switch {
		case r.TargetKind != "" && r.Target == "task":
			b.WriteString(" a " + r.TargetKind + " of this task")
		case r.TargetKind != "":
			b.WriteString(" a " + r.TargetKind)
		case r.Target == "task":
			b.WriteString(" this task")
		}
	}
	return b.String()
}

// Review returns the line of a review item:
// `review[ of <subject>| of a <kind>] is <result>[ (by a person)]`; an
// empty result reads as `approved` (ReviewResult).
func Review(r workflow.ReviewReq) string {
	var b strings.Builder
	b.WriteString("review")
	switch {
	case r.Subject != "":
		b.WriteString(" of " + r.Subject)
	case r.SubjectKind != "":
		b.WriteString(" of a " + r.SubjectKind)
	}
	b.WriteString(" is " + ReviewResult(r))
	if r.Human {
		b.WriteString(" (by a person)")
	}
	return b.String()
}

// ReviewResult returns the result a review item asks for: an empty result
// is `approved`, the decoder's default.
func ReviewResult(r workflow.ReviewReq) string {
	if r.Result == "" {
		return "approved"
	}
	return r.Result
}

// Approval returns the line of an approval item: `approval <id>[ (by a person)]`.
func Approval(a workflow.ApprovalReq) string {
	if a.Human {
		return "approval " + a.ID + " (by a person)"
	}
	return "approval " + a.ID
}

// ConditionalHead returns the header of a conditional item:
// `if <when> then`, the condition in its display form.
func ConditionalHead(c workflow.ConditionalReq) string {
	return "if " + c.When.String() + " then"
}

// AdvisoryHead returns the header of an advisory item:
// `advisory of <owner> until <exit criterion>`.
func AdvisoryHead(a workflow.AdvisoryReq) string {
	return fmt.Sprintf("advisory of %s until %s", a.Owner, a.ExitCriterion)
}

// Verification returns the line of a principle's verification item:
// `<verifier> must run[ for <claim>][ on a <kind>]` (engine.md §4.2).
func Verification(v protocol.Verification) string {
	s := v.Verifier + " must run"
	if v.Claim != "" {
		s += " for " + v.Claim
	}
	if v.SubjectKind != "" {
		s += " on a " + v.SubjectKind
	}
	return s
}
