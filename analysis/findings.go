package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// neverReason names why a guard never holds (§6.2): a leaf empty on its
// domain, the context, or a contradiction on one path.
func (a *analyzer) neverReason(g predicate.Predicate, s *workflow.State) string {
	if leaf := a.emptyLeaf(g, polT); leaf != nil {
		path := predicate.FactPaths(leaf)[0]
		info := a.paths[a.path(path)]
		why := "`" + path + "` is " + describeDomain(info.dom) + ", so `" + leaf.String() + "` is never true" + textLiteralNote(leaf)
		if info.produced {
			why += " (assuming no task binds `" + path + "` itself)"
		}
		return why
	}
	if d, err := a.decide(func() dnf { return a.pred(g, polT) }); err == nil && len(d) > 0 {
		return "in state `" + s.ID + "`, `state.current` is `" + s.ID + "`" + terminalNote(s)
	}
	for i, p := range predicate.FactPaths(g) {
		if i == maxReasonPaths {
			break
		}
		id := a.path(p)
		d, err := a.decide(func() dnf { return a.projected(g, polT, id) })
		if err == nil && len(d) == 0 {
			return "its conditions on `" + p + "` (" + describeDomain(a.paths[id].dom) + ") contradict each other"
		}
	}
	return "no combination of the facts it reads satisfies it"
}

// textLiteralNote explains a text literal that displays like a number or
// a bool (`tests.unit.failed == "0"` displays as `tests.unit.failed == 0`).
func textLiteralNote(p predicate.Predicate) string {
	var vals []predicate.Value
	switch q := p.(type) {
	case predicate.Not:
		return textLiteralNote(q.X)
	case predicate.Compare:
		vals = []predicate.Value{q.Right.Value}
	case predicate.In:
		vals = q.Values
	}
	for _, v := range vals {
		if v.Kind() == predicate.KindText && predicate.Literal(v.Text()).Kind() != predicate.KindText {
			return " (`" + v.Text() + "` there is the text \"" + v.Text() + "\", quoted in the document, not a " + predicate.Literal(v.Text()).Kind().String() + ")"
		}
	}
	return ""
}

// maxReasonPaths bounds the paths neverReason tries one by one.
const maxReasonPaths = 16

func terminalNote(s *workflow.State) string {
	if s.Terminal {
		return " and `workflow.terminal` is true"
	}
	return ""
}

// emptyLeaf returns a leaf that must hold for p to have polarity pol and
// whose set is empty on its path's domain, or nil.
func (a *analyzer) emptyLeaf(p predicate.Predicate, pol polarity) predicate.Predicate {
	switch q := p.(type) {
	case predicate.All:
		if pol == polT {
			for _, it := range q.Items {
				if l := a.emptyLeaf(it, pol); l != nil {
					return l
				}
			}
		}
		return nil
	case predicate.Any:
		if pol == polF {
			for _, it := range q.Items {
				if l := a.emptyLeaf(it, pol); l != nil {
					return l
				}
			}
		}
		return nil
	case predicate.Not:
		l := a.emptyLeaf(q.X, pol.negated())
		switch q.X.(type) {
		case predicate.All, predicate.Any, predicate.Not:
		default:
			if l != nil {
				return q // name the leaf as the guard writes it
			}
		}
		return l
	case predicate.Always, predicate.Never, nil:
		return nil
	}
	path, tset, fset, ok := a.leafSets(p)
	if !ok {
		return nil
	}
	set := tset
	if pol == polF {
		set = fset
	}
	if a.paths[a.path(path)].dom.restrict(set).Empty() {
		return p
	}
	return nil
}

// projected translates p keeping only the leaves on path id; every other
// leaf is left free (⊤), which over-approximates.
func (a *analyzer) projected(p predicate.Predicate, pol polarity, id int32) dnf {
	switch q := p.(type) {
	case predicate.All:
		return a.projJunction(q.Items, pol.conjunctive(), pol, id)
	case predicate.Any:
		return a.projJunction(q.Items, !pol.conjunctive(), pol, id)
	case predicate.Not:
		return a.projected(q.X, pol.negated(), id)
	case predicate.Always, predicate.Never:
		return a.pred(p, pol)
	}
	paths := predicate.FactPaths(p)
	if len(paths) != 1 || a.path(paths[0]) != id {
		return dnfTrue
	}
	if c, ok := p.(predicate.Compare); ok && c.Right.IsFact() {
		return dnfTrue
	}
	return a.pred(p, pol)
}

// projJunction translates a junction of projected items. It only explains
// a finding already made, so a disjunction with a free (⊤) member is ⊤
// at once.
func (a *analyzer) projJunction(items []predicate.Predicate, and bool, pol polarity, id int32) dnf {
	if !and {
		parts := make([]dnf, 0, len(items))
		for _, it := range items {
			f := a.projected(it, pol, id)
			if len(f) == 1 && len(f[0]) == 0 {
				return dnfTrue
			}
			parts = append(parts, f)
		}
		return a.b.orAll(parts...)
	}
	out := dnfTrue
	for _, it := range items {
		out = a.b.and(out, a.projected(it, pol, id))
	}
	return out
}

// describeDomain names a domain in words for messages.
func describeDomain(d Domain) string {
	s := d.Set
	obs := ""
	if !s.bot {
		obs = "always observed and "
	}
	v := s
	v.bot = false
	switch {
	case v.Empty():
		return "never observed"
	case d.Int && v.bools == 0 && v.texts.empty() && len(v.nums) == 1 && v.nums[0].lo == 0 && v.nums[0].hi > 1e308:
		return obs + "a non-negative integer"
	case d.Int && v.bools == 0 && v.texts.empty() && len(v.nums) == 1 && v.nums[0].lo == 1 && v.nums[0].hi > 1e308:
		return obs + "a positive integer"
	case v.bools == bitTrue && v.texts.empty() && len(v.nums) == 0:
		if !s.bot {
			return "always observed and true"
		}
		return "true whenever it is observed"
	case v.bools == bitsBoth && v.texts.empty() && len(v.nums) == 0:
		return obs + "true or false"
	case v.bools == 0 && !v.texts.co && len(v.nums) == 0:
		return obs + "one of " + quoteList(v.texts.items)
	case v.bools == 0 && v.texts.co && len(v.texts.items) == 0 && len(v.nums) == 0:
		return obs + "a text"
	case v.bools == 0 && v.texts.empty():
		return obs + "a number"
	}
	if !s.bot {
		return "always observed"
	}
	return "any value"
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}

// unmeetable returns why an evidence item can never be met (§4.5), or "".
func (a *analyzer) unmeetable(r *workflow.EvidenceReq) string {
	switch {
	case !a.kinds[r.Kind]:
		return "no protocol the workflow runs under (" + a.protocolList() + ") declares the evidence kind `" + r.Kind + "`"
	case r.Kind == "ess_conformance_v2":
		return "records of kind `ess_conformance_v2` never match a requirement"
	case r.Verifier != "" && vocab.IsNamedVerifier(r.Verifier) && !slices.Contains(vocab.DefaultVerifiers(r.Kind), r.Verifier):
		return "the verifier `" + r.Verifier + "` establishes only " + kindList(vocab.KindsEstablishedBy(r.Verifier)) + ", not `" + r.Kind + "`"
	}
	return ""
}

func kindList(kinds []string) string {
	if len(kinds) == 0 {
		return "no evidence kind"
	}
	return quoteList(kinds)
}

func (a *analyzer) protocolList() string {
	if len(a.kindSources) == 0 {
		return "none"
	}
	return quoteList(a.kindSources)
}

// unproducibleItems reports §6.4 and marks the moves that owe such items.
func (a *analyzer) unproducibleItems() {
	for _, id := range a.w.StateIDs() {
		s := a.w.States[id]
		if a.reportItems(&s.Requires, a.statePath(id)+".requires", "entering state `"+id+"`") {
			for _, m := range a.in[id] {
				m.owesUnproducible = true
			}
		}
	}
	for _, m := range a.moves {
		if a.reportItems(&m.t.Requires, a.trPath(m)+".requires", "the move "+name(m)) {
			m.owesUnproducible = true
		}
	}
}

// reportItems reports the items of a set (and of its advisory sets) that
// can never be met; it reports whether there was one.
func (a *analyzer) reportItems(s *workflow.RequirementSet, path, owner string) bool {
	found := false
	for i := range s.Evidence {
		r := &s.Evidence[i]
		if r.AtLeast == 0 {
			continue
		}
		why := a.unmeetable(r)
		if why == "" {
			continue
		}
		found = true
		d := diag.Errorf(CodeUnproducible, "%s, which %s owes, can never be met: %s (assuming a driven run, which accepts only declared kinds from the verifiers that establish them)", "`"+reqtext.Evaluation.Evidence(*r)+"`", owner, why).
			At(a.w.File, r.Pos).WithPath(path + ".evidence[" + itoa(i) + "]")
		a.diags.Add(d.WithHint("%s", a.itemHint(r)))
	}
	for _, kind := range []string{"review", "approval"} {
		n := len(s.Reviews)
		if kind == "approval" {
			n = len(s.Approvals)
		}
		if n == 0 || a.kinds[kind] {
			continue
		}
		found = true
		for i := 0; i < n; i++ {
			pos, line := s.Pos, ""
			if kind == "review" {
				pos, line = s.Reviews[i].Pos, reqtext.Review(s.Reviews[i])
			} else {
				pos, line = s.Approvals[i].Pos, reqtext.Approval(s.Approvals[i])
			}
			a.diags.Add(diag.Errorf(CodeUnproducible, "`%s`, which %s owes, can never be met: no protocol the workflow runs under (%s) declares the evidence kind `%s`", line, owner, a.protocolList(), kind).
				At(a.w.File, pos).WithPath(path+"."+kind+"s["+itoa(i)+"]").
				WithHint("add `%s` to the `evidence_kinds` of %s", kind, a.protocolList()))
		}
	}
	for i := range s.Advisory {
		if a.reportItems(&s.Advisory[i].Require, path+".advisory["+itoa(i)+"].require", owner) {
			found = true
		}
	}
	return found
}

func (a *analyzer) itemHint(r *workflow.EvidenceReq) string {
	switch {
	case !a.kinds[r.Kind]:
		return "add `" + r.Kind + "` to the `evidence_kinds` of " + a.protocolList() + ", or drop the item"
	case r.Kind == "ess_conformance_v2":
		return "require `ess_conformance` instead"
	}
	return "the verifiers that establish `" + r.Kind + "`: " + kindList(vocab.DefaultVerifiers(r.Kind))
}

// unproducibleFacts reports §6.8: plan-only paths in owned namespaces.
func (a *analyzer) unproducibleFacts() {
	for _, m := range a.moves {
		for _, p := range predicate.FactPaths(m.t.When) {
			if d, ok := a.unproducibleFact(p, "the guard of "+name(m)); ok {
				a.diags.Add(a.atWhen(d, m))
			}
		}
		a.setFacts(&m.t.Requires, a.trPath(m)+".requires", "the `requires` of "+name(m))
	}
	for _, id := range a.w.StateIDs() {
		s := a.w.States[id]
		a.setFacts(&s.Requires, a.statePath(id)+".requires", "the `requires` of state `"+id+"`")
	}
}

func (a *analyzer) setFacts(s *workflow.RequirementSet, path, reader string) {
	for _, p := range s.FactPaths() {
		if d, ok := a.unproducibleFact(p, reader); ok {
			a.diags.Add(d.At(a.w.File, s.Pos).WithPath(path))
		}
	}
}

// unproducibleFact returns the warning for path p when it is plan-only in
// an owned namespace.
func (a *analyzer) unproducibleFact(p, reader string) (diag.Diagnostic, bool) {
	info := a.paths[a.path(p)]
	if !info.planOnly() || !owned(p) {
		return diag.Diagnostic{}, false
	}
	var why string
	if len(info.undeclared) > 0 {
		why = "the only evidence that binds it is of kind " + quoteList(info.undeclared) + ", which no protocol the workflow runs under (" + a.protocolList() + ") declares"
	} else {
		why = "no evidence, artifact or engine fact binds a path of that shape"
		if shapes := namespaceShapes(p); len(shapes) > 0 {
			why += " (the `" + strings.SplitN(p, ".", 2)[0] + "` facts are " + strings.Join(shapes, ", ") + ")"
		}
	}
	d := diag.Warningf(CodeUnproducibleFact, "%s reads `%s`, but %s: only a task's `constraints.facts` could bind it (assuming evidence binds only the shapes it projects)", reader, p, why)
	if a.hints < maxHints {
		a.hints++
		if near := a.nearest(p); near != "" {
			d = d.WithHint("did you mean `%s`?", near)
		}
	}
	return d, true
}

// maxHints bounds the nearest-path searches of one workflow: the first
// ones get a hint, the rest none.
const maxHints = 256

// namespaceShapes lists up to three shapes of the rows whose first segment
// is p's, then `…` when there are more.
func namespaceShapes(p string) []string {
	first := strings.SplitN(p, ".", 2)[0]
	var out []string
	n := 0
	for _, r := range rows {
		if r.pat[0] != first {
			continue
		}
		n++
		if len(out) < 3 {
			out = append(out, "`"+strings.Join(r.pat, ".")+"`")
		}
	}
	if n > 3 {
		out = append(out, "…")
	}
	return out
}

// nearest returns the produced path nearest to p by edit distance, within
// 3, over the shapes of §3.3 instantiated with p's own segments.
func (a *analyzer) nearest(p string) string {
	segs := strings.Split(p, ".")
	best, bestD := "", 4
	try := func(c string) {
		if c == p {
			return
		}
		info := a.paths[a.path(c)]
		if !info.produced {
			return
		}
		if d := levenshtein(c, p); d < bestD {
			best, bestD = c, d
		}
	}
	for i := range rows {
		for _, c := range a.instantiate(&rows[i], segs) {
			try(c)
		}
	}
	return best
}

// instantiate fills a row's parameter segments with p's segments at the
// same places (canonicalised where a spelling has a canonical form), or
// with each declared value for the closed parameters.
func (a *analyzer) instantiate(r *row, segs []string) []string {
	if len(r.pat) > len(segs)+1 || len(segs) > len(r.pat)+3 {
		return nil
	}
	out := []string{""}
	for i, pat := range r.pat {
		seg := ""
		if i < len(segs) {
			seg = segs[i]
		}
		var choices []string
		switch pat {
		case "<s>", "<s>_tests":
			s := strings.TrimSuffix(seg, "_tests")
			c, _ := vocab.CanonicalSuite(s)
			if pat == "<s>_tests" {
				c += "_tests"
			}
			choices = []string{c}
		case "<k>", "<st>", "<…>", "<x>_verified", "<principle>":
			choices = []string{seg}
			if pat == "<…>" && len(segs) > len(r.pat) {
				choices = []string{strings.Join(segs[i:i+1+len(segs)-len(r.pat)], ".")}
			}
		case "<kind>":
			if c, ok := vocab.CanonicalKind(seg); ok && a.kinds[c] {
				choices = []string{c}
			} else {
				for _, k := range vocab.EvidenceKinds {
					if a.kinds[k] {
						choices = append(choices, k)
					}
				}
			}
		case "<state>":
			// Only states whose segments are within the hint's distance of
			// the path's own can be nearest; a workflow of many states is
			// not walked for each path.
			mid := strings.Join(segs[min(i, len(segs)):max(min(i, len(segs)), len(segs)-(len(r.pat)-1-i))], ".")
			for _, id := range a.w.StateIDs() {
				seg := engine.StateSegments(id)
				if d := len(seg) - len(mid); d >= -3 && d <= 3 && levenshtein(seg, mid) <= 3 {
					choices = append(choices, seg)
				}
			}
		default:
			choices = []string{pat}
		}
		var next []string
		for _, o := range out {
			for _, c := range choices {
				if c == "" {
					continue
				}
				if o != "" {
					c = o + "." + c
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// levenshtein is the edit distance between two strings, in bytes.
func levenshtein(s, t string) int {
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(t)]
}

// pairwise runs §6.6 for the moves out of one state.
func (a *analyzer) pairwise(state string) {
	ms := a.out[state]
	if len(ms) > MaxStateDegree {
		for _, m := range ms {
			if a.liveLocal(m) {
				m.undecided = append(m.undecided, fmt.Sprintf("the pairwise checks of state `%s` (more than %d transitions out of it)", state, MaxStateDegree))
			}
		}
		return
	}
	for j, mj := range ms {
		if !a.liveLocal(mj) {
			continue
		}
		for _, mi := range ms[:j] {
			if !a.liveLocal(mi) {
				continue
			}
			if a.shadows(mi, mj) {
				a.diags.Add(a.atTransition(diag.Errorf(CodeShadowed, "%s is never taken: whenever its guard `%s` holds and its requirements are met, %s, tried first, is permitted too", name(mj), mj.t.When, name(mi)), mj).
					WithRelated(a.w.File, mi.t.Pos, "tried first: "+mi.t.From+" -> "+mi.t.To).
					WithHint("reorder the transitions, or make the guards exclusive"))
				mj.dead = CodeShadowed
				break
			}
		}
	}
}

// liveLocal reports whether a move is not dead by §6's findings.
func (a *analyzer) liveLocal(m *move) bool { return m.dead == "" && !m.owesUnproducible }

// live reports whether a move is live, under the map when it judges one.
func (a *analyzer) live(m *move, underMap bool) bool {
	return a.liveLocal(m) && !(underMap && a.mapDead[m])
}

// shadows decides whether mi, tried first, shadows mj (§6.6).
func (a *analyzer) shadows(mi, mj *move) bool {
	if !sameNonPredicateItems(mi, mj) || !a.sameObligations(mi, mj) {
		return false
	}
	c := a.ctx(mj.src)
	keyI, keyJ := a.trPath(mi), a.trPath(mj)
	d, err := a.decide(func() dnf {
		lhs := a.andCtx(a.b.andAll(a.guard(mj, polT), a.set(&mj.t.Requires, keyJ+".requires", polT, allItems),
			a.set(&mj.dst.Requires, a.statePath(mj.dst.ID)+".requires", polT, allItems)), c)
		notI := a.b.orAll(a.guard(mi, polNotT), a.set(&mi.t.Requires, keyI+".requires", polNotT, predicatePart),
			a.set(&mi.dst.Requires, a.statePath(mi.dst.ID)+".requires", polNotT, predicatePart))
		return a.b.and(lhs, notI)
	})
	if err != nil {
		mj.undecided = append(mj.undecided, "whether "+name(mi)+" shadows it ("+err.Error()+")")
		return false
	}
	return len(d) == 0
}

// sameNonPredicateItems is §6.6 condition 2: every item of mi's local sets
// outside their predicate part occurs in mj's, judged alike by the engine.
// Items are compared by itemKey, not by their printed lines: a line leaves
// out what the engine reads but does not print (an artifact item's
// `fresh`), and prints the text "1" and the number 1 alike.
func sameNonPredicateItems(mi, mj *move) bool {
	have := append(nonPredicateKeys(&mj.t.Requires), nonPredicateKeys(&mj.dst.Requires)...)
	for _, s := range []*workflow.RequirementSet{&mi.t.Requires, &mi.dst.Requires} {
		for _, k := range nonPredicateKeys(s) {
			if !slices.Contains(have, k) {
				return false
			}
		}
	}
	return true
}

// nonPredicateKeys lists the keys of a set's items outside its predicate
// part: every item but the predicates and the conditionals that hold
// predicates only.
func nonPredicateKeys(s *workflow.RequirementSet) []string {
	out := itemKeys(&workflow.RequirementSet{Evidence: s.Evidence, Artifacts: s.Artifacts,
		Reviews: s.Reviews, Approvals: s.Approvals, Advisory: s.Advisory})
	for i := range s.Conditional {
		if !predicatesOnly(&s.Conditional[i].Require) {
			out = append(out, conditionalKey(&s.Conditional[i]))
		}
	}
	return out
}

// itemKeys spells each item of a set with every field the engine's
// judgement of it reads, values with their types (predicate.Key), so that
// two items get one key only when the engine cannot tell them apart.
func itemKeys(s *workflow.RequirementSet) []string {
	var out []string
	for _, p := range s.Predicates {
		out = append(out, "predicate "+predicate.Key(p))
	}
	for _, e := range s.Evidence {
		out = append(out, fmt.Sprintf("evidence %q %d %q %q %v %d", e.Kind, e.AtLeast, e.Subject, e.Verifier, e.Independent, e.HorizonDays))
	}
	for _, r := range s.Artifacts {
		rel := "none"
		if x := r.Relation; x != nil {
			rel = fmt.Sprintf("%q %q %q", x.Kind, canonicalArtifactKind(x.TargetKind), x.Target)
		}
		out = append(out, fmt.Sprintf("artifact %q %q %d %v %s", canonicalArtifactKind(r.Kind), r.Status, r.AtLeast, r.Fresh, rel))
	}
	for _, r := range s.Reviews {
		out = append(out, fmt.Sprintf("review %q %q %q %v", r.Subject, canonicalArtifactKind(r.SubjectKind), r.Result, r.Human))
	}
	for _, r := range s.Approvals {
		out = append(out, fmt.Sprintf("approval %q %v", r.ID, r.Human))
	}
	for i := range s.Conditional {
		out = append(out, conditionalKey(&s.Conditional[i]))
	}
	for _, ad := range s.Advisory {
		out = append(out, "advisory {"+strings.Join(itemKeys(&ad.Require), "; ")+"}")
	}
	return out
}

// conditionalKey is a conditional item's key: its condition and its set.
func conditionalKey(c *workflow.ConditionalReq) string {
	return "if " + predicate.Key(c.When) + " {" + strings.Join(itemKeys(&c.Require), "; ") + "}"
}

// sameObligations is §6.6 condition 3: every obligation of the tree's
// principles that blocks entry to mi's target also blocks entry to mj's.
func (a *analyzer) sameObligations(mi, mj *move) bool {
	for _, id := range a.t.PrincipleIDs() {
		for _, o := range engine.Obligations(a.t.Principles[id]) {
			if o.BlocksEntryTo(mi.dst) && !o.BlocksEntryTo(mj.dst) {
				return false
			}
		}
	}
	return true
}
