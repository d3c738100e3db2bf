package predicate

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/aepflow/aepflow/internal/testkit"
)

// checkSimplified fails when p breaks a simplification rule of §5.2 or
// holds something the parser never produces.
func checkSimplified(t *testing.T, p Predicate) {
	t.Helper()
	switch p := p.(type) {
	case All:
		if len(p.Items) < 2 {
			t.Fatalf("all with %d items: %v", len(p.Items), p)
		}
		for _, it := range p.Items {
			checkSimplified(t, it)
		}
	case Any:
		if len(p.Items) < 2 {
			t.Fatalf("any with %d items: %v", len(p.Items), p)
		}
		for _, it := range p.Items {
			checkSimplified(t, it)
		}
	case Not:
		switch p.X.(type) {
		case Always, Never, Not:
			t.Fatalf("unsimplified negation: %v", p)
		}
		checkSimplified(t, p.X)
	case Compare:
		if !p.Left.IsFact() {
			t.Fatalf("literal on the left: %v", p)
		}
		if v := p.Right.Value; !p.Right.IsFact() && v.Kind() == KindNumber && v.Number() != v.Number() {
			t.Fatalf("NaN literal: %v", p)
		}
	case Always, Never, Truthy, Defined, In:
	default:
		t.Fatalf("unexpected variant %T", p)
	}
	for _, path := range FactPaths(p) {
		if !ValidFactPath(path) {
			t.Fatalf("invalid fact path %q in %v", path, p)
		}
	}
}

// checkEval evaluates p over a few stores and checks Explain agrees with
// Eval and names causes exactly when the result is not True.
func checkEval(t *testing.T, p Predicate) {
	t.Helper()
	paths := FactPaths(p)
	stores := []MapFacts{{}, {}, {}}
	for i, path := range paths {
		stores[1][path] = []Value{Bool(true), Number(1), Text("low")}[i%3]
		stores[2][path] = []Value{Bool(false), Number(0), Text("high"), Text("")}[i%4]
	}
	for _, facts := range stores {
		truth := Eval(p, facts, evalScales)
		out := Explain(p, facts, evalScales)
		if out.Truth != truth || out.Expression != p.String() {
			t.Fatalf("Explain(%v) = %v %q, Eval = %v", p, out.Truth, out.Expression, truth)
		}
		if truth == True && len(out.Causes) > 0 {
			t.Fatalf("Explain(%v) is True with causes %v", p, out.Causes)
		}
		if truth != True && len(out.Causes) == 0 {
			t.Fatalf("Explain(%v) is %v without a cause", p, truth)
		}
	}
}

// displayReparses reports whether the display of p is guaranteed to parse
// back, as a compact string, to a predicate with the same display. Only
// keywords and leaves can (connectives and `in` have no compact form), a
// comparison on a fact named `not` never, and a text literal only when its
// display kept it as written: not padded, not wrapped in quotes, not
// spelling a bool or a number, and not escaped.
func displayReparses(p Predicate) bool {
	switch p := p.(type) {
	case Always, Never:
		return true
	case Truthy:
		switch p.Path {
		case "always", "true", "never", "false":
			return false
		}
		return true
	case Defined:
		return true
	case Compare:
		if p.Left.Path == "not" {
			return false // "not == 1" displays with a `not ` prefix
		}
		if p.Right.IsFact() || p.Right.Value.Kind() != KindText {
			return true
		}
		s := p.Right.Value.Text()
		if s != strings.TrimSpace(s) || isQuoted(s) {
			return false
		}
		if s == "" || strings.Contains(s, ".") {
			return quote(s) == `"`+s+`"`
		}
		return Literal(s) == Text(s)
	}
	return false
}

func checkReparse(t *testing.T, p Predicate) {
	t.Helper()
	if !displayReparses(p) {
		return
	}
	q, err := ParseCompact(p.String())
	if err != nil {
		t.Fatalf("display %q of %#v does not re-parse: %v", p.String(), p, err)
	}
	if q.String() != p.String() {
		t.Fatalf("display %q re-parses to %q", p.String(), q.String())
	}
}

func FuzzParseCompact(f *testing.F) {
	for _, c := range compactCases {
		f.Add(c.in)
	}
	for _, s := range []string{"", "not ", "defined(", "a == 'x", `a == "`, "a == \"x\\\".y\"", strings.Repeat("not ", 40) + "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseCompact(s)
		if err != nil {
			if p != nil {
				t.Fatalf("ParseCompact(%q) returned %v with error %v", s, p, err)
			}
			return
		}
		checkSimplified(t, p)
		checkEval(t, p)
		checkReparse(t, p)
	})
}

func FuzzParse(f *testing.F) {
	for _, c := range structuredCases {
		f.Add(c.src)
	}
	for _, c := range compactCases {
		f.Add(c.in)
	}
	for _, s := range goldenSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{"a: &x b\nc: *x", "[[[[[[x]]]]]]", "x: {eq: .nan}", "- !!str 3\n- !!binary aGk=", "? [a]\n: b", "--- a\n--- b"} {
		f.Add(s)
	}
	f.Add("\u0085[x, {y: 1}]") // NEL is a line break to YAML
	f.Fuzz(func(t *testing.T, src string) {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			return
		}
		p, ds := Parse(&doc, "f.yaml", "when")
		// An upper bound: YAML breaks lines at \n, \r, \r\n, NEL, LS
		// and PS, and places an empty document's null on the line after
		// its `---`.
		lines := testkit.LineBound([]byte(src)) + 1
		for _, d := range ds {
			if d.Code != CodeInvalid && d.Code != CodeTooDeep {
				t.Fatalf("unexpected code %q", d.Code)
			}
			if d.File != "f.yaml" || !strings.HasPrefix(d.Path, "when") || d.Pos.Line > lines {
				t.Fatalf("bad diagnostic %+v for %d line(s)", d, lines)
			}
		}
		if ds.HasErrors() != (p == nil) {
			t.Fatalf("predicate %v with diagnostics %v", p, ds)
		}
		if p == nil {
			return
		}
		checkSimplified(t, p)
		checkEval(t, p)
		// Parsing is deterministic.
		q, _ := Parse(&doc, "f.yaml", "when")
		if q.String() != p.String() {
			t.Fatalf("two parses differ: %q, %q", p, q)
		}
	})
}
