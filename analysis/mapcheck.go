package analysis

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// template is a record shape a map step may submit (§8.1). An empty suite
// or subject means any; tool marks an external producer.
type template struct {
	kind, verifier, suite, subject string
	tool, human                    bool
}

// templates returns the templates of one state's steps, reporting the
// command steps whose kind no protocol declares (§8.5).
func (a *analyzer) templates(state string, ss *stepmap.StateSteps) []template {
	var out []template
	for i, st := range ss.Steps {
		switch st.Kind {
		case stepmap.KindCommand:
			e := st.Evidence
			if e == nil {
				continue
			}
			if !a.kinds[e.Kind] {
				a.diags.Add(diag.Errorf(CodeUndeclaredKind, "step `%s` of state `%s` produces `%s`, which no protocol the workflow runs under (%s) declares: the driver refuses the run at start", st.Label(), state, e.Kind, a.protocolList()).
					At(a.opts.Map.File, e.KindPos()).WithPath(a.opts.Map.Location()+".states."+state+".steps["+itoa(i)+"].evidence.kind").
					WithHint("declare `%s` in the protocol, or change the step", e.Kind))
				continue
			}
			suite := e.Suite
			if e.Record != nil && e.Suite == "" {
				suite = ""
			}
			out = append(out, template{kind: e.Kind, verifier: e.Verifier, suite: suite, subject: e.Subject, tool: !vocab.IsNamedVerifier(e.Verifier)})
		case stepmap.KindOperator:
			for _, k := range []string{"approval", "review", "specification"} {
				if a.kinds[k] {
					out = append(out, template{kind: k, human: true})
				}
			}
		}
	}
	return out
}

// availability computes Avail(s) for every state (§8.2) over the
// workflow-live graph: a worklist that only grows sets, so it ends.
func (a *analyzer) availability() map[string][]template {
	var all []template
	own := map[string][]int{}
	for _, id := range a.opts.Map.StateIDs() {
		if a.w.States[id] == nil {
			continue
		}
		for _, t := range a.templates(id, a.opts.Map.States[id]) {
			own[id] = append(own[id], len(all))
			all = append(all, t)
		}
	}
	g := a.liveGraph(false)
	sets := map[string]map[int]bool{}
	add := func(s string, idx []int) bool {
		if sets[s] == nil {
			sets[s] = map[int]bool{}
		}
		changed := false
		for _, i := range idx {
			if !sets[s][i] {
				sets[s][i], changed = true, true
			}
		}
		return changed
	}
	add(a.w.Initial, own[a.w.Initial])
	work := []string{a.w.Initial}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		var have []int
		for i := range sets[s] {
			have = append(have, i)
		}
		for _, m := range g[s] {
			fresh := sets[m.t.To] == nil
			c1 := add(m.t.To, have)
			c2 := add(m.t.To, own[m.t.To])
			if fresh || c1 || c2 {
				work = append(work, m.t.To)
			}
		}
	}
	out := map[string][]template{}
	for s, set := range sets {
		var idx []int
		for i := range set {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		for _, i := range idx {
			out[s] = append(out[s], all[i])
		}
	}
	return out
}

// available reports whether path is available under templates (§8.2).
func (a *analyzer) available(info *pathInfo, ts []template) bool {
	if info.planOnly() || a.profileFacts[info.name] {
		return true
	}
	for _, m := range info.matches {
		switch m.row.src {
		case srcGraph, srcPlan:
			return true
		case srcDerived:
			if len(m.row.pat) == 3 && m.row.pat[0] == "evidence" && m.row.pat[2] == "<kind>" {
				if slices.ContainsFunc(ts, func(t template) bool { return t.kind == m.cap.kind }) {
					return true
				}
				continue
			}
			if m.row.kind != "" {
				if slices.ContainsFunc(ts, func(t template) bool { return t.kind == m.row.kind }) {
					return true
				}
				continue
			}
			return true
		case srcEvidence:
			if slices.ContainsFunc(ts, func(t template) bool {
				return t.kind == m.row.kind && (m.cap.suite == "" || t.kind != "test_result" || t.suite == "" || t.suite == m.cap.suite)
			}) {
				return true
			}
		}
	}
	return false
}

// itemAvailable reports whether some template meets an evidence item.
func itemAvailable(r *workflow.EvidenceReq, ts []template) bool {
	return slices.ContainsFunc(ts, func(t template) bool {
		if t.kind != r.Kind || (r.Subject != "" && t.subject != "" && t.subject != r.Subject) {
			return false
		}
		switch {
		case r.Verifier == "":
			return true
		case t.human:
			return r.Verifier == "human-approval" || r.Verifier == "human-review"
		case vocab.IsNamedVerifier(r.Verifier):
			return !t.tool && t.verifier == r.Verifier
		}
		return t.tool && t.verifier == r.Verifier
	})
}

// unavailable returns the first path or item of conjunct c that the
// templates cannot provide, or "" when c is feasible.
func (a *analyzer) unavailable(c conj, ts []template) string {
	for _, at := range c {
		info := a.paths[at.path]
		if at.set.bot {
			continue
		}
		if info.synthetic {
			if r := a.items[at.path]; r != nil && !itemAvailable(r, ts) {
				return "`" + evidenceLine(r) + "`"
			}
			continue
		}
		if !a.available(info, ts) {
			return "`" + info.name + "` (" + providers(info) + ")"
		}
	}
	return ""
}

func evidenceLine(r *workflow.EvidenceReq) string {
	s := "evidence " + r.Kind
	if r.Verifier != "" {
		s += " from " + r.Verifier
	}
	return s
}

// providers names the evidence that would bind a path.
func providers(info *pathInfo) string {
	var kinds []string
	for _, m := range info.matches {
		k := m.row.kind
		if m.row.src == srcDerived && m.cap.kind != "" {
			k = m.cap.kind
		}
		if k == "" {
			continue
		}
		if m.cap.suite != "" && k == "test_result" {
			k += " of suite " + m.cap.suite
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return "no evidence binds it"
	}
	return "from " + strings.Join(kinds, " or ")
}

// mapChecks runs §8.3–§8.5 under the step map.
func (a *analyzer) mapChecks() {
	avail := a.availability()
	for _, m := range a.moves {
		if !a.liveLocal(m) {
			continue
		}
		c := a.ctx(m.src)
		key := a.trPath(m)
		d, err := a.decide(func() dnf {
			return a.andCtx(a.b.andAll(a.guard(m, polT), a.set(&m.t.Requires, key+".requires", polT, allItems),
				a.set(&m.dst.Requires, a.statePath(m.dst.ID)+".requires", polT, allItems)), c)
		})
		if err != nil {
			m.undecided = append(m.undecided, "whether a step of the map produces what it needs ("+err.Error()+")")
			continue
		}
		ts := avail[m.src.ID]
		first := ""
		feasible := false
		for i, cj := range d {
			u := a.unavailable(cj, ts)
			if u == "" {
				feasible = true
				break
			}
			if i == 0 {
				first = u
			}
		}
		if feasible || len(d) == 0 {
			continue
		}
		more := ""
		if len(d) > 1 {
			more = " (and " + itoa(len(d)-1) + " other way(s) it could hold need evidence no step produces either)"
		}
		a.diags.Add(a.atTransition(diag.Errorf(CodeNoStepProduces, "%s needs %s, which no step of map `%s` in state `%s` or a state before it produces%s (assuming evidence arrives only from the map's steps)", name(m), first, a.opts.Map.ID, m.src.ID, more), m).
			WithHint("add a `command` step with that `evidence` to `%s` or a state before it", m.src.ID))
		a.mapDead[m] = true
	}
	a.owed(avail)
}

// owed runs §8.4: obligations and completion items, per profile that runs
// the workflow, that no step before them can produce.
func (a *analyzer) owed(avail map[string][]template) {
	type owing struct {
		profiles, items []string
	}
	byMove := map[*move]*owing{}
	byState := map[string]*owing{}
	note := func(o *owing, profile, item string) {
		if !slices.Contains(o.profiles, profile) {
			o.profiles = append(o.profiles, profile)
		}
		if !slices.Contains(o.items, item) {
			o.items = append(o.items, item)
		}
	}
	states := make([]*workflow.State, 0, len(a.w.States))
	for _, id := range a.w.StateIDs() {
		states = append(states, a.w.States[id])
	}
	for _, p := range a.profiles {
		obs := a.inForce(p)
		var atCompletion []engine.Obligation
		for _, o := range obs {
			if o.OwedAtCompletion(states) {
				atCompletion = append(atCompletion, o)
			}
		}
		for _, m := range a.moves {
			if !a.live(m, true) {
				continue
			}
			for i := range obs {
				o := &obs[i]
				if !o.BlocksEntryTo(m.dst) && !o.AppliesIn(m.src) {
					continue
				}
				if a.unproducibleSet(o.Requires, "obligation:"+o.ID, m.src, avail[m.src.ID]) {
					if byMove[m] == nil {
						byMove[m] = &owing{}
					}
					note(byMove[m], p.ID, "`"+o.ID+"`")
				}
			}
		}
		for _, id := range a.w.StateIDs() {
			z := a.w.States[id]
			if !z.Terminal {
				continue
			}
			for _, item := range a.unproducibleCompletion(p, atCompletion, z, avail[id]) {
				if byState[id] == nil {
					byState[id] = &owing{}
				}
				note(byState[id], p.ID, item)
			}
		}
	}
	for _, m := range a.moves {
		o := byMove[m]
		if o == nil {
			continue
		}
		a.diags.Add(a.atTransition(diag.Warningf(CodeNoStepOwed, "under profile %s, %s owes %s, which no step of map `%s` in state `%s` or before it can produce; a task that removes the principle, or makes its `applies_when` false, avoids it", quoteList(o.profiles), name(m), firstThree(o.items), a.opts.Map.ID, m.src.ID), m))
	}
	for _, id := range a.w.StateIDs() {
		if o := byState[id]; o != nil {
			a.diags.Add(a.atState(diag.Warningf(CodeNoStepOwed, "under profile %s, completing in `%s` owes %s, which no step of map `%s` before it can produce", quoteList(o.profiles), id, firstThree(o.items), a.opts.Map.ID), a.w.States[id]))
		}
	}
}

func firstThree(items []string) string {
	if len(items) > 3 {
		return strings.Join(items[:3], ", ") + " and " + itoa(len(items)-3) + " more"
	}
	return strings.Join(items, ", ")
}

// unproducibleCompletion lists the completion items of profile p (E§4.7:
// its completion set, the obligations owed at completion, given as obs,
// and the in-force principles' evidence and verification lists) that no
// template available in terminal state z can produce.
func (a *analyzer) unproducibleCompletion(p *engine.MergedProfile, obs []engine.Obligation, z *workflow.State, ts []template) []string {
	var out []string
	if a.unproducibleSet(&p.Completion, "completion:"+p.ID, z, ts) {
		out = append(out, "the completion set of `"+p.ID+"`")
	}
	for i := range obs {
		o := &obs[i]
		if a.unproducibleSet(o.Requires, "completion:"+o.ID, z, ts) {
			out = append(out, "`"+o.ID+"`")
		}
	}
	for _, pr := range a.inForcePrinciples(p) {
		if len(pr.Evidence) > 0 && a.unproducibleSet(&workflow.RequirementSet{Evidence: pr.Evidence}, "completion:"+pr.ID+".evidence", z, ts) {
			out = append(out, "the `evidence` of principle `"+pr.ID+"`")
		}
		for _, v := range pr.Verification {
			if !slices.ContainsFunc(ts, func(t template) bool { return !t.tool && !t.human && t.verifier == v.Verifier }) {
				out = append(out, "`"+v.Verifier+"` must run (principle `"+pr.ID+"`)")
			}
		}
	}
	return out
}

// inForce returns the obligations of the principles in force under a
// profile with no task (§8.4): applies_when not False over its facts.
func (a *analyzer) inForce(p *engine.MergedProfile) []engine.Obligation {
	var out []engine.Obligation
	for _, pr := range a.inForcePrinciples(p) {
		out = append(out, engine.Obligations(pr)...)
	}
	return out
}

// inForcePrinciples returns the principles in force under a profile with
// no task: its merged list, less those whose applies_when is False over
// its facts.
func (a *analyzer) inForcePrinciples(p *engine.MergedProfile) []*protocol.Principle {
	facts := predicate.MapFacts{}
	for _, f := range p.Facts {
		facts[f.Path] = f.Value
	}
	var out []*protocol.Principle
	for _, ref := range p.Principles {
		pr := a.t.Principles[ref]
		if pr == nil {
			pr = a.t.Principles[strings.SplitN(ref, "/", 2)[0]]
		}
		if pr != nil && applies(pr, facts) {
			out = append(out, pr)
		}
	}
	return out
}

func applies(pr *protocol.Principle, facts predicate.MapFacts) bool {
	return pr.AppliesWhen == nil || predicate.Eval(pr.AppliesWhen, facts, nil) != predicate.False
}

// unproducibleSet reports whether no conjunct of T(set) ∧ ctx(s) is
// feasible under the templates; a bound reached claims nothing.
func (a *analyzer) unproducibleSet(s *workflow.RequirementSet, key string, st *workflow.State, ts []template) bool {
	d, err := a.decide(func() dnf { return a.andCtx(a.set(s, key, polT, allItems), a.ctx(st)) })
	if err != nil || len(d) == 0 {
		return false
	}
	for _, c := range d {
		if a.unavailable(c, ts) == "" {
			return false
		}
	}
	return true
}
