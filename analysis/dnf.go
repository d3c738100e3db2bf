package analysis

import (
	"errors"
	"math/bits"
	"slices"
)

// The bounds of analysis.md §4.6. They are part of the contract: two
// implementations, or two machines, report the same findings.
const (
	// MaxConjuncts bounds any intermediate or final normal form.
	MaxConjuncts = 4096
	// MaxDecisionPairs bounds the pair intersections of one decision.
	MaxDecisionPairs = 1 << 20
	// MaxStateDegree bounds the transitions out of one state for the
	// pairwise checks.
	MaxStateDegree = 64
	// MaxWorkflowPairs bounds the pair intersections of one workflow.
	MaxWorkflowPairs = 1 << 26
	// MaxDecisionWork and MaxWorkflowWork bound the atoms the pair
	// intersections of one decision, and of one workflow, walk through.
	// They are this project's own, beside the normative bounds of §4.6: a
	// pair costs as many steps as its conjuncts have atoms, and a guard of
	// a few kilobytes could otherwise make a million pairs of a thousand
	// atoms each, minutes of work, within every bound of §4.6.
	MaxDecisionWork = 1 << 24
	MaxWorkflowWork = 1 << 26
)

// Why a decision was abandoned.
var (
	errConjuncts     = errors.New("more than 4,096 conjuncts")
	errPairs         = errors.New("more than 1,048,576 pair intersections")
	errWorkflowPairs = errors.New("more than 67,108,864 pair intersections in the workflow")
	errWork          = errors.New("more than 16,777,216 atom comparisons")
	errWorkflowWork  = errors.New("more than 67,108,864 atom comparisons in the workflow")
)

// atom is one membership literal `path ∈ set`, the set already narrowed to
// the path's domain.
type atom struct {
	path int32
	set  VSet
}

// conj is a conjunction of atoms, at most one per path, sorted by path.
// The empty conj is ⊤.
type conj []atom

// dnf is a disjunction of conjunctions: nil is ⊥, {{}} is ⊤.
type dnf []conj

var (
	dnfTrue  = dnf{conj{}}
	dnfFalse = dnf(nil)
)

// budget counts the pair intersections of one decision and of the whole
// workflow, and remembers the first bound it met.
type budget struct {
	pairs    int64
	workflow *int64
	work     int64
	wfWork   *int64
	err      error
}

// newBudget starts a decision drawing on the workflow's counts.
func newBudget(workflow, wfWork *int64) *budget {
	return &budget{workflow: workflow, wfWork: wfWork}
}

// spend counts the atoms one pair intersection walks through, and reports
// whether the work bounds still hold.
func (b *budget) spend(n int) bool {
	b.work += int64(n)
	*b.wfWork += int64(n)
	switch {
	case *b.wfWork > MaxWorkflowWork:
		b.err = errWorkflowWork
	case b.work > MaxDecisionWork:
		b.err = errWork
	}
	return b.err == nil
}

// pair counts one pair intersection, and reports whether the pair bounds
// still hold.
func (b *budget) pair() bool {
	b.pairs++
	*b.workflow++
	switch {
	case *b.workflow > MaxWorkflowPairs:
		b.err = errWorkflowPairs
	case b.pairs > MaxDecisionPairs:
		b.err = errPairs
	}
	return b.err == nil
}

// or returns a ∨ b: the operands' conjuncts, left first.
func (b *budget) or(x, y dnf) dnf {
	if b.err != nil {
		return nil
	}
	if len(x)+len(y) > MaxConjuncts {
		b.err = errConjuncts
		return nil
	}
	out := make(dnf, 0, len(x)+len(y))
	return append(append(out, x...), y...)
}

// and returns x ∧ y: every pair (x's conjunct outer), intersected, a
// conjunct dropped as soon as one path's set is empty on its domain.
func (b *budget) and(x, y dnf) dnf {
	if b.err != nil {
		return nil
	}
	switch {
	case len(x) == 1 && len(x[0]) == 0:
		return y
	case len(y) == 1 && len(y[0]) == 0:
		return x
	}
	var out dnf
	for _, cx := range x {
		for _, cy := range y {
			if !b.pair() {
				return nil
			}
			c, ok := b.meet(cx, cy)
			if b.err != nil {
				return nil
			}
			if ok {
				if len(out) == MaxConjuncts {
					b.err = errConjuncts
					return nil
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// meet is meet counted against the work bounds: the smaller conjunct's
// atoms are looked up in the larger first (a contradiction costs no copy),
// and only a pair that survives pays for its merge.
func (b *budget) meet(x, y conj) (conj, bool) {
	small, large := x, y
	if len(small) > len(large) {
		small, large = large, small
	}
	// Each lookup is a binary search: as many comparisons as the larger
	// conjunct's length has bits.
	cost := len(small) * (1 + bits.Len(uint(len(large))))
	for _, at := range small {
		s, ok := large.lookup(at.path)
		if !ok {
			continue
		}
		cost += at.set.size() + s.size()
		if !at.set.Overlaps(s) {
			return nil, b.spend(cost) && false
		}
	}
	if !b.spend(cost + len(x) + len(y)) {
		return nil, false
	}
	return meet(x, y)
}

// meet intersects two conjuncts path by path; ok is false when a path's
// set becomes empty.
func meet(x, y conj) (conj, bool) {
	out := make(conj, 0, len(x)+len(y))
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i].path < y[j].path:
			out = append(out, x[i])
			i++
		case x[i].path > y[j].path:
			out = append(out, y[j])
			j++
		default:
			s := x[i].set.Intersect(y[j].set)
			if s.Empty() {
				return nil, false
			}
			out = append(out, atom{path: x[i].path, set: s})
			i++
			j++
		}
	}
	out = append(out, x[i:]...)
	return append(out, y[j:]...), true
}

// andAll conjoins the formulas left to right.
func (b *budget) andAll(fs ...dnf) dnf {
	out := dnfTrue
	for _, f := range fs {
		out = b.and(out, f)
	}
	return out
}

// orAll disjoins the formulas left to right: their conjuncts in order,
// copied once (a prefix over the bound is over it at the end too).
func (b *budget) orAll(fs ...dnf) dnf {
	if b.err != nil {
		return nil
	}
	n := 0
	for _, f := range fs {
		n += len(f)
	}
	if n > MaxConjuncts {
		b.err = errConjuncts
		return nil
	}
	if !b.spend(n) {
		return nil
	}
	out := make(dnf, 0, n)
	for _, f := range fs {
		out = append(out, f...)
	}
	return out
}

// one returns the formula `path ∈ set`, ⊥ when the set is empty.
func one(path int32, set VSet) dnf {
	if set.Empty() {
		return dnfFalse
	}
	return dnf{conj{{path: path, set: set}}}
}

// lookup returns the set of path in c, and whether c constrains it.
func (c conj) lookup(path int32) (VSet, bool) {
	i, found := slices.BinarySearchFunc(c, path, func(a atom, p int32) int { return int(a.path - p) })
	if !found {
		return VSet{}, false
	}
	return c[i].set, true
}

// andCtx returns d ∧ c for a context c of one conjunct (§3.6), counted as
// and counts it. A conjunct of d with no atom on a context path is kept as
// it is: meeting it with c could empty nothing, and the context's values
// follow from entering the state wherever they are read.
func (a *analyzer) andCtx(d, c dnf) dnf {
	b := a.b
	if b.err != nil {
		return nil
	}
	if len(c) != 1 {
		return b.and(d, c)
	}
	ctx := c[0]
	out := make(dnf, 0, len(d))
	for _, cd := range d {
		if !b.pair() {
			return nil
		}
		touches := false
		for _, at := range ctx {
			if _, ok := cd.lookup(at.path); ok {
				touches = true
				break
			}
		}
		if !touches {
			out = append(out, cd)
			continue
		}
		m, ok := b.meet(cd, ctx)
		if b.err != nil {
			return nil
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}
