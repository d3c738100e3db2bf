package engine

import (
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// This file is the one place where the shared document models (packages
// tree, protocol and workflow: one loader, one set of strict decoders and
// validators) become the engine's evaluation types. The engine decodes no
// governing document itself. The conversion adds only what evaluation
// needs and the shape models leave to it: obligation ids, artifact kinds
// with their aliases resolved (engine.md §2.4), default predicates in place
// of absent ones.

// FromTree returns the engine's view of the protocols, principles,
// workflows and profiles of t, each kind in the tree's load order (byte
// order of paths, documents.md §2.1). Documents the tree refused (a shape
// error, a duplicate identity) are not included; their diagnostics are the
// tree's.
func FromTree(t *tree.Tree) *Documents {
	protocols := map[string]*protocol.Protocol{}
	for _, p := range t.Protocols {
		protocols[p.File] = p
	}
	principles := map[string]*protocol.Principle{}
	for _, p := range t.Principles {
		principles[p.File] = p
	}
	workflows := map[string]*workflow.Workflow{}
	for _, w := range t.Workflows {
		workflows[w.File] = w
	}
	profiles := map[string]*protocol.Profile{}
	for _, p := range t.Profiles {
		profiles[p.File] = p
	}
	docs := &Documents{}
	for _, f := range t.Files {
		docs.add(f.Kind, f.Path, protocols[f.Path], principles[f.Path], workflows[f.Path], profiles[f.Path])
	}
	return docs
}

// add appends the document of kind read from file, when the tree kept it.
func (docs *Documents) add(kind tree.Kind, file string, pr *protocol.Protocol, pc *protocol.Principle, w *workflow.Workflow, pf *protocol.Profile) {
	switch {
	case kind == tree.KindProtocol && pr != nil:
		docs.Protocols = append(docs.Protocols, adaptProtocol(pr, file))
	case kind == tree.KindPrinciple && pc != nil:
		docs.Principles = append(docs.Principles, adaptPrinciple(pc, file))
	case kind == tree.KindWorkflow && w != nil:
		docs.Workflows = append(docs.Workflows, adaptWorkflow(w, file))
	case kind == tree.KindProfile && pf != nil:
		docs.Profiles = append(docs.Profiles, adaptProfile(pf, file))
	}
}

func adaptProtocol(p *protocol.Protocol, file string) *Protocol {
	out := &Protocol{
		ID: p.ID, Version: p.Version, Extends: p.Extends,
		Phases: p.Phases, EvidenceKinds: p.EvidenceKinds, Verifiers: p.Verifiers,
		ArtifactKinds: p.ArtifactKinds, Observables: p.Observables, File: file,
	}
	for _, name := range p.ScaleNames {
		out.Scales = append(out.Scales, Scale{Name: name, Values: p.Scales[name]})
	}
	return out
}

// adaptPrinciple turns the timed sets of `requires` (keyed ones in key
// order, the gathered set last) and then the explicit obligations into
// obligations with ids `<principle>/<timing slug>` and `<principle>/<id>`;
// a repeated id is numbered `-2`, `-3`, … (engine.md §4.6).
func adaptPrinciple(p *protocol.Principle, file string) *Principle {
	out := &Principle{ID: p.ID, Version: p.Version, AppliesWhen: p.AppliesWhen, File: file}
	if out.AppliesWhen == nil {
		out.AppliesWhen = predicate.Always{}
	}
	for _, rq := range p.Requires {
		t := adaptTiming(rq.Timing)
		out.Obligations = append(out.Obligations, Obligation{ID: p.ID + "/" + t.Slug(), Principle: p.ID, Timing: t, Requires: adaptSet(rq.Set)})
	}
	for _, o := range p.Obligations {
		out.Obligations = append(out.Obligations, Obligation{ID: p.ID + "/" + o.ID, Principle: p.ID, Timing: adaptTiming(o.Timing), Requires: adaptSet(o.Set)})
	}
	out.Obligations = numberRepeats(out.Obligations)
	for _, e := range p.Evidence {
		out.Evidence = append(out.Evidence, adaptEvidence(e))
	}
	for _, v := range p.Verification {
		out.Verification = append(out.Verification, Verification{Verifier: v.Verifier, Claim: v.Claim, SubjectKind: canonicalKind(v.SubjectKind)})
	}
	return out
}

func adaptTiming(t protocol.Timing) Timing {
	kind := Before
	switch t.Kind {
	case protocol.Always:
		return Timing{Kind: Always}
	case protocol.During:
		kind = During
	}
	return Timing{Kind: kind, Phase: t.Phase, State: t.State}
}

// numberRepeats suffixes repeated obligation ids with -2, -3, ...
func numberRepeats(obs []Obligation) []Obligation {
	count := map[string]int{}
	for i := range obs {
		id := obs[i].ID
		count[id]++
		if count[id] > 1 {
			obs[i].ID = id + "-" + itoa(count[id])
		}
	}
	return obs
}

// adaptWorkflow keeps states in byte order of their ids (mappings are read
// in sorted key order, engine.md §1.1) and transitions in document order.
func adaptWorkflow(w *workflow.Workflow, file string) *Workflow {
	out := &Workflow{ID: w.ID, Version: w.Version, Initial: w.Initial, File: file}
	for _, id := range w.StateIDs() {
		s := w.States[id]
		out.States = append(out.States, &State{ID: id, Terminal: s.Terminal, Phases: s.Phases, Requires: adaptSet(s.Requires)})
	}
	for _, t := range w.Transitions {
		when := t.When
		if when == nil {
			when = predicate.Always{}
		}
		out.Transitions = append(out.Transitions, Transition{From: t.From, To: t.To, When: when, Requires: adaptSet(t.Requires)})
	}
	return out
}

// adaptProfile keeps principle references as written (`<id>` or
// `<id>/<major>`) and facts in byte order of their paths; an empty
// completion is nil, as when it is absent.
func adaptProfile(p *protocol.Profile, file string) *Profile {
	out := &Profile{
		ID: p.ID, Version: p.Version, Protocol: p.Protocol, Extends: p.Extends,
		Workflow: p.Workflow, File: file, Pos: p.Pos,
	}
	if !p.Completion.IsEmpty() {
		out.Completion = adaptSet(p.Completion)
	}
	for _, r := range p.Principles {
		out.Principles = append(out.Principles, r.String())
	}
	for _, r := range p.WithoutPrinciples {
		out.Without = append(out.Without, r.String())
	}
	for _, path := range p.FactPaths {
		out.Facts = append(out.Facts, Fact{Path: path, Value: p.Facts[path]})
	}
	return out
}

// adaptSet converts a requirement set flavour by flavour, keeping every
// list's order.
func adaptSet(s workflow.RequirementSet) *ReqSet {
	out := &ReqSet{Predicates: s.Predicates}
	for _, e := range s.Evidence {
		out.Evidence = append(out.Evidence, adaptEvidence(e))
	}
	for _, a := range s.Artifacts {
		out.Artifacts = append(out.Artifacts, adaptArtifact(a))
	}
	for _, r := range s.Reviews {
		out.Reviews = append(out.Reviews, ReviewReq{SubjectKind: canonicalKind(r.SubjectKind), Subject: r.Subject, Result: r.Result, Human: r.Human, Fresh: r.Fresh})
	}
	for _, a := range s.Approvals {
		out.Approvals = append(out.Approvals, ApprovalReq{ID: a.ID, Human: a.Human})
	}
	for _, c := range s.Conditional {
		out.Conditional = append(out.Conditional, Conditional{When: c.When, Require: adaptSet(c.Require)})
	}
	for _, a := range s.Advisory {
		out.Advisory = append(out.Advisory, Advisory{Owner: a.Owner, ExitCriterion: a.ExitCriterion, Require: adaptSet(a.Require)})
	}
	return out
}

func adaptEvidence(e workflow.EvidenceReq) EvidenceReq {
	return EvidenceReq{Kind: e.Kind, AtLeast: int(e.AtLeast), Subject: e.Subject, Verifier: e.Verifier, Independent: e.Independent, Horizon: int(e.HorizonDays)}
}

func adaptArtifact(a workflow.ArtifactReq) ArtifactReq {
	out := ArtifactReq{Kind: canonicalKind(a.Kind), Status: a.Status, AtLeast: int(a.AtLeast), Fresh: a.Fresh}
	if r := a.Relation; r != nil {
		out.Relation = &Relation{Kind: r.Kind, TargetKind: canonicalKind(r.TargetKind), TargetTask: r.Target == "task"}
	}
	return out
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
