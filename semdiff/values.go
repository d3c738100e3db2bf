package semdiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// This file holds the two views of every compared value: a key, equal for
// equal meaning, and a display, what the change set shows.

// listKey compares lists in order.
func listKey(s []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, e := range s {
		b.WriteString(strconv.Quote(e))
	}
	b.WriteByte(']')
	return b.String()
}

// setKey compares lists as sets.
func setKey(s []string) string {
	s = slices.Clone(s)
	slices.Sort(s)
	return listKey(slices.Compact(s))
}

// showList shows a list, [] rather than null when empty.
func showList(s []string) any { return nonNil(slices.Clone(s)) }

// requirementKey is the meaning of a requirement set: its predicates as one
// canonical conjunction (a list item and a `predicates` entry mean the
// same), and each other kind of item as a sorted list of item keys (items
// are all owed whatever their order; the order only decides in which order
// the engine reports what is missing).
func requirementKey(s workflow.RequirementSet) string {
	var b strings.Builder
	b.WriteString("p:" + predicate.Key(predicate.Canonical(predicate.NewAll(s.Predicates...))))
	section := func(name string, keys []string) {
		slices.Sort(keys)
		b.WriteString(" " + name + ":[" + strings.Join(keys, ",") + "]")
	}
	section("e", mapItems(s.Evidence, func(e workflow.EvidenceReq) string {
		return fmt.Sprintf("%q %d %q %q %t %d", e.Kind, e.AtLeast, e.Subject, e.Verifier, e.Independent, e.HorizonDays)
	}))
	section("a", mapItems(s.Artifacts, func(a workflow.ArtifactReq) string {
		rel := ""
		if r := a.Relation; r != nil {
			rel = fmt.Sprintf("%q %q %q", r.Kind, r.TargetKind, r.Target)
		}
		return fmt.Sprintf("%q %q %d %t (%s)", a.Kind, a.Status, a.AtLeast, a.Fresh, rel)
	}))
	section("r", mapItems(s.Reviews, func(r workflow.ReviewReq) string {
		return fmt.Sprintf("%q %q %q %t %t", r.SubjectKind, r.Subject, reviewResult(r), r.Human, r.Fresh)
	}))
	section("ap", mapItems(s.Approvals, func(a workflow.ApprovalReq) string { return fmt.Sprintf("%q %t", a.ID, a.Human) }))
	section("c", mapItems(s.Conditional, func(c workflow.ConditionalReq) string {
		return "(" + predicate.Key(predicate.Canonical(c.When)) + " " + requirementKey(c.Require) + ")"
	}))
	section("ad", mapItems(s.Advisory, func(a workflow.AdvisoryReq) string {
		return fmt.Sprintf("(%q %q %s)", a.Owner, a.ExitCriterion, requirementKey(a.Require))
	}))
	return b.String()
}

func mapItems[T any](items []T, f func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// showRequirements shows a requirement set as its lines.
func showRequirements(s workflow.RequirementSet) any { return nonNil(requirementLines(s)) }

// requirementLines are the requirement lines of rendering.md §2, as the
// diagram draws them, plus what the diagram leaves out and a change set
// must show: an evidence horizon (`within 7d`), an artifact or review that
// need not be fresh (`stale ones count`), and advisory items.
func requirementLines(s workflow.RequirementSet) []string {
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
		line := "approval " + a.ID
		if a.Human {
			line += " (by a person)"
		}
		out = append(out, line)
	}
	for _, c := range s.Conditional {
		out = append(out, nestedLine("if "+c.When.String()+" then", c.Require))
	}
	for _, a := range s.Advisory {
		out = append(out, nestedLine(fmt.Sprintf("advisory of %s until %s", a.Owner, a.ExitCriterion), a.Require))
	}
	return out
}

func nestedLine(head string, s workflow.RequirementSet) string {
	inner := requirementLines(s)
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
	if e.HorizonDays > 0 {
		fmt.Fprintf(&b, " within %dd", e.HorizonDays)
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
	if !a.Fresh {
		b.WriteString(" (stale ones count)")
	}
	return b.String()
}

func reviewResult(r workflow.ReviewReq) string {
	if r.Result == "" {
		return "approved"
	}
	return r.Result
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
	b.WriteString(" is " + reviewResult(r))
	if r.Human {
		b.WriteString(" (by a person)")
	}
	if !r.Fresh {
		b.WriteString(" (stale ones count)")
	}
	return b.String()
}

// Capabilities is a capability policy as a change set shows it.
type Capabilities struct {
	Allow            []string `json:"allow"`
	Deny             []string `json:"deny"`
	ApprovalRequired []string `json:"approval_required"`
}

// String shows the policy on one line: `allow a, b; deny c`, or `none`.
func (c Capabilities) String() string {
	var parts []string
	for _, p := range []struct {
		name string
		list []string
	}{{"allow", c.Allow}, {"deny", c.Deny}, {"approval required", c.ApprovalRequired}} {
		if len(p.list) > 0 {
			parts = append(parts, p.name+" "+strings.Join(p.list, ", "))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

func capabilities(c workflow.CapabilityPolicy) Capabilities {
	return Capabilities{nonNil(slices.Clone(c.Allow)), nonNil(slices.Clone(c.Deny)), nonNil(slices.Clone(c.ApprovalRequired))}
}

// capabilitiesKey compares the three lists as sets.
func capabilitiesKey(c workflow.CapabilityPolicy) string {
	return setKey(c.Allow) + setKey(c.Deny) + setKey(c.ApprovalRequired)
}

func showCapabilities(c workflow.CapabilityPolicy) any { return capabilities(c) }

// policyKey is the meaning of a failure policy, its rollback precondition
// compared canonically.
func policyKey(p *workflow.FailurePolicy) string {
	if p == nil {
		return "none"
	}
	key := fmt.Sprintf("%s %d %q", p.Action, p.MaxAttempts, p.To)
	if p.Require != nil {
		key += " " + predicate.Key(predicate.Canonical(p.Require))
	}
	if p.Then != nil {
		key += " then(" + policyKey(p.Then) + ")"
	}
	return key
}

// showPolicy shows a policy in its compact form, nil when there is none.
func showPolicy(p *workflow.FailurePolicy) any {
	if p == nil {
		return nil
	}
	return p.String()
}

// count spells n things: "1 state", "3 states".
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// joinOr joins parts with ", ", or returns none when there are none.
func joinOr(parts []string, none string) string {
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, ", ")
}
