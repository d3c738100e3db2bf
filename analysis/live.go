package analysis

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// overlaps runs §6.7 for the live moves out of one state, and §6.3's
// report for the live moves whose guard always holds.
func (a *analyzer) overlaps(state string) {
	ms := a.out[state]
	for _, m := range ms {
		if m.alwaysPending && a.live(m, true) {
			a.diags.Add(a.atWhen(diag.Warningf(CodeAlwaysHolds, "the guard `%s` of %s holds in every run that reaches state `%s`: it guards nothing", m.t.When, name(m), state), m).
				WithHint("remove the guard, or make it read evidence that can be missing"))
		}
	}
	if len(ms) > MaxStateDegree {
		return
	}
	for j, mj := range ms {
		if !a.live(mj, true) || predicate.IsAlways(mj.t.When) {
			continue
		}
		for _, mi := range ms[:j] {
			if a.live(mi, true) {
				a.overlap(mi, mj)
			}
		}
	}
}

// overlap reports mi and mj when both can be permitted together, as a
// witness the engine evaluates confirms.
func (a *analyzer) overlap(mi, mj *move) {
	c := a.ctx(mj.src)
	keyI, keyJ := a.trPath(mi), a.trPath(mj)
	d, err := a.decide(func() dnf {
		return a.andCtx(a.b.andAll(a.guard(mi, polT), a.set(&mi.t.Requires, keyI+".requires", polT, predicatePart),
			a.set(&mi.dst.Requires, a.statePath(mi.dst.ID)+".requires", polT, predicatePart),
			a.guard(mj, polT), a.set(&mj.t.Requires, keyJ+".requires", polT, predicatePart),
			a.set(&mj.dst.Requires, a.statePath(mj.dst.ID)+".requires", polT, predicatePart)), c)
	})
	if err != nil {
		mj.undecided = append(mj.undecided, "whether it overlaps "+name(mi)+" ("+err.Error()+")")
		return
	}
	if len(d) == 0 {
		return
	}
	s, w, ok := a.witness(d[0])
	sets := []*workflow.RequirementSet{predicatePartSet(&mi.t.Requires), predicatePartSet(&mi.dst.Requires), predicatePartSet(&mj.t.Requires), predicatePartSet(&mj.dst.Requires)}
	if !ok || !a.confirm(s, w, mj.src, []predicate.Predicate{mi.t.When, mj.t.When}, sets) {
		mj.undecided = append(mj.undecided, "whether it overlaps "+name(mi)+" (no witness the engine confirms)")
		return
	}
	eg := "with no evidence at all"
	if len(w.Values) > 0 {
		eg = "e.g. " + strings.Join(w.Values, " and ")
	}
	// The witness confirms the guards and the predicate items only
	// (§6.7); the moves' other items (evidence, artifacts, reviews) are not
	// claimed, and may even exclude each other, so the message does not say
	// that both moves can be permitted.
	what := "the guards of"
	for _, s := range sets {
		if len(s.Predicates)+len(s.Conditional) > 0 {
			what = "the guards and predicate requirements of"
		}
	}
	dg := a.atTransition(diag.Warningf(CodeOverlapping, "%s %s and %s, tried first, can hold at once (%s): whenever both moves are permitted, document order sends the run to `%s`", what, name(mj), name(mi), eg, mi.t.To), mj).
		WithRelated(a.w.File, mi.t.Pos, "tried first: "+mi.t.From+" -> "+mi.t.To).
		WithHint("make the guards exclusive if document order is not meant to decide")
	a.diags.Add(dg)
	a.witnesses = append(a.witnesses, WitnessOf{Finding: dg, Witness: w})
}

// WitnessOf ties a witness to the overlapping_guards finding it confirms.
type WitnessOf struct {
	Finding diag.Diagnostic
	Witness *Witness
}

// graph is the live graph of §7.1: per state, its live moves.
type graph map[string][]*move

func (a *analyzer) liveGraph(underMap bool) graph {
	g := graph{}
	for _, m := range a.moves {
		if a.live(m, underMap) {
			g[m.t.From] = append(g[m.t.From], m)
		}
	}
	return g
}

// reach returns the states reachable from initial over the edges of g
// (iterative, no recursion over the graph).
func (a *analyzer) reach(g graph) map[string]bool {
	seen := map[string]bool{a.w.Initial: true}
	stack := []string{a.w.Initial}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range g[s] {
			if !seen[m.t.To] {
				seen[m.t.To] = true
				stack = append(stack, m.t.To)
			}
		}
	}
	return seen
}

// liveness runs §7 on the live graph, then under the map (§8.6).
func (a *analyzer) liveness() {
	for _, id := range a.w.StateIDs() {
		a.overlaps(id)
	}
	plain := a.livenessOf(false)
	for _, d := range plain {
		a.diags.Add(d.d)
	}
	if a.opts.Map == nil {
		return
	}
	reported := map[string]bool{}
	for _, d := range plain {
		reported[d.key] = true
	}
	for _, d := range a.livenessOf(true) {
		if !reported[d.key] {
			a.diags.Add(d.d)
		}
	}
}

type keyed struct {
	key string
	d   diag.Diagnostic
}

// livenessOf computes no_way_out, trapped_cycle and never_entered.
func (a *analyzer) livenessOf(underMap bool) []keyed {
	g := a.liveGraph(underMap)
	live := a.reach(g)
	structural := graph{}
	for _, m := range a.moves {
		structural[m.t.From] = append(structural[m.t.From], m)
	}
	reachable := a.reach(structural)
	suffix := ""
	if underMap {
		suffix = " under map `" + a.opts.Map.ID + "`"
	}
	var out []keyed
	ids := a.w.StateIDs()
	for _, id := range ids {
		s := a.w.States[id]
		if !live[id] || s.Terminal || len(a.out[id]) == 0 || len(g[id]) > 0 {
			continue
		}
		d := a.atState(diag.Errorf(CodeNoWayOut, "state `%s` has no way out%s: every move out of it can never be taken", id, suffix), s)
		for _, m := range a.out[id] {
			d = d.WithRelated(a.w.File, m.t.Pos, m.t.From+" -> "+m.t.To+": "+a.deathOf(m, underMap))
		}
		out = append(out, keyed{"no_way_out " + id, d.WithHint("give the state a way out that can be taken")})
	}
	for _, comp := range a.components(g, live) {
		out = append(out, a.trapped(comp, g, suffix))
	}
	if !a.w.AllowUnreachable {
		for _, id := range ids {
			if !reachable[id] || live[id] {
				continue
			}
			s := a.w.States[id]
			var ways []string
			d := diag.Diagnostic{}
			for _, m := range a.in[id] {
				if reachable[m.t.From] {
					ways = append(ways, name(m))
				}
			}
			what := "its only way in, " + strings.Join(ways, ", ") + ", can never be taken"
			if len(ways) != 1 {
				what = "every way in (" + strings.Join(ways, ", ") + ") can never be taken"
			}
			d = a.atState(diag.Warningf(CodeNeverEntered, "state `%s` is never entered%s: %s", id, suffix, what), s)
			for _, m := range a.in[id] {
				if reachable[m.t.From] {
					d = d.WithRelated(a.w.File, m.t.Pos, m.t.From+" -> "+m.t.To+": "+a.deathOf(m, underMap))
				}
			}
			out = append(out, keyed{"never_entered " + id, d})
		}
	}
	return out
}

// deathOf names what killed a dead move.
func (a *analyzer) deathOf(m *move, underMap bool) string {
	switch {
	case m.dead != "":
		return m.dead
	case m.owesUnproducible:
		return CodeUnproducible
	case underMap && a.mapDead[m]:
		return CodeNoStepProduces
	}
	return "live"
}

// components returns the trapped cycles of §7.3: strongly connected
// components of g reachable from initial, with no terminal state, no live
// edge leaving, and a real cycle. Iterative Tarjan, states in id order,
// edges in document order.
func (a *analyzer) components(g graph, live map[string]bool) [][]string {
	ids := a.w.StateIDs()
	index := map[string]int{}
	low := map[string]int{}
	on := map[string]bool{}
	var stack []string
	var comps [][]string
	n := 0
	type frame struct {
		s string
		i int
	}
	for _, root := range ids {
		if _, seen := index[root]; seen {
			continue
		}
		call := []frame{{s: root}}
		index[root], low[root] = n, n
		n++
		stack = append(stack, root)
		on[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(g[f.s]) {
				to := g[f.s][f.i].t.To
				f.i++
				if _, seen := index[to]; !seen {
					index[to], low[to] = n, n
					n++
					stack = append(stack, to)
					on[to] = true
					call = append(call, frame{s: to})
				} else if on[to] {
					low[f.s] = min(low[f.s], index[to])
				}
				continue
			}
			s := f.s
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].s
				low[p] = min(low[p], low[s])
			}
			if low[s] != index[s] {
				continue
			}
			var comp []string
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[x] = false
				comp = append(comp, x)
				if x == s {
					break
				}
			}
			comps = append(comps, comp)
		}
	}
	var out [][]string
	for _, comp := range comps {
		slices.Sort(comp)
		if a.isTrapped(comp, g, live) {
			out = append(out, comp)
		}
	}
	slices.SortFunc(out, func(x, y []string) int { return strings.Compare(x[0], y[0]) })
	return out
}

func (a *analyzer) isTrapped(comp []string, g graph, live map[string]bool) bool {
	in := map[string]bool{}
	for _, s := range comp {
		in[s] = true
		if !live[s] || a.w.States[s].Terminal {
			return false
		}
	}
	selfLoop := false
	for _, s := range comp {
		for _, m := range g[s] {
			if !in[m.t.To] {
				return false
			}
			if m.t.To == s {
				selfLoop = true
			}
		}
	}
	return len(comp) > 1 || selfLoop
}

// trapped reports one trapped cycle at its first state.
func (a *analyzer) trapped(comp []string, g graph, suffix string) keyed {
	in := map[string]bool{}
	for _, s := range comp {
		in[s] = true
	}
	first := comp[0]
	path := []string{first}
	seen := map[string]bool{first: true}
	cur := first
	for {
		next := ""
		for _, m := range g[cur] {
			if in[m.t.To] {
				next = m.t.To
				break
			}
		}
		path = append(path, next)
		if seen[next] {
			break
		}
		seen[next] = true
		cur = next
	}
	var exits []*move
	for _, s := range comp {
		for _, m := range a.out[s] {
			if !in[m.t.To] {
				exits = append(exits, m)
			}
		}
	}
	what := "no move leaves it"
	if len(exits) > 0 {
		var names []string
		for _, m := range exits {
			names = append(names, name(m))
		}
		what = "every move out of it (" + strings.Join(names, ", ") + ") can never be taken"
	}
	d := a.atState(diag.Errorf(CodeTrappedCycle, "the cycle `%s` cannot be left%s: %s", strings.Join(path, " -> "), suffix, what), a.w.States[first])
	for _, m := range exits {
		d = d.WithRelated(a.w.File, m.t.Pos, m.t.From+" -> "+m.t.To+": "+a.deathOf(m, suffix != ""))
	}
	return keyed{"trapped_cycle " + strings.Join(comp, ","), d.WithHint("give the cycle a way out that can be taken")}
}

// reportIncomplete reports one analysis_incomplete per transition whose
// checks a bound left undecided, and one at the workflow for a
// workflow-wide cut (§4.6).
func (a *analyzer) reportIncomplete() {
	for _, m := range a.moves {
		if len(m.undecided) == 0 {
			continue
		}
		u := slices.Compact(m.undecided)
		a.undecided.Checks += len(u)
		a.undecided.Transitions++
		a.diags.Add(a.atTransition(diag.Warningf(CodeIncomplete, "the analysis of %s is incomplete: it could not decide %s", name(m), strings.Join(u, "; ")), m).
			WithHint("simplify the guard, or check the move with `aepflow simulate`"))
	}
	if a.cut != nil {
		a.undecided.Stopped++
		a.diags.Add(diag.Warningf(CodeIncomplete, "the analysis of workflow `%s` stopped early: %s; the remaining checks were not decided", a.w.Ref(), a.cut.Error()).
			At(a.w.File, a.w.Pos).WithPath(a.w.Location() + ".id"))
	}
}
