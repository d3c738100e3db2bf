// Package analysis is `aepflow analyze`'s reasoning (analysis.md): what can
// be known about a workflow's guards and evidence before any run. It
// decides impossibility and certainty over an over-approximation of the
// fact stores the engine can build (per-path value domains, §3–§4), and
// confirms every claim that something can happen with a witness the
// engine's own evaluator checks (§4.8). Where a bound of §4.6 stops a
// decision it says so (analysis_incomplete) instead of guessing.
//
// It also walks a workflow against hypothetical evidence with the engine's
// own evaluate and transition (Simulate, analysis.md §10), reading the
// scenario documents of §10.3.
//
// It is not a command: flags, files and exit codes live in cmd/aepflow.
// It does not evaluate predicates itself for any claim of possibility: the
// engine does. It reads the shared models (workflow, protocol, stepmap,
// tree) and never changes them.
package analysis

import (
	"strconv"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// The finding codes (analysis.md §5); docs/codes-analysis.md has a
// section for each.
const (
	CodeDisabled         = "disabled_transition"
	CodeNeverHolds       = "guard_never_holds"
	CodeAlwaysHolds      = "guard_always_holds"
	CodeUnproducible     = "unproducible_evidence"
	CodeNeverPermitted   = "move_never_permitted"
	CodeShadowed         = "shadowed_transition"
	CodeOverlapping      = "overlapping_guards"
	CodeUnproducibleFact = "unproducible_fact"
	CodeNoWayOut         = "no_way_out"
	CodeTrappedCycle     = "trapped_cycle"
	CodeNeverEntered     = "never_entered"
	CodeNoStepProduces   = "no_step_produces"
	CodeNoStepOwed       = "no_step_produces_owed"
	CodeUndeclaredKind   = "undeclared_evidence_kind"
	CodeIncomplete       = "analysis_incomplete"
)

// Codes of the commands' refusals (analysis.md §2).
const (
	// CodeInvalidReference: `--id` is not a workflow reference.
	CodeInvalidReference = "invalid_reference"
	// CodeUnknownWorkflow: the tree holds no workflow `--id` (or the map)
	// names.
	CodeUnknownWorkflow = "unknown_workflow"
	// CodeWorkflowMismatch: simulate's task runs another workflow.
	CodeWorkflowMismatch = "workflow_mismatch"
	// CodeUnknownStateEntry: a scenario's `on_entry` names a state the
	// workflow lacks.
	CodeUnknownStateEntry = "unknown_state"
)

// Options tune one analysis.
type Options struct {
	// Map, when set, is the step map the §8 findings are judged under; it
	// must already be cross-validated against the workflow.
	Map *stepmap.Map
	// Now is the clock witnesses are observed at (the zero time: now).
	Now time.Time
}

// Analyze returns the findings of analysis.md §6–§8 for workflow w of tree
// t, unsorted (the caller sorts them with the rest of its list).
func Analyze(t *tree.Tree, w *workflow.Workflow, opts Options) diag.List {
	return AnalyzeWitnessed(t, w, opts).Findings
}

// move is one transition with what the analysis decided about it.
type move struct {
	t        *workflow.Transition
	src, dst *workflow.State
	// dead is the code that killed the move ("" while live).
	dead string
	// owesUnproducible: an item it owes can never be met.
	owesUnproducible bool
	// undecided lists the checks a bound left open, with the bound.
	undecided []string
	// alwaysPending: the guard holds in every world; reported once the
	// move is known to be live.
	alwaysPending bool
}

// analyzer holds one workflow's analysis.
type analyzer struct {
	t    *tree.Tree
	w    *workflow.Workflow
	opts Options

	scope        scope
	kinds        map[string]bool
	kindSources  []string
	scales       []predicate.Scales
	profileFacts map[string]bool
	profiles     []*engine.MergedProfile

	paths []*pathInfo
	ids   map[string]int32
	items map[int32]*workflow.EvidenceReq

	barePlan *engine.Plan
	// recordCache keeps the records of each synthesised evidence list.
	recordCache map[string][]evidence.Record
	// guards caches each guard's translation with the pair intersections
	// it cost, replayed on reuse so that the bounds count as without it.
	guards    map[guardKey]cachedDNF
	ctxs      map[string]dnf
	witnesses []WitnessOf
	// confirmed caches confirmations that do not depend on the state.
	confirmed map[string]bool

	b       *budget
	wfPairs int64
	wfWork  int64
	cut     error
	// hints counts the nearest-path searches made.
	hints int

	moves []*move
	out   map[string][]*move // moves by source state, document order
	in    map[string][]*move
	diags diag.List
	// undecided counts what reportIncomplete reported.
	undecided Undecided
	// mapDead marks the moves dead under the map only.
	mapDead map[*move]bool
}

func newAnalyzer(t *tree.Tree, w *workflow.Workflow, opts Options) *analyzer {
	a := &analyzer{
		t: t, w: w, opts: opts,
		ids:          map[string]int32{},
		items:        map[int32]*workflow.EvidenceReq{},
		profileFacts: map[string]bool{},
		out:          map[string][]*move{},
		in:           map[string][]*move{},
		mapDead:      map[*move]bool{},
		recordCache:  map[string][]evidence.Record{},
		guards:       map[guardKey]cachedDNF{},
		ctxs:         map[string]dnf{},
		confirmed:    map[string]bool{},
	}
	a.scope = scope{stateSegs: map[string]bool{}, principles: map[string]bool{}}
	for id := range w.States {
		a.scope.stateSegs[engine.StateSegments(id)] = true
	}
	for id := range t.Principles {
		a.scope.principles[id] = true
	}
	a.protocols()
	a.scope.kinds = a.kinds
	for _, pr := range t.Profiles {
		for _, p := range pr.FactPaths {
			a.profileFacts[p] = true
		}
	}
	for _, tr := range w.Transitions {
		m := &move{t: tr, src: w.States[tr.From], dst: w.States[tr.To]}
		a.moves = append(a.moves, m)
		a.out[tr.From] = append(a.out[tr.From], m)
		a.in[tr.To] = append(a.in[tr.To], m)
	}
	a.b = newBudget(&a.wfPairs, &a.wfWork)
	return a
}

// protocols computes K(w) and Σ(w) (§3.5) and the profiles that run w.
func (a *analyzer) protocols() {
	a.kinds = map[string]bool{}
	var named []*protocol.Protocol // the profiles' own protocols, in profile id order
	for _, id := range a.t.ProfileIDs() {
		m, err := engine.MergeProfile(a.t, id)
		if err != nil || m.Workflow == nil || m.Workflow.ID != a.w.ID || !m.Workflow.Accepts(a.w.Version) {
			continue
		}
		a.profiles = append(a.profiles, m)
		if p := a.t.Protocols[m.Protocol]; p != nil {
			named = append(named, p)
		}
	}
	var chains [][]*protocol.Protocol
	if len(a.profiles) > 0 {
		for _, p := range named {
			chains = append(chains, a.chain(p))
		}
	} else {
		for _, ref := range a.t.ProtocolRefs() {
			chains = append(chains, []*protocol.Protocol{a.t.Protocols[ref]})
		}
	}
	seen := map[string]bool{}
	for _, chain := range chains {
		for _, p := range chain {
			ref := p.Ref().String()
			if !seen[ref] {
				seen[ref] = true
				a.kindSources = append(a.kindSources, ref)
			}
			for _, k := range p.EvidenceKinds {
				a.kinds[k] = true
			}
		}
		// Each protocol of the chain may be a task's protocol: its merged
		// scales are a candidate.
		for i := range chain {
			if m, err := engine.MergeProtocol(a.t, chain[i].Ref()); err == nil {
				a.scales = append(a.scales, m.Scales)
			}
		}
	}
	if len(a.t.Protocols) == 0 {
		for _, k := range vocab.EvidenceKinds {
			a.kinds[k] = true
		}
	}
}

// chain returns p and the protocols it extends, p first.
func (a *analyzer) chain(p *protocol.Protocol) []*protocol.Protocol {
	out := []*protocol.Protocol{p}
	for len(out) <= 8 && out[len(out)-1].Extends != nil {
		next := a.t.Protocols[*out[len(out)-1].Extends]
		if next == nil {
			break
		}
		out = append(out, next)
	}
	return out
}

// decide runs one decision under a fresh budget and returns its normal
// form and the bound that stopped it, if any.
func (a *analyzer) decide(build func() dnf) (dnf, error) {
	if a.cut != nil {
		return nil, a.cut
	}
	a.b = newBudget(&a.wfPairs, &a.wfWork)
	d := build()
	if err := a.b.err; err != nil {
		if err == errWorkflowPairs || err == errWorkflowWork {
			a.cut = err
		}
		return nil, err
	}
	return d, nil
}

// ctx returns the context of source state s (§3.6) as one conjunct.
func (a *analyzer) ctx(s *workflow.State) dnf {
	if d, ok := a.ctxs[s.ID]; ok {
		return d
	}
	d := a.buildCtx(s)
	a.ctxs[s.ID] = d
	return d
}

type guardKey struct {
	index int
	pol   polarity
}

type cachedDNF struct {
	d     dnf
	pairs int64
	work  int64
	err   error
}

// guard translates transition m's guard under pol, once: a reuse replays
// the pair intersections the translation cost.
func (a *analyzer) guard(m *move, pol polarity) dnf {
	b := a.b
	if b.err != nil {
		return nil
	}
	k := guardKey{m.t.Index, pol}
	if c, ok := a.guards[k]; ok {
		b.pairs += c.pairs
		*b.workflow += c.pairs
		switch {
		case c.err != nil:
			b.err = c.err
		case *b.workflow > MaxWorkflowPairs:
			b.err = errWorkflowPairs
		case b.pairs > MaxDecisionPairs:
			b.err = errPairs
		default:
			b.spend(int(c.work))
		}
		if b.err != nil {
			return nil
		}
		return c.d
	}
	inner := &budget{workflow: new(int64), wfWork: new(int64)}
	a.b = inner
	d := a.pred(m.t.When, pol)
	a.b = b
	a.guards[k] = cachedDNF{d: d, pairs: inner.pairs, work: inner.work, err: inner.err}
	return a.guard(m, pol)
}

func (a *analyzer) buildCtx(s *workflow.State) dnf {
	c := conj{}
	add := func(path string, set VSet) {
		id := a.path(path)
		set = a.paths[id].dom.restrict(set)
		if set.Empty() {
			c = nil
			return
		}
		if c == nil {
			return
		}
		c, _ = meet(c, conj{{path: id, set: set}})
	}
	add("state.current", enum(s.ID))
	add("workflow.terminal", single(predicate.Bool(s.Terminal)))
	add("state."+engine.StateSegments(s.ID)+".entered", setTrue)
	add("state."+engine.StateSegments(a.w.Initial)+".entered", setTrue)
	if c == nil {
		return dnfFalse
	}
	return dnf{c}
}

// run performs every check in the order of §6 and §7.
func (a *analyzer) run() {
	a.unproducibleFacts()
	a.unproducibleItems()
	for _, m := range a.moves {
		a.guardChecks(m)
	}
	for _, id := range a.w.StateIDs() {
		a.pairwise(id)
	}
	if a.opts.Map != nil {
		a.mapChecks()
	}
	a.liveness()
	a.reportIncomplete()
}

// location helpers.

func (a *analyzer) trPath(m *move) string {
	return a.w.Location() + ".transitions[" + itoa(m.t.Index) + "]"
}

func (a *analyzer) statePath(s string) string { return a.w.Location() + ".states." + s }

func (a *analyzer) atWhen(d diag.Diagnostic, m *move) diag.Diagnostic {
	pos := m.t.WhenPos
	if !pos.IsValid() {
		pos = m.t.Pos
	}
	return d.At(a.w.File, pos).WithPath(a.trPath(m) + ".when")
}

func (a *analyzer) atTransition(d diag.Diagnostic, m *move) diag.Diagnostic {
	return d.At(a.w.File, m.t.Pos).WithPath(a.trPath(m))
}

func (a *analyzer) atState(d diag.Diagnostic, s *workflow.State) diag.Diagnostic {
	return d.At(a.w.File, s.Pos).WithPath(a.statePath(s.ID))
}

func name(m *move) string { return "`" + m.t.From + " -> " + m.t.To + "`" }

func itoa(n int) string { return strconv.Itoa(n) }

// guardChecks runs §6.1–§6.5 for one move.
func (a *analyzer) guardChecks(m *move) {
	g := m.t.When
	if _, never := g.(predicate.Never); never {
		a.diags.Add(a.atWhen(diag.Warningf(CodeDisabled, "transition %s is switched off: its guard is `%s`", name(m), g), m).
			WithHint("remove the transition, or give it a real guard"))
		m.dead = CodeDisabled
		return
	}
	c := a.ctx(m.src)
	tg, err := a.decide(func() dnf { return a.andCtx(a.pred(g, polT), c) })
	switch {
	case err != nil:
		m.undecided = append(m.undecided, "whether its guard can hold ("+err.Error()+")")
	case len(tg) == 0:
		if !m.owesUnproducible {
			a.diags.Add(a.atWhen(diag.Errorf(CodeNeverHolds, "the guard `%s` of %s can never hold in state `%s`: %s", g, name(m), m.src.ID, a.neverReason(g, m.src)), m).
				WithHint("fix the guard, or remove the transition"))
			m.dead = CodeNeverHolds
		}
		return
	}
	if m.owesUnproducible {
		return
	}
	if err == nil {
		a.moveNeverPermitted(m, tg, c)
	}
	if m.dead != "" || predicate.IsAlways(g) {
		return
	}
	nt, err := a.decide(func() dnf { return a.andCtx(a.pred(g, polNotT), c) })
	switch {
	case err != nil:
		m.undecided = append(m.undecided, "whether its guard always holds ("+err.Error()+")")
	case len(nt) == 0:
		m.alwaysPending = true
	}
}

// moveNeverPermitted runs §6.5: the guard can hold, but never with the
// move's local items.
func (a *analyzer) moveNeverPermitted(m *move, tg, c dnf) {
	key := a.trPath(m)
	full, err := a.decide(func() dnf {
		return a.b.and(a.b.and(tg, a.set(&m.t.Requires, key+".requires", polT, allItems)), a.set(&m.dst.Requires, a.statePath(m.dst.ID)+".requires", polT, allItems))
	})
	if err != nil {
		m.undecided = append(m.undecided, "whether the move can be permitted ("+err.Error()+")")
		return
	}
	if len(full) > 0 {
		return
	}
	where := a.contradiction(m, c)
	a.diags.Add(a.atTransition(diag.Errorf(CodeNeverPermitted, "%s is never permitted: %s", name(m), where), m).
		WithHint("make the guard and the requirements agree, or remove the transition"))
	m.dead = CodeNeverPermitted
}

// contradiction says where a move's impossibility lies (§6.5).
func (a *analyzer) contradiction(m *move, c dnf) string {
	key := a.trPath(m)
	alone := func(s *workflow.RequirementSet, k string) bool {
		d, err := a.decide(func() dnf { return a.andCtx(a.set(s, k, polT, allItems), c) })
		return err == nil && len(d) == 0
	}
	switch {
	case alone(&m.t.Requires, key+".requires"):
		return "its own `requires` can never hold in state `" + m.src.ID + "`"
	case alone(&m.dst.Requires, a.statePath(m.dst.ID)+".requires"):
		return "the `requires` of state `" + m.dst.ID + "` can never hold when entered from `" + m.src.ID + "`, which makes every move into it from there dead"
	}
	d, err := a.decide(func() dnf {
		return a.andCtx(a.b.and(a.guard(m, polT), a.set(&m.t.Requires, key+".requires", polT, allItems)), c)
	})
	if err == nil && len(d) == 0 {
		return "whenever its guard `" + m.t.When.String() + "` holds, its own `requires` cannot"
	}
	return "whenever its guard `" + m.t.When.String() + "` holds, the `requires` of state `" + m.dst.ID + "` cannot (an item whose condition is Unknown blocks)"
}
