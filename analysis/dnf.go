package analysis

import (
	"errors"
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
)

// Why a decision was abandoned.
var (
	errConjuncts     = errors.New("more than 4,096 conjuncts")
	errPairs         = errors.New("more than 1,048,576 pair intersections")
	errWorkflowPairs = errors.New("more than 67,108,864 pair intersections in the workflow")
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
	err      error
}

// newBudget starts a decision drawing on the workflow's count.
func newBudget(workflow *int64) *budget { return &budget{workflow: workflow} }

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
			b.pairs++
			*b.workflow++
			switch {
			case *b.workflow > MaxWorkflowPairs:
				b.err = errWorkflowPairs
				return nil
			case b.pairs > MaxDecisionPairs:
				b.err = errPairs
				return nil
			}
			if c, ok := meet(cx, cy); ok {
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

// orAll disjoins the formulas left to right.
func (b *budget) orAll(fs ...dnf) dnf {
	out := dnfFalse
	for _, f := range fs {
		out = b.or(out, f)
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
		b.pairs++
		*b.workflow++
		switch {
		case *b.workflow > MaxWorkflowPairs:
			b.err = errWorkflowPairs
			return nil
		case b.pairs > MaxDecisionPairs:
			b.err = errPairs
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
		if m, ok := meet(cd, ctx); ok {
			out = append(out, m)
		}
	}
	return out
}
