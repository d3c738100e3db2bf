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
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// Codes of resolution failures (engine.md §1.3).
const (
	CodeResolution   = "resolution_failed"
	CodeUnobservable = "unobservable_fact"
	CodeUnknownPhase = "unknown_phase"
	// CodeUnknownTarget: a principle timed against a state the workflow
	// lacks, or a snapshot restored at one (Restore, engine.md §6.1).
	CodeUnknownTarget = "unknown_state"
)

// maxHops bounds every extends chain.
const maxHops = 8

// MergedProtocol is a protocol merged with its extends chain, base first:
// a view built from the chain's protocol.Protocol documents.
type MergedProtocol struct {
	// Ref is the protocol's `<id>/<version>`.
	Ref string
	// Chain lists the refs of the chain, the protocol first.
	Chain []string
	// Phases and Observables are the chain's unions, base first.
	Phases      []string
	Observables []string
	// Scales holds each scale's nearest definition.
	Scales predicate.Scales
}

// MergedProfile is a profile merged with its extends chain, child onto
// base: a view built from the chain's protocol.Profile documents.
type MergedProfile struct {
	// ID and Protocol are the profile's own.
	ID       string
	Protocol ident.Ref
	// Workflow is the nearest workflow reference of the chain (nil for
	// none).
	Workflow *ident.Ref
	// Principles are the principle references in force, as written
	// (`<id>` or `<id>/<major>`): the chain's union, base first, less each
	// level's `without_principles`.
	Principles []string
	// Completion is the chain's completion sets, base first, flavour by
	// flavour.
	Completion workflow.RequirementSet
	// Facts are the chain's facts, a child's value replacing its base's.
	Facts []Fact
}

// Plan is a resolved task (engine.md §1.3). The documents it points at are
// the tree's own; the plan adds what resolution derives from them.
type Plan struct {
	// Task is the task resolved.
	Task *Task
	// Protocol is the task's protocol merged with its chain.
	Protocol *MergedProtocol
	// Profile is the task's profile merged with its chain.
	Profile *MergedProfile
	// Workflow is the tree's workflow the profile names.
	Workflow *workflow.Workflow
	// Principles are the principles named, in step 4 order; InForce those
	// whose `applies_when` is not False against the plan facts.
	Principles []*protocol.Principle
	InForce    []*protocol.Principle
	// Obligations are the in-force principles' obligations, in order.
	Obligations []Obligation
	// Completion is the merged profile's completion set.
	Completion workflow.RequirementSet
	// Facts are the plan facts in binding order.
	Facts []Fact
	// Scales are the merged protocol's scales, which ordered comparisons
	// read.
	Scales predicate.Scales

	// states are the workflow's states in byte order of their ids, the
	// order every scan over them takes.
	states []*workflow.State
	// outgoing lists each state's transitions in document order, so that
	// evaluating a state costs its own moves, not the workflow's.
	outgoing map[string][]*workflow.Transition
	horizons map[string]int
}

// indexWorkflow builds the plan's tables of its workflow: its states in
// byte order of their ids, and each state's outgoing transitions.
func (p *Plan) indexWorkflow() {
	w := p.Workflow
	p.states = make([]*workflow.State, 0, len(w.States))
	for _, id := range w.StateIDs() {
		p.states = append(p.states, w.States[id])
	}
	p.outgoing = make(map[string][]*workflow.Transition, len(w.States))
	for _, t := range w.Transitions {
		p.outgoing[t.From] = append(p.outgoing[t.From], t)
	}
}

// transitionsFrom returns the transitions leaving state id, in document
// order (a scan of the workflow when the plan was not built by Resolve or
// BarePlan).
func (p *Plan) transitionsFrom(id string) []*workflow.Transition {
	if p.outgoing != nil {
		return p.outgoing[id]
	}
	var out []*workflow.Transition
	for _, t := range p.Workflow.Transitions {
		if t.From == id {
			out = append(out, t)
		}
	}
	return out
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

// protocolIDs lists the tree's protocols as `<id>` and `<id>/<version>`,
// the candidates of a protocol reference's "did you mean".
func protocolIDs(t *tree.Tree) []string {
	var ids []string
	for _, r := range t.ProtocolRefs() {
		ids = append(ids, r.ID, r.String())
	}
	return ids
}

// MergeProtocol merges protocol ref of tree t with its extends chain: lists
// are unions, base first; a scale keeps its nearest definition.
func MergeProtocol(t *tree.Tree, ref ident.Ref) (*MergedProtocol, error) {
	var chain []*protocol.Protocol
	cur := ref
	for {
		p := t.Protocols[cur]
		if p == nil {
			return nil, notInTree("protocol", cur.String(), protocolIDs(t))
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
	m := &MergedProtocol{Ref: chain[0].Ref().String(), Scales: predicate.Scales{}}
	for _, p := range chain {
		m.Chain = append(m.Chain, p.Ref().String())
	}
	for i := len(chain) - 1; i >= 0; i-- {
		p := chain[i]
		m.Phases = union(m.Phases, p.Phases)
		m.Observables = union(m.Observables, p.Observables)
		for _, name := range p.ScaleNames {
			m.Scales[name] = p.Scales[name] // nearer protocols come later and win
		}
	}
	return m, nil
}

// union appends to a the strings of b it lacks, in b's order. It grows a
// once; a nil a never aliases b.
func union(a, b []string) []string {
	a = slices.Grow(a, len(b))
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// MergeProfile merges profile id of tree t with its extends chain (child
// onto base).
func MergeProfile(t *tree.Tree, id string) (*MergedProfile, error) {
	var chain []*protocol.Profile
	cur := id
	for cur != "" {
		p := t.Profiles[cur]
		if p == nil {
			if len(chain) == 0 {
				return nil, notInTree("profile", cur, t.ProfileIDs())
			}
			d := failf("profile `%s` extends `%s`, which is not in the tree", chain[len(chain)-1].ID, cur)
			if best, ok := suggest.Closest(cur, t.ProfileIDs()); ok {
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
		m.Principles = union(m.Principles, refStrings(p.Principles))
		without := refStrings(p.WithoutPrinciples)
		m.Principles = slices.DeleteFunc(m.Principles, func(s string) bool { return slices.Contains(without, s) })
		m.Completion = concatSets(m.Completion, p.Completion)
		if p.Workflow != nil {
			m.Workflow = p.Workflow
		}
		m.Facts = overrideFacts(m.Facts, profileFacts(p))
	}
	return m, nil
}

// refStrings returns references as written, `<id>` or `<id>/<major>`:
// profiles name principles so and are looked up by that text.
func refStrings(refs []ident.Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.String())
	}
	return out
}

// profileFacts returns a profile's facts in byte order of their paths.
func profileFacts(p *protocol.Profile) []Fact {
	var out []Fact
	for _, path := range p.FactPaths {
		out = append(out, Fact{Path: path, Value: p.Facts[path]})
	}
	return out
}

// concatSets returns a set holding s's items followed by t's, flavour by
// flavour (a child profile's completion after its base's). An empty side
// yields the other unchanged.
func concatSets(s, t workflow.RequirementSet) workflow.RequirementSet {
	if t.IsEmpty() {
		return s
	}
	if s.IsEmpty() {
		return t
	}
	return workflow.RequirementSet{
		Predicates:  append(slices.Clone(s.Predicates), t.Predicates...),
		Evidence:    append(slices.Clone(s.Evidence), t.Evidence...),
		Artifacts:   append(slices.Clone(s.Artifacts), t.Artifacts...),
		Reviews:     append(slices.Clone(s.Reviews), t.Reviews...),
		Approvals:   append(slices.Clone(s.Approvals), t.Approvals...),
		Conditional: append(slices.Clone(s.Conditional), t.Conditional...),
		Advisory:    append(slices.Clone(s.Advisory), t.Advisory...),
		Pos:         s.Pos,
	}
}

// overrideFacts returns base with child's facts set on a copy of it.
func overrideFacts(base, child []Fact) []Fact {
	return setFacts(slices.Clone(base), child)
}

// setFacts sets each fact of child in facts, in place: a path facts holds
// takes child's value, a new path is appended.
func setFacts(facts, child []Fact) []Fact {
	for _, f := range child {
		if i := slices.IndexFunc(facts, func(g Fact) bool { return g.Path == f.Path }); i >= 0 {
			facts[i] = f
		} else {
			facts = append(facts, f)
		}
	}
	return facts
}

// Resolve resolves task against the documents of tree t into a plan
// (engine.md §1.3). Every problem found is listed; the plan is nil when the
// list holds errors. t may be any loaded tree (LoadTree's, or tree.Load's
// with every kind); Resolve reads its protocols, principles, workflows and
// profiles and never changes it.
//
// Every failure is positioned: at the task's field that leads to what is
// missing (`protocol`, `profile`, a `principle_overrides` entry), or, for
// an obligation timed against a phase or state the workflow lacks, at the
// principle's line that times it.
func Resolve(t *tree.Tree, task *Task) (*Plan, diag.List) {
	var diags diag.List
	at := func(pos diag.Pos, key string) func(diag.Diagnostic) {
		return func(d diag.Diagnostic) { diags.Add(d.At(task.File, pos).WithPath(key)) }
	}
	atProtocol, atProfile := at(task.ProtocolPos, "protocol"), at(task.ProfilePos, "profile")
	proto, err := MergeProtocol(t, task.Protocol)
	if err != nil {
		atProtocol(asFailure(err))
		return nil, diags
	}
	pref, err := ident.ParseRef(ident.Dotted, task.Profile)
	if err != nil {
		atProfile(failf("task `profile` %q is not a profile reference: %v", task.Profile, err))
		return nil, diags
	}
	prof, err := MergeProfile(t, pref.ID)
	if err != nil {
		atProfile(asFailure(err))
		return nil, diags
	}
	if pref.Pinned() && t.Profiles[pref.ID].Version != pref.Major {
		atProfile(failf("profile `%s` is version %d, the task pins %d", pref.ID, t.Profiles[pref.ID].Version, pref.Major))
	}
	profProto, err := MergeProtocol(t, prof.Protocol)
	if err != nil {
		d := asFailure(err)
		d.Message = fmt.Sprintf("profile `%s`: %s", prof.ID, d.Message)
		atProfile(d)
		return nil, diags
	}
	if !slices.Contains(profProto.Chain, proto.Ref) {
		atProfile(failf("profile `%s` is for protocol `%s`, which is not the task's `%s` and does not extend it", prof.ID, profProto.Ref, proto.Ref))
	}
	plan := &Plan{Task: task, Protocol: proto, Profile: prof, Scales: proto.Scales, Completion: prof.Completion}
	if prof.Workflow == nil {
		atProfile(failf("profile `%s` names no workflow", prof.ID))
	} else {
		plan.Workflow = workflowFor(t, *prof.Workflow)
		if plan.Workflow == nil {
			d := failf("workflow `%s` of profile `%s` is not in the tree", prof.Workflow, prof.ID)
			if best, ok := suggest.Closest(prof.Workflow.ID, t.WorkflowIDs()); ok {
				d = d.WithSuggestion(best)
			}
			atProfile(d)
		}
	}
	plan.resolvePrinciples(t, at)
	if diags.HasErrors() {
		return nil, diags
	}
	plan.indexWorkflow()
	plan.bindPlanFacts()
	plan.checkTimings(func(d diag.Diagnostic) { diags.Add(d) })
	plan.collectHorizons()
	if diags.HasErrors() {
		return nil, diags
	}
	return plan, diags
}

// resolvePrinciples applies step 4 and looks each principle up. A failure
// is reported, through at, at the task's entry that names the principle,
// or at its `profile` for one the profile brings.
func (p *Plan) resolvePrinciples(t *tree.Tree, at func(diag.Pos, string) func(diag.Diagnostic)) {
	ids := slices.Clone(p.Profile.Principles)
	ids = union(ids, p.Task.Add)
	task := p.Task
	for i, r := range task.Remove {
		if !slices.Contains(ids, r) {
			d := failf("`principle_overrides.remove` names `%s`, which is not in force under profile `%s`", r, p.Profile.ID)
			if best, ok := suggest.Closest(r, ids); ok {
				d = d.WithSuggestion(best)
			}
			at(posAt(task.RemovePos, i, task.Pos), "principle_overrides.remove")(d)
			continue
		}
		ids = slices.DeleteFunc(ids, func(s string) bool { return s == r })
	}
	for _, id := range ids {
		pr := t.Principles[id]
		if pr == nil {
			d := notInTree("principle", id, t.PrincipleIDs())
			if i := slices.Index(task.Add, id); i >= 0 && !slices.Contains(p.Profile.Principles, id) {
				at(posAt(task.AddPos, i, task.Pos), "principle_overrides.add")(d)
			} else {
				at(task.ProfilePos, "profile")(d)
			}
			continue
		}
		p.Principles = append(p.Principles, pr)
	}
}

// posAt returns positions[i], or fallback when there is none.
func posAt(positions []diag.Pos, i int, fallback diag.Pos) diag.Pos {
	if i < len(positions) {
		return positions[i]
	}
	return fallback
}

// bindPlanFacts builds the plan facts (step 5), the principles in force
// (step 6) and the obligations (step 7). A principle without
// `applies_when` applies always.
func (p *Plan) bindPlanFacts() {
	t := p.Task
	facts := make([]Fact, 0, 5+len(t.Facts)+len(p.Profile.Facts)+len(p.Principles))
	facts = append(facts,
		Fact{"task.id", predicate.Text(t.ID)},
		Fact{"task.kind", predicate.Text(t.Kind)},
		Fact{"task.objective", predicate.Text(t.Objective)},
		Fact{"task.profile", predicate.Text(t.Profile)},
	)
	if t.Subject != "" {
		facts = append(facts, Fact{"task.subject", predicate.Text(t.Subject)})
	}
	facts = setFacts(facts, t.Facts)
	for _, f := range p.Profile.Facts {
		if !slices.ContainsFunc(facts, func(g Fact) bool { return g.Path == f.Path }) {
			facts = append(facts, f)
		}
	}
	store := factMap(facts)
	p.InForce = make([]*protocol.Principle, 0, len(p.Principles))
	for _, pr := range p.Principles {
		if pr.AppliesWhen == nil || predicate.Eval(pr.AppliesWhen, store, p.Scales) != predicate.False {
			p.InForce = append(p.InForce, pr)
			facts = append(facts, Fact{"principle." + pr.ID + ".active", predicate.Bool(true)})
			p.Obligations = appendObligations(p.Obligations, pr)
		}
	}
	p.Facts = facts
}

func factMap(facts []Fact) predicate.MapFacts {
	m := make(predicate.MapFacts, len(facts))
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
		case t.Kind == protocol.Always:
		case t.State != "":
			if p.Workflow.States[t.State] == nil {
				add(diag.Errorf(CodeUnknownTarget, "obligation `%s` is timed against state `%s`, which workflow `%s` lacks", o.ID, t.State, p.Workflow.Ref()).
					At(o.Principle.File, o.Pos).WithPath(o.Principle.Location()))
			}
		default:
			if !slices.ContainsFunc(p.states, func(s *workflow.State) bool { return slices.Contains(s.Phases, t.Phase) }) {
				add(diag.Errorf(CodeUnknownPhase, "obligation `%s` is timed against phase `%s`, which no state of workflow `%s` declares", o.ID, t.Phase, p.Workflow.Ref()).
					At(o.Principle.File, o.Pos).WithPath(o.Principle.Location()))
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
