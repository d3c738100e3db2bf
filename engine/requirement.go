package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
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
// (engine.md §4.1 order), every item sourced source; a nil set holds
// nothing.
func (e *Execution) EvaluateSet(s *workflow.RequirementSet, source string) []Item {
	return e.evalSet(s, source, "")
}

func (e *Execution) evalSet(s *workflow.RequirementSet, source, advisory string) []Item {
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
	for i := range s.Conditional {
		c := &s.Conditional[i]
		head, applies := e.conditionalItem(c)
		add(head)
		if applies {
			out = append(out, e.evalSet(&c.Require, source, advisory)...)
		}
	}
	for i := range s.Advisory {
		a := &s.Advisory[i]
		out = append(out, e.evalSet(&a.Require, source, a.Owner+" until "+a.ExitCriterion)...)
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

func (e *Execution) evidenceItem(r workflow.EvidenceReq) Item {
	it := Item{Flavour: "evidence", Requirement: reqtext.Evaluation.Evidence(r), Truth: predicate.True}
	n, stale := e.matchEvidence(r)
	if n >= int(r.AtLeast) {
		return it
	}
	it.Truth = predicate.Unknown
	if stale != nil {
		lapse := stale.ObservedAt + int64(r.HorizonDays)*86_400_000
		it.Detail = fmt.Sprintf("last observed %s, beyond its %dd horizon since %s",
			evidence.FormatDate(stale.ObservedAt), r.HorizonDays, evidence.FormatDate(lapse))
		return it
	}
	it.Detail = fmt.Sprintf("%d of %d required record(s) submitted", n, r.AtLeast)
	return it
}

// canonicalArtifact returns r with its kind and its relation's target kind
// read through their aliases (engine.md §2.4): the item the engine matches
// and prints.
func canonicalArtifact(r workflow.ArtifactReq) workflow.ArtifactReq {
	r.Kind = canonicalKind(r.Kind)
	if rel := r.Relation; rel != nil && rel.TargetKind != "" {
		if k := canonicalKind(rel.TargetKind); k != rel.TargetKind {
			c := *rel
			c.TargetKind = k
			r.Relation = &c
		}
	}
	return r
}

// canonicalKind resolves an artifact kind alias (`adr`, `spec`, …); the
// empty kind stays empty.
func canonicalKind(k string) string {
	if k == "" {
		return ""
	}
	c, _ := artifact.CanonicalKind(k)
	return c
}

func (e *Execution) artifactItem(r workflow.ArtifactReq) Item {
	r = canonicalArtifact(r)
	it := Item{Flavour: "artifact", Requirement: reqtext.Artifact(r), Truth: predicate.True}
	work := e.Plan.Task.DeclaredWork()
	n := 0
	for _, a := range e.Graph.OfKind(r.Kind) {
		if artifactMatches(r, a, e.Graph, work) {
			n++
		}
	}
	if n >= int(r.AtLeast) {
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
	if r.Relation != nil && r.Relation.Target == "task" {
		if len(e.Plan.Task.DerivedFrom) == 0 {
			it.Detail += "; the task declares no work"
		} else {
			it.Detail += "; this task's work is " + strings.Join(work, ", ")
		}
	}
	return it
}

// artifactMatches applies engine.md §4.5 to r, its kinds canonical.
func artifactMatches(r workflow.ArtifactReq, a artifact.Artifact, g *artifact.Graph, work []string) bool {
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
		if r.Relation.Target == "task" && !slices.Contains(work, rel.Target) {
			continue
		}
		return true
	}
	return false
}

// reviewItem is peripheral: the latest matching, non-lapsed review decides.
// The requirement's subject kind is read through its aliases.
func (e *Execution) reviewItem(r workflow.ReviewReq) Item {
	r.SubjectKind = canonicalKind(r.SubjectKind)
	it := Item{Flavour: "review", Requirement: reqtext.Review(r), Truth: predicate.Unknown, Detail: "no review is recorded"}
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

// approvalItem is peripheral: the latest non-lapsed approval record decides.
func (e *Execution) approvalItem(r workflow.ApprovalReq) Item {
	it := Item{Flavour: "approval", Requirement: reqtext.Approval(r), Truth: predicate.Unknown, Detail: "no approval `" + r.ID + "` is recorded"}
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

// conditionalItem is the head of a conditional: its line is elided
// (engine.md §4.3), its nested items are evaluated after it when it
// applies.
func (e *Execution) conditionalItem(c *workflow.ConditionalReq) (Item, bool) {
	it := Item{Flavour: "conditional", Requirement: reqtext.Elided(reqtext.ConditionalHead(*c))}
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

// verificationItem is a principle's verification item; its subject kind
// is printed through its aliases.
func (e *Execution) verificationItem(v protocol.Verification) Item {
	v.SubjectKind = canonicalKind(v.SubjectKind)
	it := Item{Flavour: "verification", Requirement: reqtext.Verification(v), Truth: predicate.True}
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
	note := func(r workflow.EvidenceReq) {
		if r.HorizonDays == 0 {
			return
		}
		if h, ok := p.horizons[r.Kind]; !ok || int(r.HorizonDays) < h {
			p.horizons[r.Kind] = int(r.HorizonDays)
		}
	}
	visit := func(s *workflow.RequirementSet) {
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
	visit(&p.Completion)
	for _, pr := range p.InForce {
		visit(&workflow.RequirementSet{Evidence: pr.Evidence})
	}
	for _, s := range p.states {
		visit(&s.Requires)
	}
	for _, t := range p.Workflow.Transitions {
		visit(&t.Requires)
	}
}
