package predicate

import (
	"reflect"
	"testing"
)

var truths = []Truth{False, True, Unknown}

func TestKleeneTables(t *testing.T) {
	// Rows and columns in the order False, True, Unknown.
	and := [3][3]Truth{
		{False, False, False},
		{False, True, Unknown},
		{False, Unknown, Unknown},
	}
	or := [3][3]Truth{
		{False, True, Unknown},
		{True, True, True},
		{Unknown, True, Unknown},
	}
	not := [3]Truth{True, False, Unknown}
	for i, a := range truths {
		if got := a.Not(); got != not[i] {
			t.Errorf("not %v = %v, want %v", a, got, not[i])
		}
		for j, b := range truths {
			if got := a.And(b); got != and[i][j] {
				t.Errorf("%v and %v = %v, want %v", a, b, got, and[i][j])
			}
			if got := a.Or(b); got != or[i][j] {
				t.Errorf("%v or %v = %v, want %v", a, b, got, or[i][j])
			}
		}
	}
	if False.String() != "false" || True.String() != "true" || Unknown.String() != "unknown" {
		t.Errorf("Truth strings: %v %v %v", False, True, Unknown)
	}
}

// TestEvalConnectives checks All, Any and Not over leaves of each truth,
// including the empty-fold identities of hand-built nodes.
func TestEvalConnectives(t *testing.T) {
	facts := MapFacts{"t": Bool(true), "f": Bool(false)}
	leaf := map[Truth]Predicate{True: Truthy{"t"}, False: Truthy{"f"}, Unknown: Truthy{"u"}}
	for _, a := range truths {
		for _, b := range truths {
			all := All{Items: []Predicate{leaf[a], leaf[b]}}
			any := Any{Items: []Predicate{leaf[a], leaf[b]}}
			if got := Eval(all, facts, nil); got != a.And(b) {
				t.Errorf("Eval(%v) = %v, want %v", all, got, a.And(b))
			}
			if got := Eval(any, facts, nil); got != a.Or(b) {
				t.Errorf("Eval(%v) = %v, want %v", any, got, a.Or(b))
			}
		}
		if got := Eval(Not{X: leaf[a]}, facts, nil); got != a.Not() {
			t.Errorf("Eval(not %v) = %v", a, got)
		}
	}
	if Eval(All{}, nil, nil) != True || Eval(Any{}, nil, nil) != False {
		t.Errorf("empty folds: all %v any %v", Eval(All{}, nil, nil), Eval(Any{}, nil, nil))
	}
	if Eval(Always{}, nil, nil) != True || Eval(Never{}, nil, nil) != False {
		t.Errorf("always/never")
	}
	if Eval(nil, nil, nil) != Unknown {
		t.Errorf("nil predicate is not Unknown")
	}
}

var evalFacts = MapFacts{
	"yes": Bool(true), "no": Bool(false),
	"zero": Number(0), "one": Number(1), "two": Number(2), "half": Number(0.5), "negzero": Number(-0.0),
	"empty": Text(""), "falsetext": Text("false"), "word": Text("passed"), "onetext": Text("1"), "truetext": Text("true"),
	"risk": Text("medium"), "risk2": Text("high"), "odd": Text("banana"),
}

var evalScales = Scales{
	"risk":     {"low", "medium", "high", "critical"},
	"severity": {"info", "low", "medium", "high", "critical"},
	"health":   {"unhealthy", "degraded", "healthy"},
}

func TestEvalLeaves(t *testing.T) {
	cases := []struct {
		src  string
		want Truth
	}{
		// Truthiness.
		{"yes", True}, {"no", False}, {"zero", False}, {"one", True}, {"half", True}, {"negzero", False},
		{"empty", False}, {"falsetext", False}, {"word", True}, {"truetext", True},
		{"absent", Unknown}, {"not absent", Unknown},
		// defined is never Unknown.
		{"defined(yes)", True}, {"defined(no)", True}, {"defined(empty)", True}, {"defined(absent)", False},
		{"missing(absent)", True}, {"missing(zero)", False},
		// Equality is type-strict; across types plain inequality.
		{"one == 1", True}, {"one == 1.0", True}, {"one == '1'", False}, {"onetext == '1'", True}, {"onetext == 1", False},
		{"yes == true", True}, {"truetext == true", False}, {"truetext == 'true'", True}, {"yes == 1", False},
		{"one != '1'", True}, {"one != 1", False}, {"negzero == 0", True},
		{"word == passed", True}, {"word == failed", False}, {"word != failed", True},
		{"absent == 1", Unknown}, {"absent != 1", Unknown},
		// Fact on the right.
		{"one == onetext.x", Unknown}, {"two > one.x", Unknown},
		// Numbers compare numerically.
		{"one < two", Unknown}, // `two` is the text "two", not a fact {"one < 2", True}, {"one <= 1", True}, {"one > 0.5", True}, {"one >= 1e0", True}, {"half < 1", True},
		{"two > 10", False},
		// Texts order on scales.
		{"risk < high", True}, {"risk >= medium", True}, {"risk > critical", False}, {"risk2 > risk.x", Unknown},
		{"risk < banana", Unknown}, {"odd > low", Unknown}, {"word < word2", Unknown}, {"word <= passed", Unknown},
		// Other types never order.
		{"yes > no", Unknown}, {"one < '2'", Unknown}, {"onetext < 2", Unknown}, {"yes >= 1", Unknown},
		{"absent < 1", Unknown},
	}
	for _, c := range cases {
		p, err := ParseCompact(c.src)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if got := Eval(p, evalFacts, evalScales); got != c.want {
			t.Errorf("Eval(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestEvalFactOnRight(t *testing.T) {
	p := Compare{Fact("a"), Lt, Fact("b.c")}
	cases := []struct {
		facts MapFacts
		want  Truth
	}{
		{MapFacts{"a": Number(1), "b.c": Number(2)}, True},
		{MapFacts{"a": Number(3), "b.c": Number(2)}, False},
		{MapFacts{"a": Number(1)}, Unknown},
		{MapFacts{"b.c": Number(1)}, Unknown},
		{MapFacts{"a": Text("low"), "b.c": Text("high")}, True},
	}
	for _, c := range cases {
		if got := Eval(p, c.facts, evalScales); got != c.want {
			t.Errorf("Eval(%v, %v) = %v, want %v", p, c.facts, got, c.want)
		}
	}
}

func TestEvalIn(t *testing.T) {
	cases := []struct {
		src  string
		want Truth
	}{
		{"{word: [passed, failed]}", True},
		{"{word: [failed]}", False},
		{"{word: {none_of: [failed]}}", True},
		{"{word: {none_of: [passed]}}", False},
		{"{one: ['1', true]}", True}, // a string in the list is a literal: '1' is the number 1
		{"{one: ['\"1\"', true]}", False},
		{"{onetext: [1]}", False},
		{"{onetext: ['\"1\"']}", True},
		{"{one: [2, 1]}", True},
		{"{absent: [a]}", Unknown},
		{"{absent: {none_of: [a]}}", Unknown},
		{"{word: []}", False},
		{"{word: {not_in: []}}", True},
	}
	for _, c := range cases {
		p, ds := parseYAML(t, c.src)
		if ds.HasErrors() {
			t.Fatalf("%q: %v", c.src, ds)
		}
		if got := Eval(p, evalFacts, nil); got != c.want {
			t.Errorf("Eval(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestScalesOrder(t *testing.T) {
	s := Scales{"a": {"x", "y", "z"}, "b": {"y", "z"}, "c": {"z", "y"}}
	if sign, ok, _ := s.Order("x", "y"); !ok || sign != -1 {
		t.Errorf("x vs y: %d %v", sign, ok)
	}
	if sign, ok, _ := s.Order("x", "x"); !ok || sign != 0 {
		t.Errorf("x vs x: %d %v", sign, ok)
	}
	if _, ok, note := s.Order("y", "z"); ok || note != "scales `a` and `c` disagree on y and z" {
		t.Errorf("y vs z: %v %q", ok, note)
	}
	if _, ok, note := s.Order("x", "w"); ok || note != "no scale holds both x and w" {
		t.Errorf("x vs w: %v %q", ok, note)
	}
	if _, ok, _ := Scales(nil).Order("x", "x"); ok {
		t.Errorf("nil scales ordered")
	}
	// Two scales that agree are fine.
	agree := Scales{"a": {"x", "y"}, "b": {"w", "x", "q", "y"}}
	if sign, ok, _ := agree.Order("y", "x"); !ok || sign != 1 {
		t.Errorf("agreeing scales: %d %v", sign, ok)
	}
}

func TestExplain(t *testing.T) {
	cases := []struct {
		src    string
		facts  MapFacts
		truth  Truth
		causes []string // "expression — detail", with "not " marking a negated cause
	}{
		{"test.exists", nil, Unknown, []string{"test.exists — unobserved: test.exists"}},
		{"test.first_result == failed", MapFacts{"test.first_result": Text("passed")}, False,
			[]string{"test.first_result == failed — test.first_result = passed"}},
		{"evidence.first_seq.test_result < evidence.first_seq.diff", nil, Unknown,
			[]string{"evidence.first_seq.test_result < evidence.first_seq.diff — unobserved: evidence.first_seq.test_result, evidence.first_seq.diff"}},
		{"a < b.c", MapFacts{"b.c": Number(2)}, Unknown, []string{"a < b.c — b.c = 2; unobserved: a"}},
		{"a == 1", MapFacts{"a": Number(1)}, True, nil},
		// A conjunction names only its failing children.
		{"{all: [a, b, c]}", MapFacts{"a": Bool(true), "b": Bool(false)}, False,
			[]string{"b — b = false", "c — unobserved: c"}},
		// A disjunction names all of them (none is ok).
		{"{any: [a, b]}", MapFacts{"a": Bool(false)}, Unknown, []string{"a — a = false", "b — unobserved: b"}},
		{"{any: [a, b]}", MapFacts{"a": Bool(true)}, True, nil},
		// Negation flips what failing means; a negated leaf prints without `not`.
		{"not a", MapFacts{"a": Bool(true)}, False, []string{"not a — a = true"}},
		{"not a", MapFacts{"a": Bool(false)}, True, nil},
		{"{not: {any: [a, b]}}", MapFacts{"a": Bool(true), "b": Bool(false)}, False, []string{"not a — a = true"}},
		{"{not: {all: [a, b]}}", MapFacts{"a": Bool(true), "b": Bool(true)}, False, []string{"not a — a = true", "not b — b = true"}},
		{"{none: [a, b]}", MapFacts{"b": Bool(true)}, False, []string{"not a — unobserved: a", "not b — b = true"}},
		{"{none: [a, b]}", MapFacts{"a": Bool(false), "b": Bool(true)}, False, []string{"not b — b = true"}},
		// defined(p) false has no observed fact: only the missing path.
		{"defined(x)", nil, False, []string{"defined(x) — unobserved: x"}},
		{"missing(x)", MapFacts{"x": Text("")}, False, []string{"not defined(x) — x = "}},
		// never names itself; a never under negation does not.
		{"never", nil, False, []string{"never — the move is disabled"}},
		{"[a, never]", MapFacts{"a": Bool(true)}, False, []string{"never — the move is disabled"}},
		{"{not: {any: [a, never]}}", MapFacts{"a": Bool(true)}, False, []string{"not a — a = true"}},
		// Notes explain what the facts do not.
		{"r > high", MapFacts{"r": Text("banana")}, Unknown,
			[]string{"r > high — r = banana; cannot order with `>`: no scale holds both banana and high"}},
		{"r > 1", MapFacts{"r": Text("1")}, Unknown, []string{"r > 1 — r = 1; cannot order with `>`: a text and a number have no order"}},
		{"r > true", MapFacts{"r": Bool(true)}, Unknown, []string{"r > true — r = true; cannot order with `>`: bools have no order"}},
		{"{r: [a, b]}", MapFacts{"r": Text("c")}, False, []string{"r in [a, b] — r = c"}},
	}
	for _, c := range cases {
		p := mustParse(t, c.src)
		out := Explain(p, c.facts, evalScales)
		if out.Expression != p.String() || out.Truth != c.truth || out.Truth != Eval(p, c.facts, evalScales) {
			t.Errorf("Explain(%q) = %q %v, want %q %v", c.src, out.Expression, out.Truth, p.String(), c.truth)
		}
		var got []string
		for _, cause := range out.Causes {
			s := cause.Expression + " — " + cause.Detail()
			if cause.Negated {
				s = "not " + s
			}
			got = append(got, s)
		}
		if !reflect.DeepEqual(got, c.causes) {
			t.Errorf("Explain(%q) causes = %q, want %q", c.src, got, c.causes)
		}
	}
}

func TestCauseDetailEmpty(t *testing.T) {
	if got := (Cause{Truth: Unknown}).Detail(); got != "unknown" {
		t.Errorf("empty unknown detail = %q", got)
	}
	if got := (Cause{Truth: False}).Detail(); got != "false" {
		t.Errorf("empty false detail = %q", got)
	}
}

// mustParse parses YAML src (a compact string is valid YAML too).
func mustParse(t testing.TB, src string) Predicate {
	t.Helper()
	p, ds := parseYAML(t, src)
	if ds.HasErrors() {
		t.Fatalf("parse %q: %v", src, ds)
	}
	return p
}
