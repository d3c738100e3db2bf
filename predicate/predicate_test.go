package predicate

import (
	"math"
	"reflect"
	"testing"
)

func TestIsAlways(t *testing.T) {
	for src, want := range map[string]bool{
		"true": true, "always": true, "{all: []}": true, "[]": true, "all:": true,
		"not never": true, "[true, true]": false, "x": false, "false": false, "any: [true]": true,
	} {
		if got := IsAlways(mustParse(t, src)); got != want {
			t.Errorf("IsAlways(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestFactPaths(t *testing.T) {
	p := mustParse(t, "[z, a.b == c.d, {not: defined(m)}, {k: [1]}, a.b > 2, {any: [z, y]}, true]")
	want := []string{"a.b", "c.d", "k", "m", "y", "z"}
	if got := FactPaths(p); !reflect.DeepEqual(got, want) {
		t.Errorf("FactPaths = %q, want %q", got, want)
	}
	if got := FactPaths(Always{}); len(got) != 0 {
		t.Errorf("FactPaths(always) = %q", got)
	}
}

func TestConstructors(t *testing.T) {
	x, y := Truthy{"x"}, Truthy{"y"}
	cases := []struct {
		got  Predicate
		want string
	}{
		{NewAll(), "always"},
		{NewAll(x), "x"},
		{NewAll(x, Always{}), "(x and always)"},
		{NewAny(), "never"},
		{NewAny(y), "y"},
		{NewAny(x, y), "(x or y)"},
		{NewNot(Always{}), "never"},
		{NewNot(Never{}), "always"},
		{NewNot(NewNot(x)), "x"},
		{NewNot(NewAll(x, y)), "not ((x and y))"},
	}
	for i, c := range cases {
		if c.got.String() != c.want {
			t.Errorf("case %d = %q, want %q", i, c.got, c.want)
		}
	}
	// Constructors copy their arguments: later edits do not leak in.
	items := []Predicate{x, y}
	all := NewAll(items...)
	items[0] = Never{}
	if all.String() != "(x and y)" {
		t.Errorf("NewAll kept the caller's slice: %v", all)
	}
}

func TestValueDisplay(t *testing.T) {
	cases := []struct {
		v    Value
		want string
	}{
		{Number(0), "0"}, {Number(math.Copysign(0, -1)), "0"}, {Number(42), "42"}, {Number(-7), "-7"},
		{Number(0.1), "0.1"}, {Number(1e21), "1000000000000000000000"}, {Number(1 << 53), "9007199254740992"},
		{Number(1<<53 - 1), "9007199254740991"}, {Number(1e-7), "0.0000001"}, {Number(-2.5), "-2.5"},
		{Bool(true), "true"}, {Bool(false), "false"}, {Text("a b.c"), "a b.c"}, {Text(""), ""},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.want {
			t.Errorf("%#v displays %q, want %q", c.v, got, c.want)
		}
	}
}

func TestQuotedDisplay(t *testing.T) {
	cases := []struct {
		text, want string
	}{
		{"", `x == ""`},
		{"1.2.3", `x == "1.2.3"`},
		{`a\b.c`, `x == "a\\b.c"`},
		{`say "hi".`, `x == "say \"hi\"."`},
		{"tab\t.nl\n.nul\x00.bell\x07", `x == "tab\t.nl\n.nul\0.bell\u{7}"`},
		{"no dot", "x == no dot"},
		{`"q"`, `x == "q"`}, // text that looks quoted prints raw: the display is for people
	}
	for _, c := range cases {
		p := Compare{Fact("x"), Eq, Lit(Text(c.text))}
		if got := p.String(); got != c.want {
			t.Errorf("display of %q = %s, want %s", c.text, got, c.want)
		}
	}
	// Only the right side of a comparison is quoted; `in` values never are.
	if got := (In{Path: "x", Values: []Value{Text("a.b"), Text("")}, Negated: true}).String(); got != "x not in [a.b, ]" {
		t.Errorf("in display = %q", got)
	}
	if got := (Compare{Lit(Text("a.b")), Ne, Fact("y.z")}).String(); got != "a.b != y.z" {
		t.Errorf("literal left display = %q", got)
	}
}

func TestLiteral(t *testing.T) {
	cases := []struct {
		in   string
		want Value
	}{
		{"'x'", Text("x")}, {`"x"`, Text("x")}, {`'x"`, Text(`'x"`)}, {"'", Text("'")}, {`""`, Text("")},
		{`'\n'`, Text(`\n`)}, {"true", Bool(true)}, {"True", Text("True")}, {"'true'", Text("true")},
		{"5", Number(5)}, {"'5'", Text("5")}, {"-1e-2", Number(-0.01)}, {"0x1", Text("0x1")}, {" 5", Text(" 5")},
	}
	for _, c := range cases {
		if got := Literal(c.in); got != c.want {
			t.Errorf("Literal(%q) = %#v, want %#v", c.in, got, c.want)
		}
	}
}
