package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/predicate"
)

// Codes of resolution failures (engine.md §1.3).
const (
	CodeResolution    = "resolution_failed"
	CodeUnobservable  = "unobservable_fact"
	CodeUnknownPhase  = "unknown_phase"
	CodeUnknownTarget = "unknown_state"
)

// maxHops bounds every extends chain.
const maxHops = 8

// MergedProtocol is a protocol merged with its extends chain, base first.
type MergedProtocol struct {
	Ref         string
	Chain       []string // refs, the protocol first
	Phases      []string
	Observables []string
	Scales      predicate.Scales
}

// MergedProfile is a profile merged with its extends chain.
type MergedProfile struct {
	ID         string
	Protocol   ident.Ref
	Workflow   *ident.Ref
	Principles []string
	Completion *ReqSet
	Facts      []Fact
}

// Plan is a resolved task (engine.md §1.3).
type Plan struct {
	Task        *Task
	Protocol    *MergedProtocol
	Profile     *MergedProfile
	Workflow    *Workflow
	Principles  []*Principle // step 4 order
	InForce     []*Principle
	Obligations []Obligation
	Completion  *ReqSet
	Facts       []Fact // plan facts in binding order
	Scales      predicate.Scales
	horizons    map[string]int
}

func failf(format string, args ...any) diag.Diagnostic {
	return diag.Errorf(CodeResolution, format, args...)
}

// asFailure returns err as a resolution diagnostic: itself when it is one
// (it may carry a hint), else a resolution_error with its text.
func asFailure(err error) diag.Diagnostic {
	var d diag.Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return failf("%v", err)
}

// notInTree is the resolution_error for a document id the tree lacks, with a
// "did you mean" among the ids of that kind it holds.
func notInTree(what, id string, have []string) diag.Diagnostic {
	d := failf("%s `%s` is not in the tree", what, id)
	if best, ok := suggest.Closest(id, have); ok {
		d = d.WithSuggestion(best)
	}
	return d
}

func (docs *Documents) protocolIDs() []string {
	var ids []string
	for _, p := range docs.Protocols {
		ids = append(ids, p.ID, p.Ref())
	}
	return ids
}

func (docs *Documents) profileIDs() []string {
	var ids []string
	for _, p := range docs.Profiles {
		ids = append(ids, p.ID)
	}
	return ids
}

func (docs *Documents) principleIDs() []string {
	var ids []string
	for _, p := range docs.Principles {
		ids = append(ids, p.ID)
	}
	return ids
}

func (docs *Documents) workflowIDs() []string {
	var ids []string
	for _, w := range docs.Workflows {
		ids = append(ids, w.ID)
	}
	return ids
}

func (docs *Documents) protocol(ref ident.Ref) *Protocol {
	for _, p := range docs.Protocols {
		if p.ID == ref.ID && ref.Accepts(p.Version) {
			return p
		}
	}
	return nil
}

func (docs *Documents) profileByID(id string) *Profile {
	for _, p := range docs.Profiles {
		if p.ID == id {
			return p
		}
	}
	return nil
}

func (docs *Documents) principleByID(id string) *Principle {
	for _, p := range docs.Principles {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// MergeProtocol merges the protocol ref with its extends chain: lists are
// unions, base first; a scale keeps its nearest definition.
func (docs *Documents) MergeProtocol(ref ident.Ref) (*MergedProtocol, error) {
	var chain []*Protocol
	cur := ref
	for {
		p := docs.protocol(cur)
		if p == nil {
			return nil, notInTree("protocol", cur.String(), docs.protocolIDs())
		}
		chain = append(chain, p)
		if p.Extends == nil {
			break
		}
		if len(chain) > maxHops {
			return nil, fmt.Errorf("protocol `%s` extends more than %d levels deep (or in a cycle)", ref, maxHops)
		}
		cur = *p.Extends
	}
	m := &MergedProtocol{Ref: chain[0].Ref(), Scales: predicate.Scales{}}
	for _, p := range chain {
		m.Chain = append(m.Chain, p.Ref())
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		m.Phases = union(m.Phases, p.Phases)
		m.Observables = union(m.Observables, p.Observables)
		for _, s := range p.Scales {
			m.Scales[s.Name] = s.Values // nearer protocols come later and win
		}
	}
	return m, nil
}

func union(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// MergeProfile merges profile id with its extends chain (child onto base).
func (docs *Documents) MergeProfile(id string) (*MergedProfile, error) {
	var chain []*Profile
	cur := id
	for cur != "" {
		p := docs.profileByID(cur)
		if p == nil {
			if len(chain) == 0 {
				return nil, notInTree("profile", cur, docs.profileIDs())
			}
			d := failf("profile `%s` extends `%s`, which is not in the tree", chain[len(chain)-1].ID, cur)
			if best, ok := suggest.Closest(cur, docs.profileIDs()); ok {
				d = d.WithSuggestion(best)
			}
			return nil, d
		}
		chain = append(chain, p)
		if len(chain) > maxHops+1 {
			return nil, fmt.Errorf("profile `%s` extends more than %d levels deep (or in a cycle)", id, maxHops)
		}
		cur = p.Extends
	}
	m := &MergedProfile{ID: chain[0].ID, Protocol: chain[0].Protocol}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		m.Principles = union(m.Principles, p.Principles)
		m.Principles = slices.DeleteFunc(m.Principles, func(s string) bool { return slices.Contains(p.Without, s) })
		m.Completion = m.Completion.Concat(p.Completion)
		if p.Workflow != nil {
			m.Workflow = p.Workflow
		}
		m.Facts = overrideFacts(m.Facts, p.Facts)
	}
	return m, nil
}

func overrideFacts(base, child []Fact) []Fact {
	out := slices.Clone(base)
	for _, f := range child {
		if i := slices.IndexFunc(out, func(g Fact) bool { return g.Path == f.Path }); i >= 0 {
			out[i] = f
		} else {
			out = append(out, f)
		}
	}
	return out
}

// Resolve resolves task against docs into a plan (engine.md §1.3). Every
// problem found is listed; the plan is nil when the list holds errors.
func Resolve(docs *Documents, task *Task) (*Plan, diag.List) {
	var diags diag.List
	add := func(d diag.Diagnostic) { diags.Add(d.InFile(task.File)) }
	proto, err := docs.MergeProtocol(task.Protocol)
	if err != nil {
		add(asFailure(err))
		return nil, diags
	}
	pref, err := ident.ParseRef(ident.Dotted, task.Profile)
	if err != nil {
		add(failf("task `profile` %q is not a profile reference: %v", task.Profile, err))
		return nil, diags
	}
	prof, err := docs.MergeProfile(pref.ID)
	if err != nil {
		add(asFailure(err))
		return nil, diags
	}
	if pref.Pinned() && docs.profileByID(pref.ID).Version != pref.Major {
		add(failf("profile `%s` is version %d, the task pins %d", pref.ID, docs.profileByID(pref.ID).Version, pref.Major))
	}
	profProto, err := docs.MergeProtocol(prof.Protocol)
	if err != nil {
		d := asFailure(err)
		d.Message = fmt.Sprintf("profile `%s`: %s", prof.ID, d.Message)
		add(d)
		return nil, diags
	}
	if !slices.Contains(profProto.Chain, proto.Ref) {
		add(failf("profile `%s` is for protocol `%s`, which is not the task's `%s` and does not extend it", prof.ID, profProto.Ref, proto.Ref))
	}
	plan := &Plan{Task: task, Protocol: proto, Profile: prof, Scales: proto.Scales, Completion: prof.Completion}
	if plan.Completion == nil {
		plan.Completion = &ReqSet{}
	}
	if prof.Workflow == nil {
		add(failf("profile `%s` names no workflow", prof.ID))
	} else {
		plan.Workflow = docs.workflowFor(*prof.Workflow)
		if plan.Workflow == nil {
			d := failf("workflow `%s` of profile `%s` is not in the tree", prof.Workflow, prof.ID)
			if best, ok := suggest.Closest(prof.Workflow.ID, docs.workflowIDs()); ok {
				d = d.WithSuggestion(best)
			}
			add(d)
		}
	}
	plan.resolvePrinciples(docs, add)
	if diags.HasErrors() {
		return nil, diags
	}
	plan.bindPlanFacts()
	plan.checkTimings(add)
	plan.collectHorizons()
	if diags.HasErrors() {
		return nil, diags
	}
	return plan, diags
}

// resolvePrinciples applies step 4 and loads each principle.
func (p *Plan) resolvePrinciples(docs *Documents, add func(diag.Diagnostic)) {
	ids := slices.Clone(p.Profile.Principles)
	ids = union(ids, p.Task.Add)
	for _, r := range p.Task.Remove {
		if !slices.Contains(ids, r) {
			d := failf("`principle_overrides.remove` names `%s`, which is not in force under profile `%s`", r, p.Profile.ID)
			if best, ok := suggest.Closest(r, ids); ok {
				d = d.WithSuggestion(best)
			}
			add(d)
			continue
		}
		ids = slices.DeleteFunc(ids, func(s string) bool { return s == r })
	}
	for _, id := range ids {
		pr := docs.principleByID(id)
		if pr == nil {
			add(notInTree("principle", id, docs.principleIDs()))
			continue
		}
		p.Principles = append(p.Principles, pr)
	}
}

// bindPlanFacts builds the plan facts (step 5), the principles in force
// (step 6) and the obligations (step 7).
func (p *Plan) bindPlanFacts() {
	t := p.Task
	facts := []Fact{
		{"task.id", predicate.Text(t.ID)},
		{"task.kind", predicate.Text(t.Kind)},
		{"task.objective", predicate.Text(t.Objective)},
		{"task.profile", predicate.Text(t.Profile)},
	}
	if t.Subject != "" {
		facts = append(facts, Fact{"task.subject", predicate.Text(t.Subject)})
	}
	facts = overrideFacts(facts, t.Facts)
	for _, f := range p.Profile.Facts {
		if !slices.ContainsFunc(facts, func(g Fact) bool { return g.Path == f.Path }) {
			facts = append(facts, f)
		}
	}
	store := factMap(facts)
	for _, pr := range p.Principles {
		if predicate.Eval(pr.AppliesWhen, store, p.Scales) != predicate.False {
			p.InForce = append(p.InForce, pr)
			facts = append(facts, Fact{"principle." + pr.ID + ".active", predicate.Bool(true)})
			p.Obligations = append(p.Obligations, pr.Obligations...)
		}
	}
	p.Facts = facts
}

func factMap(facts []Fact) predicate.MapFacts {
	m := predicate.MapFacts{}
	for _, f := range facts {
		m[f.Path] = f.Value
	}
	return m
}

// checkTimings refuses an obligation timed against a phase no state
// declares or a state the workflow lacks (step 9).
func (p *Plan) checkTimings(add func(diag.Diagnostic)) {
	for _, o := range p.Obligations {
		t := o.Timing
		switch {
		case t.Kind == Always:
		case t.State != "":
			if p.Workflow.State(t.State) == nil {
				add(diag.Errorf(CodeUnknownTarget, "obligation `%s` is timed against state `%s`, which workflow `%s` lacks", o.ID, t.State, p.Workflow.Ref()))
			}
		default:
			if !slices.ContainsFunc(p.Workflow.States, func(s *State) bool { return slices.Contains(s.Phases, t.Phase) }) {
				add(diag.Errorf(CodeUnknownPhase, "obligation `%s` is timed against phase `%s`, which no state of workflow `%s` declares", o.ID, t.Phase, p.Workflow.Ref()))
			}
		}
	}
}

// Observes reports whether a fact path matches an observables pattern:
// `*` is one segment, a trailing `**` one or more.
func Observes(patterns []string, path string) bool {
	segs := strings.Split(path, ".")
	for _, pat := range patterns {
		if matchPattern(strings.Split(pat, "."), segs) {
			return true
		}
	}
	return false
}

func matchPattern(pat, segs []string) bool {
	for i, p := range pat {
		if p == "**" && i == len(pat)-1 {
			return len(segs) > i
		}
		if i >= len(segs) || (p != "*" && p != segs[i]) {
			return false
		}
	}
	return len(segs) == len(pat)
}
