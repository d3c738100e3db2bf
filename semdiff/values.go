package semdiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/reqtext"
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
		return fmt.Sprintf("%q %q %q %t %t", r.SubjectKind, r.Subject, reqtext.ReviewResult(r), r.Human, r.Fresh)
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

// requirementLines are the requirement lines of rendering.md §2 plus what
// the diagram leaves out and a change set must show: an evidence horizon
// (`within 7d`), an artifact or review that need not be fresh (`stale ones
// count`), and advisory items (reqtext.Change).
func requirementLines(s workflow.RequirementSet) []string { return reqtext.Change.Lines(s) }

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
