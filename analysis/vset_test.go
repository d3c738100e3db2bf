package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aepflow/aepflow/predicate"
)

// vsetSamples are the values membership is checked on: every literal the
// random sets are built from, and values between and beyond them.
var vsetSamples = []predicate.Value{
	predicate.Number(-2), predicate.Number(-1), predicate.Number(-0.5), predicate.Number(0), predicate.Number(0.5),
	predicate.Number(1), predicate.Number(1.5), predicate.Number(2), predicate.Number(3),
	predicate.Text(""), predicate.Text("a"), predicate.Text("b"), predicate.Text("z"),
	predicate.Bool(true), predicate.Bool(false),
}

func randomSet(r *rand.Rand) VSet {
	var s VSet
	for range 1 + r.IntN(3) {
		var part VSet
		switch r.IntN(5) {
		case 0:
			part = single(vsetSamples[r.IntN(len(vsetSamples))])
		case 1:
			lo, hi := float64(r.IntN(5)-2), float64(r.IntN(5)-2)
			if r.IntN(3) == 0 {
				lo = math.Inf(-1)
			}
			if r.IntN(3) == 0 {
				hi = math.Inf(1)
			}
			part = numRange(lo, hi, r.IntN(2) == 0, r.IntN(2) == 0)
		case 2:
			part = enum("a", "b").Complement().Intersect(setText)
		case 3:
			part = setBot
		default:
			part = setBool
		}
		s = s.Union(part)
	}
	if r.IntN(2) == 0 {
		s = s.Complement()
	}
	return s
}

func has(s VSet, v *predicate.Value) bool {
	if v == nil {
		return s.HasBot()
	}
	return s.Contains(*v)
}

// TestVSetAlgebra checks intersection, union and complement member by
// member on random sets.
func TestVSetAlgebra(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		x, y := randomSet(r), randomSet(r)
		i, u, c := x.Intersect(y), x.Union(y), x.Complement()
		if x.Overlaps(y) == i.Empty() {
			t.Fatalf("x = %s, y = %s: Overlaps %v but the intersection is %s", x, y, x.Overlaps(y), i)
		}
		vals := []*predicate.Value{nil}
		for k := range vsetSamples {
			vals = append(vals, &vsetSamples[k])
		}
		empty := true
		for _, v := range vals {
			hx, hy := has(x, v), has(y, v)
			if has(i, v) != (hx && hy) || has(u, v) != (hx || hy) || has(c, v) == hx {
				t.Fatalf("x = %s, y = %s, value %v: ∩ %v ∪ %v ∁ %v", x, y, v, has(i, v), has(u, v), has(c, v))
			}
			empty = empty && !hx
		}
		if x.Empty() && !empty {
			t.Fatalf("%s is empty but holds a sample", x)
		}
	}
}

// TestIntegerDomains checks emptiness relative to an integer domain
// (§4.1): (1, 2) holds no count, [0, 0] holds one, and a domain that
// unites counts with reals keeps no integrality.
func TestIntegerDomains(t *testing.T) {
	if !domN0.restrict(numRange(1, 2, true, true)).Empty() {
		t.Error("(1, 2) is not empty over N₀")
	}
	if domN0.restrict(single(predicate.Number(0))).Empty() {
		t.Error("{0} is empty over N₀")
	}
	if !domN1.restrict(single(predicate.Number(0))).Empty() {
		t.Error("{0} is not empty over N₁")
	}
	if d := domN0.union(domR); d.Int || d.restrict(numRange(1, 2, true, true)).Empty() {
		t.Error("N₀ ∪ ℝ kept integrality")
	}
	if d := domN1.union(domB); !d.Int || !d.restrict(numRange(1, 2, true, true)).Empty() {
		t.Error("N₁ ∪ B lost integrality")
	}
}
