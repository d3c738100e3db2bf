package analysis

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// polarity is one of the four translations of §4.3.
type polarity int

const (
	polT    polarity = iota // φ is True
	polF                    // φ is False
	polNotT                 // φ is not True
	polNotF                 // φ is not False
)

// dual returns the polarity that holds exactly when p does not.
func (p polarity) dual() polarity {
	switch p {
	case polT:
		return polNotT
	case polF:
		return polNotF
	case polNotT:
		return polT
	}
	return polF
}

// negated returns the polarity of x that gives polarity p of `not x`.
func (p polarity) negated() polarity {
	switch p {
	case polT:
		return polF
	case polF:
		return polT
	case polNotT:
		return polNotF
	}
	return polNotT
}

// conjunctive reports whether All translates to a conjunction under p.
func (p polarity) conjunctive() bool { return p == polT || p == polNotF }

// pathInfo is what the analysis knows of one fact path.
type pathInfo struct {
	name string
	dom  Domain
	// produced: some row whose kind the protocols declare matches it.
	produced bool
	// matches are the rows that bind it, with their captures.
	matches []rowMatch
	// undeclared lists the evidence kinds whose rows match it but which
	// no protocol the workflow runs under declares.
	undeclared []string
	// synthetic marks the free variables of relational leaves and items.
	synthetic bool
}

// rowMatch is one row matching a path, with what its parameters held.
type rowMatch struct {
	row *row
	cap capture
}

// planOnly reports whether only plan facts can bind the path (§3.4).
func (p *pathInfo) planOnly() bool { return !p.synthetic && len(p.matches) == 0 }

// path interns name and returns its id, computing its domain once.
func (a *analyzer) path(name string) int32 {
	if id, ok := a.ids[name]; ok {
		return id
	}
	info := a.describe(name)
	id := int32(len(a.paths))
	a.paths = append(a.paths, info)
	a.ids[name] = id
	return id
}

// variable interns a free variable of a relational leaf or an item: a
// path of its own with the given domain and no ⊥.
func (a *analyzer) variable(key string, dom Domain) int32 {
	if id, ok := a.ids[key]; ok {
		return id
	}
	id := int32(len(a.paths))
	a.paths = append(a.paths, &pathInfo{name: key, dom: dom, synthetic: true})
	a.ids[key] = id
	return id
}

// describe computes a path's domain (§3.3, §3.4, A1, A2).
func (a *analyzer) describe(name string) *pathInfo {
	info := &pathInfo{name: name}
	segs := strings.Split(name, ".")
	always := false
	var dom Domain
	for i := range rows {
		r := &rows[i]
		c, ok := r.match(segs, &a.scope)
		if !ok {
			continue
		}
		if r.kind != "" && !a.kinds[r.kind] {
			if !slices.Contains(info.undeclared, r.kind) {
				info.undeclared = append(info.undeclared, r.kind)
			}
			continue
		}
		d := r.dom
		if r.src == srcDerived && r.pat[0] == "state" && r.pat[1] == "current" {
			d = Domain{Set: enum(a.w.StateIDs()...)}
		}
		dom = dom.union(d)
		always = always || r.always
		info.matches = append(info.matches, rowMatch{row: r, cap: c})
	}
	info.produced = len(info.matches) > 0
	switch {
	case !info.produced:
		dom = domA
	case a.profileFacts[name]:
		dom = dom.union(domA) // A1: a profile binds a produced path
	case !owned(name) && a.kinds["metric_observation"]:
		// A2 leaves the bare alias its paths outside owned namespaces: a
		// metric named `task.kind` binds that path to a number, so a
		// produced path there (task.*, `<x>_verified`) takes numbers too.
		dom = dom.union(domR)
	}
	if !always {
		dom.Set.bot = true
	}
	info.dom = dom
	return info
}

// atomOn returns `path ∈ set` narrowed to the path's domain.
func (a *analyzer) atomOn(path int32, set VSet) dnf {
	return one(path, a.paths[path].dom.restrict(set))
}

// leafSets returns the true-set and false-set of a leaf (§4.2), or ok
// false for a relational leaf.
func (a *analyzer) leafSets(p predicate.Predicate) (path string, tset, fset VSet, ok bool) {
	switch p := p.(type) {
	case predicate.Truthy:
		t := VSet{bools: bitTrue, texts: textSet{co: true, items: []string{"", "false"}}, nums: numSet{allReals}.intersect(single(predicate.Number(0)).nums.complement())}
		f := setFalse.Union(single(predicate.Number(0))).Union(enum("", "false"))
		return p.Path, t, f, true
	case predicate.Defined:
		return p.Path, setValues, setBot, true
	case predicate.In:
		var set VSet
		for _, v := range p.Values {
			set = set.Union(single(v))
		}
		others := setValues.Intersect(set.Complement())
		if p.Negated {
			return p.Path, others, set, true
		}
		return p.Path, set, others, true
	case predicate.Compare:
		if p.Right.IsFact() {
			return "", VSet{}, VSet{}, false
		}
		return a.compareSets(p)
	}
	return "", VSet{}, VSet{}, false
}

// compareSets returns the sets of `fact op literal`.
func (a *analyzer) compareSets(p predicate.Compare) (string, VSet, VSet, bool) {
	v := p.Right.Value
	path := p.Left.Path
	switch p.Op {
	case predicate.Eq:
		s := single(v)
		return path, s, setValues.Intersect(s.Complement()), true
	case predicate.Ne:
		s := single(v)
		return path, setValues.Intersect(s.Complement()), s, true
	}
	switch v.Kind() {
	case predicate.KindBool:
		return path, VSet{}, VSet{}, true
	case predicate.KindNumber:
		n := v.Number()
		if n == 0 {
			n = 0
		}
		inf := math.Inf(1)
		below := numRange(-inf, n, true, true)
		above := numRange(n, inf, true, true)
		at := single(predicate.Number(n))
		switch p.Op {
		case predicate.Lt:
			return path, below, above.Union(at), true
		case predicate.Le:
			return path, below.Union(at), above, true
		case predicate.Gt:
			return path, above, below.Union(at), true
		}
		return path, above.Union(at), below, true
	}
	t, f, ok := a.scaledSets(v.Text(), p.Op)
	return path, t, f, ok
}

// scaledSets returns the texts an ordering against the text t puts on its
// true and false sides under every candidate scale map; ok is false when
// there is no candidate or two candidates disagree (a relational leaf).
func (a *analyzer) scaledSets(t string, op predicate.Op) (VSet, VSet, bool) {
	if len(a.scales) == 0 {
		return VSet{}, VSet{}, false
	}
	var tset, fset VSet
	for i, sc := range a.scales {
		var ts, fs []string
		for _, name := range slices.Sorted(maps.Keys(sc)) {
			for _, x := range sc[name] {
				sign, ok, _ := sc.Order(x, t)
				if !ok {
					continue
				}
				if holds(sign, op) {
					ts = append(ts, x)
				} else {
					fs = append(fs, x)
				}
			}
		}
		t1, f1 := enum(ts...), enum(fs...)
		if i == 0 {
			tset, fset = t1, f1
			continue
		}
		if !slices.Equal(t1.texts.items, tset.texts.items) || !slices.Equal(f1.texts.items, fset.texts.items) {
			return VSet{}, VSet{}, false
		}
	}
	return tset, fset, true
}

func holds(sign int, op predicate.Op) bool {
	switch op {
	case predicate.Lt:
		return sign < 0
	case predicate.Le:
		return sign <= 0
	case predicate.Gt:
		return sign > 0
	}
	return sign >= 0
}

// Values of the three-valued variable of a relational ordering.
const (
	relTrue    = "T"
	relFalse   = "F"
	relUnknown = "U"
)

// relational translates a relational leaf (§4.4): a fresh variable per
// (left, op, right), and both operands observed among the values the
// operator compares. An ordering's variable may also be Unknown (two
// comparable-looking values the engine cannot order), so that no claim
// rests on the relation being decided.
func (a *analyzer) relational(p predicate.Compare, pol polarity) dnf {
	ordering := p.Op != predicate.Eq && p.Op != predicate.Ne
	comparable := setValues
	vals := []string{relTrue, relFalse}
	if ordering {
		comparable = setNum.Union(setText)
		vals = append(vals, relUnknown)
	}
	if !p.Right.IsFact() {
		comparable = setText
	}
	v := a.variable("rel:"+p.String(), Domain{Set: enum(vals...)})
	ops := []int32{a.path(p.Left.Path)}
	if p.Right.IsFact() {
		ops = append(ops, a.path(p.Right.Path))
	}
	b := a.b
	observed := func() dnf {
		out := dnfTrue
		for _, o := range ops {
			out = b.and(out, a.atomOn(o, comparable))
		}
		return out
	}
	outside := func() dnf {
		out := dnfFalse
		for _, o := range ops {
			out = b.or(out, a.atomOn(o, comparable.Complement()))
		}
		return out
	}
	others := func(v1 string) []string {
		return slices.DeleteFunc(slices.Clone(vals), func(s string) bool { return s == v1 })
	}
	switch pol {
	case polT:
		return b.and(a.atomOn(v, enum(relTrue)), observed())
	case polF:
		return b.and(a.atomOn(v, enum(relFalse)), observed())
	case polNotT:
		return b.or(a.atomOn(v, enum(others(relTrue)...)), outside())
	}
	return b.or(a.atomOn(v, enum(others(relFalse)...)), outside())
}

// pred translates a predicate under polarity pol (§4.3, §4.6).
func (a *analyzer) pred(p predicate.Predicate, pol polarity) dnf {
	b := a.b
	if b.err != nil {
		return nil
	}
	switch p := p.(type) {
	case nil:
		// A nil guard is Unknown: never True, never False.
		if pol == polNotT || pol == polNotF {
			return dnfTrue
		}
		return dnfFalse
	case predicate.Always:
		if pol == polT || pol == polNotF {
			return dnfTrue
		}
		return dnfFalse
	case predicate.Never:
		if pol == polF || pol == polNotT {
			return dnfTrue
		}
		return dnfFalse
	case predicate.All:
		return a.junction(p.Items, pol.conjunctive(), pol)
	case predicate.Any:
		return a.junction(p.Items, !pol.conjunctive(), pol)
	case predicate.Not:
		return a.pred(p.X, pol.negated())
	case predicate.Compare:
		if p.Right.IsFact() {
			return a.relational(p, pol)
		}
	}
	path, tset, fset, ok := a.leafSets(p)
	if !ok {
		if c, isCmp := p.(predicate.Compare); isCmp {
			return a.relational(c, pol)
		}
		return dnfFalse
	}
	id := a.path(path)
	switch pol {
	case polT:
		return a.atomOn(id, tset)
	case polF:
		return a.atomOn(id, fset)
	case polNotT:
		return a.atomOn(id, tset.Complement())
	}
	return a.atomOn(id, fset.Complement())
}

func (a *analyzer) junction(items []predicate.Predicate, and bool, pol polarity) dnf {
	b := a.b
	if !and {
		parts := make([]dnf, 0, len(items))
		for _, it := range items {
			parts = append(parts, a.pred(it, pol))
			if b.err != nil {
				return nil
			}
		}
		return b.orAll(parts...)
	}
	out := dnfTrue
	for _, it := range items {
		out = b.and(out, a.pred(it, pol))
		if b.err != nil {
			return nil
		}
	}
	return out
}

// itemMode selects which items of a set a translation keeps.
type itemMode int

const (
	// allItems translates every item (§4.5).
	allItems itemMode = iota
	// predicatePart keeps the predicate items and the conditionals whose
	// inner items are all predicates (§6.6's P).
	predicatePart
)

// set translates `the set is True` (pol polT) or `the set is not True`
// (pol polNotT) of a requirement set. key names the set, so that each of
// its evidence items gets its own variable.
func (a *analyzer) set(s *workflow.RequirementSet, key string, pol polarity, mode itemMode) dnf {
	b := a.b
	var parts []dnf
	for _, p := range s.Predicates {
		parts = append(parts, a.pred(p, pol))
	}
	if mode == allItems {
		for i := range s.Evidence {
			parts = append(parts, a.evidenceItem(&s.Evidence[i], key+".evidence["+itoa(i)+"]", pol))
		}
		for _, r := range s.Artifacts {
			parts = append(parts, a.countAtLeast("artifact."+canonicalArtifactKind(r.Kind)+".count", r.AtLeast, pol))
		}
		for range s.Reviews {
			parts = append(parts, a.kindItem("review", pol))
		}
		for range s.Approvals {
			parts = append(parts, a.kindItem("approval", pol))
		}
	}
	for i := range s.Conditional {
		c := &s.Conditional[i]
		if mode == predicatePart && !predicatesOnly(&c.Require) {
			continue
		}
		parts = append(parts, a.conditional(c, key+".conditional["+itoa(i)+"]", pol, mode))
	}
	if mode == allItems {
		for i := range s.Advisory {
			parts = append(parts, a.set(&s.Advisory[i].Require, key+".advisory["+itoa(i)+"]", pol, mode))
		}
	}
	if pol == polT {
		return b.andAll(parts...)
	}
	return b.orAll(parts...)
}

// conditional translates a conditional item: True when its `when` is False,
// or True with its set True; an Unknown `when` blocks (§4.5).
func (a *analyzer) conditional(c *workflow.ConditionalReq, key string, pol polarity, mode itemMode) dnf {
	b := a.b
	if pol == polT {
		return b.or(a.pred(c.When, polF), b.and(a.pred(c.When, polT), a.set(&c.Require, key, polT, mode)))
	}
	return b.and(a.pred(c.When, polNotF), b.or(a.pred(c.When, polNotT), a.set(&c.Require, key, polNotT, mode)))
}

// predicatesOnly reports whether a set holds predicate items only, nested
// conditionals included.
func predicatesOnly(s *workflow.RequirementSet) bool {
	if len(s.Evidence)+len(s.Artifacts)+len(s.Reviews)+len(s.Approvals)+len(s.Advisory) > 0 {
		return false
	}
	for i := range s.Conditional {
		if !predicatesOnly(&s.Conditional[i].Require) {
			return false
		}
	}
	return true
}

// evidenceItem translates an evidence item: its item variable and at least
// n records of its kind; ⊥ when it can never be met (§4.5).
func (a *analyzer) evidenceItem(r *workflow.EvidenceReq, key string, pol polarity) dnf {
	if r.AtLeast == 0 {
		if pol == polT {
			return dnfTrue
		}
		return dnfFalse
	}
	if a.unmeetable(r) != "" {
		if pol == polT {
			return dnfFalse
		}
		return dnfTrue
	}
	v := a.variable("item:"+key, Domain{Set: setTrue})
	a.items[v] = r
	count := a.countAtLeast("evidence.count."+r.Kind, r.AtLeast, pol)
	if pol == polT {
		return a.b.and(a.atomOn(v, setTrue), count)
	}
	return count
}

// kindItem translates a review or approval item: at least one record of
// its kind, ⊥ when the protocols do not declare the kind.
func (a *analyzer) kindItem(kind string, pol polarity) dnf {
	if !a.kinds[kind] {
		if pol == polT {
			return dnfFalse
		}
		return dnfTrue
	}
	return a.countAtLeast("evidence.count."+kind, 1, pol)
}

// countAtLeast translates `path ≥ n` (True) or its dual.
func (a *analyzer) countAtLeast(path string, n uint32, pol polarity) dnf {
	if n == 0 {
		if pol == polT {
			return dnfTrue
		}
		return dnfFalse
	}
	set := atLeast(float64(n))
	if pol != polT {
		set = set.Complement()
	}
	return a.atomOn(a.path(path), set)
}

// canonicalArtifactKind resolves an artifact kind's alias, as the engine
// does where it matches one.
func canonicalArtifactKind(k string) string {
	c, _ := artifact.CanonicalKind(k)
	return c
}
