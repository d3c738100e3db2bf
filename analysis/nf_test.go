package analysis

import (
	"math/rand/v2"
	"testing"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// nfPaths are the paths generated predicates read, one of each kind of
// domain: a count, an enum, a bool, an always-observed count, a plan-only
// path and the context's state.
var nfPaths = []string{"tests.unit.failed", "test.result", "review.approved", "evidence.missing", "change.code", "state.current"}

// nfLiterals are the literals leaves compare against.
var nfLiterals = []predicate.Value{
	predicate.Number(0), predicate.Number(1), predicate.Number(-1), predicate.Number(2.5), predicate.Number(3),
	predicate.Text("passed"), predicate.Text("failed"), predicate.Text("0"), predicate.Text(""), predicate.Text("a"),
	predicate.Bool(true), predicate.Bool(false),
}

// genPred builds a predicate of at most depth levels from r. Its only
// relational leaves are text orderings (there are no scales), which are
// free by design (§4.4).
func genPred(r *rand.Rand, depth int) predicate.Predicate {
	if depth == 0 || r.IntN(3) == 0 {
		path := nfPaths[r.IntN(len(nfPaths))]
		switch r.IntN(5) {
		case 0:
			return predicate.Truthy{Path: path}
		case 1:
			return predicate.Defined{Path: path}
		case 2:
			vals := []predicate.Value{nfLiterals[r.IntN(len(nfLiterals))], nfLiterals[r.IntN(len(nfLiterals))]}
			return predicate.In{Path: path, Values: vals, Negated: r.IntN(2) == 0}
		}
		ops := []predicate.Op{predicate.Eq, predicate.Ne, predicate.Lt, predicate.Le, predicate.Gt, predicate.Ge}
		return predicate.Compare{Left: predicate.Fact(path), Op: ops[r.IntN(len(ops))], Right: predicate.Lit(nfLiterals[r.IntN(len(nfLiterals))])}
	}
	n := 2 + r.IntN(2)
	items := make([]predicate.Predicate, n)
	for i := range items {
		items[i] = genPred(r, depth-1)
	}
	switch r.IntN(3) {
	case 0:
		return predicate.All{Items: items}
	case 1:
		return predicate.Any{Items: items}
	}
	return predicate.Not{X: items[0]}
}

// sampleCache holds, per analyzer, each path's sample values that lie in
// its domain.
var sampleCache = map[*analyzer]map[string][]predicate.Value{}

// nfWorld draws a fact store within the paths' domains: each path either
// unobserved (where its domain allows) or bound to a sample of its domain.
func nfWorld(r *rand.Rand, a *analyzer) predicate.MapFacts {
	samples, ok := sampleCache[a]
	if !ok {
		samples = map[string][]predicate.Value{}
		sampleCache[a] = samples
		all := append([]predicate.Value{predicate.Number(4), predicate.Text("inconclusive"), predicate.Text("s")}, nfLiterals...)
		for _, p := range nfPaths {
			dom := a.paths[a.path(p)].dom
			in := []predicate.Value{}
			for _, v := range all {
				if !dom.restrict(single(v)).Empty() {
					in = append(in, v)
				}
			}
			samples[p] = in
		}
	}
	w := make(predicate.MapFacts, len(nfPaths)+3)
	for _, p := range nfPaths {
		in := samples[p]
		if a.paths[a.ids[p]].dom.Set.bot && (len(in) == 0 || r.IntN(4) == 0) {
			continue
		}
		w[p] = in[r.IntN(len(in))]
	}
	return w
}

// satisfies reports whether the world lies in some conjunct of d.
func satisfies(a *analyzer, d dnf, w predicate.MapFacts) bool {
	for _, c := range d {
		ok := true
		for _, at := range c {
			if a.paths[at.path].synthetic {
				continue // a free variable takes whatever value fits
			}
			v, observed := w[a.paths[at.path].name]
			if observed && !at.set.Contains(v) || !observed && !at.set.bot {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func nfAnalyzer() *analyzer {
	w := &workflow.Workflow{ID: "nf/w", Version: 1, Initial: "s", States: map[string]*workflow.State{"s": {ID: "s"}, "a": {ID: "a"}}}
	return newAnalyzer(&tree.Tree{Workflows: map[string]*workflow.Workflow{"nf/w": w}}, w, Options{Now: fixedNow})
}

// checkExact checks the four polarities of p against the engine's
// evaluator over sampled worlds: every world where p is True lies in T(p)
// (and likewise for F, T̄, F̄); without relational leaves the normal form is
// exact (§4.1), so no other world does.
func checkExact(t *testing.T, r *rand.Rand, p predicate.Predicate, worlds int) {
	a := nfAnalyzer()
	forms := map[polarity]dnf{}
	for _, pol := range []polarity{polT, polF, polNotT, polNotF} {
		d, err := a.decide(func() dnf { return a.pred(p, pol) })
		if err != nil {
			return // a bound: nothing is claimed
		}
		forms[pol] = d
	}
	exact := true
	for _, d := range forms {
		for _, c := range d {
			for _, at := range c {
				exact = exact && !a.paths[at.path].synthetic
			}
		}
	}
	for range worlds {
		w := nfWorld(r, a)
		truth := predicate.Eval(p, w, nil)
		want := map[polarity]bool{polT: truth == predicate.True, polF: truth == predicate.False, polNotT: truth != predicate.True, polNotF: truth != predicate.False}
		for pol, d := range forms {
			// Every world with that truth lies in the form (soundness);
			// without relational leaves no other world does (exactness).
			if got := satisfies(a, d, w); got != want[pol] && (want[pol] || exact) {
				t.Fatalf("%s under polarity %d: world %v is %s, but its normal form says %v", p, pol, w, truth, got)
			}
		}
	}
}

// TestNormalFormExact samples generated predicates and worlds.
func TestNormalFormExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		checkExact(t, r, genPred(r, 3), 50)
	}
}

// FuzzNormalForm generates a predicate from the fuzzer's seed and checks
// the four polarities against the evaluator.
func FuzzNormalForm(f *testing.F) {
	for _, s := range []uint64{0, 1, 7, 42, 1 << 40} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, seed uint64, depth uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(depth)))
		checkExact(t, r, genPred(r, int(depth%5)), 30)
	})
}
