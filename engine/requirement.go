package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/vocab"
)

func isNamedVerifier(v string) bool { return vocab.IsNamedVerifier(v) }

// Item is one evaluated requirement (engine.md §4.2): its flavour, its
// requirement text, truth, detail, optional advisory tag and source.
type Item struct {
	Flavour     string
	Requirement string
	Truth       predicate.Truth
	Detail      string
	Advisory    string
	Source      string
}

// Mark returns ✓, ✗ or ? for the item's truth.
func (it Item) Mark() string {
	switch it.Truth {
	case predicate.True:
		return "✓"
	case predicate.False:
		return "✗"
	}
	return "?"
}

// Line renders the item (engine.md §4.3):
// `<mark> <requirement>[ — <detail>][ [advisory — <owner> until <exit>]] [<source>]`.
func (it Item) Line() string {
	var b strings.Builder
	b.WriteString(it.Mark())
	b.WriteByte(' ')
	b.WriteString(it.Requirement)
	if it.Detail != "" {
		b.WriteString(" — ")
		b.WriteString(it.Detail)
	}
	if it.Advisory != "" {
		b.WriteString(" [advisory — ")
		b.WriteString(it.Advisory)
		b.WriteByte(']')
	}
	b.WriteString(" [")
	b.WriteString(it.Source)
	b.WriteByte(']')
	return b.String()
}

// Source labels.
func principleSource(id string) string    { return "principle " + id }
func stateSource(id string) string        { return "state " + id }
func transitionSource(f, t string) string { return "transition " + f + " -> " + t }

// SourceCompletion is the source of profile completion items.
const SourceCompletion = "completion"

// EvaluateSet evaluates a requirement set against the execution's facts
// (engine.md §4.1 order), every item sourced source.
func (e *Execution) EvaluateSet(s *ReqSet, source string) []Item {
	return e.evalSet(s, source, "")
}

func (e *Execution) evalSet(s *ReqSet, source, advisory string) []Item {
	if s == nil {
		return nil
	}
	var out []Item
	add := func(it Item) {
		it.Source, it.Advisory = source, advisory
		out = append(out, it)
	}
	for _, p := range s.Predicates {
		add(e.predicateItem(p))
	}
	for _, r := range s.Evidence {
		add(e.evidenceItem(r))
	}
	for _, r := range s.Artifacts {
		add(e.artifactItem(r))
	}
	for _, r := range s.Reviews {
		add(e.reviewItem(r))
	}
	for _, r := range s.Approvals {
		add(e.approvalItem(r))
	}
	for _, c := range s.Conditional {
		head, applies := e.conditionalItem(c)
		add(head)
		if applies {
			out = append(out, e.evalSet(c.Require, source, advisory)...)
		}
	}
	for _, a := range s.Advisory {
		out = append(out, e.evalSet(a.Require, source, a.Owner+" until "+a.ExitCriterion)...)
	}
	return out
}

func (e *Execution) predicateItem(p predicate.Predicate) Item {
	o := predicate.Explain(p, e.facts, e.Plan.Scales)
	it := Item{Flavour: "predicate", Requirement: o.Expression, Truth: o.Truth}
	if o.Truth != predicate.True {
		var parts []string
		for _, c := range o.Causes {
			parts = append(parts, c.Detail())
		}
		it.Detail = strings.Join(parts, "; ")
		if it.Detail == "" {
			it.Detail = o.Truth.String()
		}
	}
	return it
}

// EvidenceText renders an evidence requirement:
// `evidence <kind>[ x<n>][ for <subject>][ from <verifier>][ (independent)][ within <N>d]`.
func EvidenceText(r EvidenceReq) string {
	var b strings.Builder
	b.WriteString("evidence " + r.Kind)
	if r.AtLeast != 1 {
		fmt.Fprintf(&b, " x%d", r.AtLeast)
	}
	if r.Subject != "" {
		b.WriteString(" for " + r.Subject)
	}
	if r.Verifier != "" {
		b.WriteString(" from " + r.Verifier)
	}
	if r.Independent {
		b.WriteString(" (independent)")
	}
	if r.Horizon > 0 {
		fmt.Fprintf(&b, " within %dd", r.Horizon)
	}
	return b.String()
}

func (e *Execution) evidenceItem(r EvidenceReq) Item {
	it := Item{Flavour: "evidence", Requirement: EvidenceText(r), Truth: predicate.True}
	n, stale := e.matchEvidence(r)
	if n >= r.AtLeast {
		return it
	}
	it.Truth = predicate.Unknown
	if stale != nil {
		lapse := stale.ObservedAt + int64(r.Horizon)*86_400_000
		it.Detail = fmt.Sprintf("last observed %s, beyond its %dd horizon since %s",
			evidence.FormatDate(stale.ObservedAt), r.Horizon, evidence.FormatDate(lapse))
		return it
	}
	it.Detail = fmt.Sprintf("%d of %d required record(s) submitted", n, r.AtLeast)
	return it
}

// ArtifactText renders an artifact requirement:
// `artifact <kind>[ (<status>)][ x<n>][ which <rel>]`.
func ArtifactText(r ArtifactReq) string {
	var b strings.Builder
	b.WriteString("artifact " + r.Kind)
	if r.Status != "" {
		b.WriteString(" (" + r.Status + ")")
	}
	if r.AtLeast != 1 {
		fmt.Fprintf(&b, " x%d", r.AtLeast)
	}
	if rel := r.Relation; rel != nil {
		b.WriteString(" which " + rel.Kind)
		switch {
		case rel.TargetKind != "" && rel.TargetTask:
			b.WriteString(" a " + rel.TargetKind + " of this task")
		case rel.TargetKind != "":
			b.WriteString(" a " + rel.TargetKind)
		case rel.TargetTask:
			b.WriteString(" this task")
		}
	}
	return b.String()
}

func (e *Execution) artifactItem(r ArtifactReq) Item {
	it := Item{Flavour: "artifact", Requirement: ArtifactText(r), Truth: predicate.True}
	work := e.Plan.Task.DeclaredWork()
	n := 0
	for _, a := range e.Graph.OfKind(r.Kind) {
		if artifactMatches(r, a, e.Graph, work) {
			n++
		}
	}
	if n >= r.AtLeast {
		return it
	}
	all := e.Graph.OfKind(r.Kind)
	it.Truth = predicate.Unknown
	if len(all) > 0 && !slices.ContainsFunc(all, func(a artifact.Artifact) bool { return !artifact.Retired(a.Status) }) {
		it.Truth = predicate.False
	}
	if len(all) == 0 {
		it.Detail = "no " + r.Kind + " artifact is declared"
		return it
	}
	var decl []string
	for _, a := range all {
		decl = append(decl, a.String())
	}
	it.Detail = "declared: " + strings.Join(decl, ", ")
	if r.Relation != nil && r.Relation.TargetTask {
		if len(e.Plan.Task.DerivedFrom) == 0 {
			it.Detail += "; the task declares no work"
		} else {
			it.Detail += "; this task's work is " + strings.Join(work, ", ")
		}
	}
	return it
}

// artifactMatches applies engine.md §4.5.
func artifactMatches(r ArtifactReq, a artifact.Artifact, g *artifact.Graph, work []string) bool {
	if !artifact.IsA(a.Kind, r.Kind) {
		return false
	}
	if r.Fresh && artifact.Retired(a.Status) {
		return false
	}
	if r.Status != "" && a.Status != r.Status && !(r.Status == "approved" && artifact.ApprovedClass(a.Status)) {
		return false
	}
	if r.Relation == nil {
		return true
	}
	for _, rel := range a.Relations {
		if rel.Kind != r.Relation.Kind {
			continue
		}
		target, ok := g.Get(rel.Target)
		if !ok {
			continue
		}
		if r.Relation.TargetKind != "" && !artifact.IsA(target.Kind, r.Relation.TargetKind) {
			continue
		}
		if r.Relation.TargetTask && !slices.Contains(work, rel.Target) {
			continue
		}
		return true
	}
	return false
}

// ReviewText renders `review[ of <subject>| of a <kind>] is <result>[ (by a person)]`.
func ReviewText(r ReviewReq) string {
	s := "review"
	switch {
	case r.Subject != "":
		s += " of " + r.Subject
	case r.SubjectKind != "":
		s += " of a " + r.SubjectKind
	}
	s += " is " + r.Result
	if r.Human {
		s += " (by a person)"
	}
	return s
}

// reviewItem is peripheral: the latest matching, non-lapsed review decides.
func (e *Execution) reviewItem(r ReviewReq) Item {
	it := Item{Flavour: "review", Requirement: ReviewText(r), Truth: predicate.Unknown, Detail: "no review is recorded"}
	for i := len(e.Evidence) - 1; i >= 0; i-- {
		rec := e.Evidence[i].Record
		if rec.Kind() != "review" || e.lapsed[i] {
			continue
		}
		p := rec.Value
		kind, _ := artifact.CanonicalKind(p.Str("subject_kind"))
		if (r.Subject != "" && p.Str("subject") != r.Subject) || (r.Subject == "" && r.SubjectKind != "" && !artifact.IsA(kind, r.SubjectKind)) {
			continue
		}
		disp := p.Str("disposition")
		if disp == "approved" && evidence.BlockingFindings(p) > 0 {
			disp = "approved with blocking findings"
		}
		human := false
		if m, ok := p.Fields["reviewer"].(map[string]any); ok {
			human = m["reviewer"] == "human"
		}
		switch {
		case disp != r.Result:
			it.Truth, it.Detail = predicate.False, "the latest review ("+rec.ID+") is "+disp
		case r.Human && !human:
			it.Truth, it.Detail = predicate.False, "the latest review ("+rec.ID+") is not by a person"
		default:
			it.Truth, it.Detail = predicate.True, ""
		}
		return it
	}
	return it
}

// ApprovalText renders `approval <id>[ (by a person)]`.
func ApprovalText(r ApprovalReq) string {
	if r.Human {
		return "approval " + r.ID + " (by a person)"
	}
	return "approval " + r.ID
}

// approvalItem is peripheral: the latest non-lapsed approval record decides.
func (e *Execution) approvalItem(r ApprovalReq) Item {
	it := Item{Flavour: "approval", Requirement: ApprovalText(r), Truth: predicate.Unknown, Detail: "no approval `" + r.ID + "` is recorded"}
	for i := len(e.Evidence) - 1; i >= 0; i-- {
		rec := e.Evidence[i].Record
		if rec.Kind() != "approval" || e.lapsed[i] || rec.Value.Str("approval") != r.ID {
			continue
		}
		human := false
		if m, ok := rec.Value.Fields["approver"].(map[string]any); ok {
			human = m["approver"] == "human"
		}
		switch {
		case rec.Value.Str("decision") != "granted":
			it.Truth, it.Detail = predicate.False, "approval `"+r.ID+"` was denied"
		case r.Human && !human:
			it.Truth, it.Detail = predicate.False, "approval `"+r.ID+"` was not granted by a person"
		default:
			it.Truth, it.Detail = predicate.True, ""
		}
		return it
	}
	return it
}

func (e *Execution) conditionalItem(c Conditional) (Item, bool) {
	it := Item{Flavour: "conditional", Requirement: "if " + c.When.String() + " then …"}
	switch predicate.Eval(c.When, e.facts, e.Plan.Scales) {
	case predicate.False:
		it.Truth, it.Detail = predicate.True, "does not apply"
		return it, false
	case predicate.Unknown:
		it.Truth, it.Detail = predicate.Unknown, "cannot tell whether this applies: "+c.When.String()+" is unobserved"
		return it, false
	}
	it.Truth, it.Detail = predicate.True, "applies"
	return it, true
}

// VerificationText renders `<verifier> must run[ for <claim>][ on a <kind>]`.
func VerificationText(v Verification) string {
	s := v.Verifier + " must run"
	if v.Claim != "" {
		s += " for " + v.Claim
	}
	if v.SubjectKind != "" {
		s += " on a " + v.SubjectKind
	}
	return s
}

func (e *Execution) verificationItem(v Verification) Item {
	it := Item{Flavour: "verification", Requirement: VerificationText(v), Truth: predicate.True}
	for i := range e.Evidence {
		rec := &e.Evidence[i].Record
		if e.lapsed[i] || !producedBy(rec, v.Verifier) {
			continue
		}
		if v.Claim != "" {
			p := rec.Value
			if !(p.Kind == "verification" && p.Str("claim") == v.Claim) && !(p.Kind == "property_test_result" && p.Str("property") == v.Claim) {
				continue
			}
		}
		return it
	}
	it.Truth = predicate.Unknown
	it.Detail = "`" + v.Verifier + "` has not run"
	return it
}

// collectHorizons records, per evidence kind, the strictest horizon any
// requirement in the plan declares (engine.md §4.4).
func (p *Plan) collectHorizons() {
	p.horizons = map[string]int{}
	note := func(r EvidenceReq) {
		if r.Horizon == 0 {
			return
		}
		if h, ok := p.horizons[r.Kind]; !ok || r.Horizon < h {
			p.horizons[r.Kind] = r.Horizon
		}
	}
	visit := func(s *ReqSet) {
		if s == nil {
			return
		}
		for _, r := range s.Evidence {
			note(r)
		}
		for _, c := range s.Conditional {
			for _, r := range c.Require.Evidence {
				note(r)
			}
		}
		for _, a := range s.Advisory {
			for _, r := range a.Require.Evidence {
				note(r)
			}
		}
	}
	for _, o := range p.Obligations {
		visit(o.Requires)
	}
	visit(p.Completion)
	for _, pr := range p.InForce {
		visit(&ReqSet{Evidence: pr.Evidence})
	}
	for _, s := range p.Workflow.States {
		visit(s.Requires)
	}
	for _, t := range p.Workflow.Transitions {
		visit(t.Requires)
	}
}
