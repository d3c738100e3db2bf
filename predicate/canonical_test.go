package predicate

import (
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestCanonicalDisplay(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{all: [b, a]}", "(a and b)"},
		{"{any: [b, a, b]}", "(a or b)"},
		{"[c, [b, a]]", "(a and b and c)"},                       // flattened
		{"{all: [a, {any: [c, b]}]}", "((b or c) and a)"},        // nested kinds stay apart
		{"[true, x]", "x"},                                       // identity dropped, then all of one
		{"[false, x]", "never"},                                  // annihilator
		{"{any: [never, x]}", "x"},                               // identity of any
		{"{any: [always, x]}", "always"},                         // annihilator of any
		{"{not: {all: [b, a]}}", "not ((a and b))"},              // under a negation
		{"{not: {all: [x, true]}}", "not (x)"},                   // re-simplified inside not
		{"{not: {any: [false, {not: x}]}}", "x"},                 // not not x after dropping never
		{"{k: {any_of: [c, a, b, a]}}", "k in [a, b, c]"},        // in reads a set
		{"{k: {none_of: [2, 1]}}", "k not in [1, 2]"},            // numbers by value
		{"x > 1", "x > 1"},                                       // leaves untouched
		{"{all: [x == 5, x == '5']}", "(x == 5 and x == 5)"},     // text "5" vs number 5: two members
		{"{all: [{not: b}, {not: a}]}", "(not (a) and not (b))"}, // ordered by key
	}
	for _, c := range cases {
		p := mustParse(t, c.src)
		got := Canonical(p)
		if got.String() != c.want {
			t.Errorf("Canonical(%s) = %q, want %q", c.src, got, c.want)
		}
		checkSimplified(t, got)
		if again := Canonical(got); Key(again) != Key(got) {
			t.Errorf("Canonical is not idempotent on %s: %q then %q", c.src, got, again)
		}
	}
}

func TestEquivalent(t *testing.T) {
	cases := []struct {
		a, b string
		same bool
	}{
		{"{all: [a, b]}", "{all: [b, a]}", true},
		{"[a, b, c]", "{all: [c, {all: [b, a]}]}", true},
		{"{any: [x > 1, y]}", "{any: [y, x > 1]}", true},
		{"x == 5", "{x: 5}", true},
		{"x == 5", "{x: '5'}", true},  // a YAML string constraint reads as a literal: the number 5
		{"x == 5", "x == '5'", false}, // a quoted compact literal is text
		{"{k: [a, b]}", "{k: [b, a]}", true},
		{"a", "{all: [a, a]}", true},
		{"review.approved", "review.approved == true", false}, // truthiness is not equality
		{"not x < 1", "x >= 1", false},                        // no operator flipping
		{"{all: [a, b]}", "{any: [a, b]}", false},
		{"{all: [a, {any: [b, c]}]}", "{all: [{any: [c, b]}, a]}", true},
		{"{all: [a, {any: [b, c]}]}", "{all: [a, b, c]}", false},
		{"x == failed", "x == 'failed'", true},
		{"x == true", "x == 'true'", false},
		{"{k: {in: [1]}}", "{k: {in: [1, 1]}}", true},
		{"{k: {in: [1]}}", "{k: {not_in: [1]}}", false},
		{"always", "[]", true},
		{"never", "{any: []}", true},
	}
	for _, c := range cases {
		a, b := mustParse(t, c.a), mustParse(t, c.b)
		if got := Equivalent(a, b); got != c.same {
			t.Errorf("Equivalent(%s, %s) = %v, want %v (canonical %q, %q)", c.a, c.b, got, c.same, Canonical(a), Canonical(b))
		}
	}
}

func TestKeyTellsWhatDisplayHides(t *testing.T) {
	pairs := [][2]Predicate{
		{Compare{Fact("x"), Eq, Lit(Number(5))}, Compare{Fact("x"), Eq, Lit(Text("5"))}},
		{Compare{Fact("x"), Eq, Lit(Bool(true))}, Compare{Fact("x"), Eq, Lit(Text("true"))}},
		{Compare{Fact("x"), Eq, Fact("a.b")}, Compare{Fact("x"), Eq, Lit(Text("a.b"))}},
		{In{Path: "k", Values: []Value{Text("a, b")}}, In{Path: "k", Values: []Value{Text("a"), Text("b")}}},
		{Truthy{"a"}, Truthy{`a") truthy("b`}},
	}
	for _, p := range pairs {
		if Key(p[0]) == Key(p[1]) {
			t.Errorf("Key(%#v) = Key(%#v) = %s", p[0], p[1], Key(p[0]))
		}
	}
	if Key(Compare{Fact("x"), Eq, Lit(Number(0))}) != Key(Compare{Fact("x"), Eq, Lit(Number(negZero()))}) {
		t.Error("-0 and 0 have different keys")
	}
	if Key(nil) != "nil" {
		t.Errorf("Key(nil) = %q", Key(nil))
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestCanonicalKeepsMeaning evaluates predicates and their canonical forms
// over every assignment of a small value domain to their facts: the two
// must agree on every store, Unknown included.
func TestCanonicalKeepsMeaning(t *testing.T) {
	for _, src := range []string{
		"[a, {any: [b, never]}, true]",
		"{any: [{all: [a, b]}, {all: [b, a]}, c]}",
		"{not: {all: [a, {not: {any: [b, c]}}]}}",
		"{all: [a > 1, {any: [b == low, b < high]}, {k: [1, low]}]}",
		"{any: [{none: [a, b]}, {c: {exists: false}}, false]}",
	} {
		p := mustParse(t, src)
		q := Canonical(p)
		forEachStore(FactPaths(p), func(facts MapFacts) {
			if got, want := Eval(q, facts, evalScales), Eval(p, facts, evalScales); got != want {
				t.Fatalf("%s over %v: canonical %q is %v, the original %v", src, facts, q, got, want)
			}
		})
	}
}

// domain is the values a fact takes in forEachStore; the absent fact is
// the unobserved one.
var domain = []Value{Bool(true), Bool(false), Number(0), Number(2), Text("low"), Text("high"), Text("")}

// forEachStore calls f with every store that gives each path one value of
// domain or leaves it unobserved.
func forEachStore(paths []string, f func(MapFacts)) {
	choice := make([]int, len(paths))
	for {
		facts := MapFacts{}
		for i, c := range choice {
			if c < len(domain) {
				facts[paths[i]] = domain[c]
			}
		}
		f(facts)
		i := 0
		for ; i < len(choice); i++ {
			if choice[i]++; choice[i] <= len(domain) {
				break
			}
			choice[i] = 0
		}
		if i == len(choice) {
			return
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, c := range structuredCases {
		f.Add(c.src)
	}
	for _, s := range goldenSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{"[b, [a, [true, c]]]", "{any: [a, {any: [never, b]}]}", "{k: [3, 1, 3]}", "{not: {not: [x, x]}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			return
		}
		p, ds := Parse(&doc, "f.yaml", "when")
		if ds.HasErrors() {
			return
		}
		q := Canonical(p)
		checkSimplified(t, q)
		if Key(Canonical(q)) != Key(q) {
			t.Fatalf("Canonical is not idempotent on %q: %q", p, q)
		}
		if !Equivalent(p, reversed(p)) {
			t.Fatalf("%q and its members reversed %q are not equivalent", p, reversed(p))
		}
		if paths := FactPaths(p); len(paths) <= 3 {
			forEachStore(paths, func(facts MapFacts) {
				if got, want := Eval(q, facts, evalScales), Eval(p, facts, evalScales); got != want {
					t.Fatalf("%q over %v: canonical %q is %v, the original %v", p, facts, q, got, want)
				}
			})
		}
	})
}

// reversed returns p with the members of every all, any and in reversed.
func reversed(p Predicate) Predicate {
	switch p := p.(type) {
	case All:
		return All{Items: reversedItems(p.Items)}
	case Any:
		return Any{Items: reversedItems(p.Items)}
	case Not:
		return Not{X: reversed(p.X)}
	case In:
		vs := slices.Clone(p.Values)
		slices.Reverse(vs)
		return In{Path: p.Path, Values: vs, Negated: p.Negated}
	}
	return p
}

func reversedItems(items []Predicate) []Predicate {
	out := make([]Predicate, len(items))
	for i, it := range items {
		out[len(items)-1-i] = reversed(it)
	}
	return out
}
