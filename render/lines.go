package render

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/workflow"
)

// RequirementLines returns the display lines of a requirement set in the
// order of rendering.md §2: predicates, evidence, artifacts, reviews,
// approvals, conditionals, then advisory items (which §2 does not list; see
// docs/render.md).
func RequirementLines(s workflow.RequirementSet) []string {
	var out []string
	for _, p := range s.Predicates {
		out = append(out, p.String())
	}
	for _, e := range s.Evidence {
		out = append(out, evidenceLine(e))
	}
	for _, a := range s.Artifacts {
		out = append(out, artifactLine(a))
	}
	for _, r := range s.Reviews {
		out = append(out, reviewLine(r))
	}
	for _, a := range s.Approvals {
		out = append(out, approvalLine(a))
	}
	for _, c := range s.Conditional {
		out = append(out, nestedLine("if "+c.When.String()+" then", c.Require))
	}
	for _, a := range s.Advisory {
		out = append(out, nestedLine(fmt.Sprintf("advisory of %s until %s", a.Owner, a.ExitCriterion), a.Require))
	}
	return out
}

// nestedLine renders a header followed by a nested set's lines:
// `<head>: a; b`, or `<head> …` (U+2026) when the set is empty.
func nestedLine(head string, s workflow.RequirementSet) string {
	inner := RequirementLines(s)
	if len(inner) == 0 {
		return head + " …"
	}
	return head + ": " + strings.Join(inner, "; ")
}

func evidenceLine(e workflow.EvidenceReq) string {
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
	return b.String()
}

func artifactLine(a workflow.ArtifactReq) string {
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

func reviewLine(r workflow.ReviewReq) string {
	var b strings.Builder
	b.WriteString("review")
	switch {
	case r.Subject != "":
		b.WriteString(" of " + r.Subject)
	case r.SubjectKind != "":
		b.WriteString(" of a " + r.SubjectKind)
	}
	result := r.Result
	if result == "" {
		result = "approved"
	}
	b.WriteString(" is " + result)
	if r.Human {
		b.WriteString(" (by a person)")
	}
	return b.String()
}

func approvalLine(a workflow.ApprovalReq) string {
	if a.Human {
		return "approval " + a.ID + " (by a person)"
	}
	return "approval " + a.ID
}
