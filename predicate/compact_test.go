package predicate

import (
	"errors"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// compactCases pairs compact strings with the display of what they parse to.
var compactCases = []struct {
	in, want string
}{
	// Rule 2: keywords, after trimming.
	{"always", "always"},
	{"true", "always"},
	{"  never ", "never"},
	{"false", "never"},
	// Rule 3: `not ` prefix, recursive, simplified.
	{"not always", "never"},
	{"not false", "always"},
	{"not x", "not (x)"},
	{"not not x", "x"},
	{"not not not x", "not (x)"},
	{"not  a == 1", "not (a == 1)"},
	{"not", "not"},         // no space: a fact path
	{"notable", "notable"}, // ditto
	{"not ", "not"},        // trimmed first, so no prefix is left
	{"a == ''x", "a == ''x"},
	{"not defined(p)", "not (defined(p))"},
	// Rule 4: defined / exists / missing.
	{"defined(a.b)", "defined(a.b)"},
	{"exists(a.b)", "defined(a.b)"},
	{"missing(a.b)", "not (defined(a.b))"},
	{"defined ( a.b )", "defined(a.b)"},
	{"defined\t(\ta\t)", "defined(a)"},
	// Rule 5: comparisons, first operator, two-character operators first.
	{"a == 1", "a == 1"},
	{"a==1", "a == 1"},
	{"a != 1", "a != 1"},
	{"a <= 1", "a <= 1"},
	{"a >= 1", "a >= 1"},
	{"a < 1", "a < 1"},
	{"a > 1", "a > 1"},
	{"a < =1", "a < =1"},
	{"a <== 1", "a <= = 1"},
	{"a >= b == c", "a >= b == c"},
	{"a == b == c", "a == b == c"},
	{"a == 'x == y'", "a == x == y"},
	{`a == "x < y"`, "a == x < y"},
	{"test.first_result == failed", "test.first_result == failed"},
	{"evidence.missing == 0", "evidence.missing == 0"},
	{"evidence.first_seq.test_result < evidence.first_seq.diff", "evidence.first_seq.test_result < evidence.first_seq.diff"},
	// Right-hand side: fact vs literal.
	{"a.b == c.d", "a.b == c.d"},
	{"a == c", "a == c"},
	{"a == 'c.d'", `a == "c.d"`},
	{`a == "c.d"`, `a == "c.d"`},
	{"a == 1.2.3", `a == "1.2.3"`},
	{"a == 1.5", "a == 1.5"},
	{"a == c..d", `a == "c..d"`},
	{"a == ''", `a == ""`},
	{`a == ""`, `a == ""`},
	{`a == 'it"s'`, `a == it"s`},
	{`a == "x.\"y"`, `a == "x.\\\"y"`},
	{"a == true", "a == true"},
	{"a == 'true'", "a == true"},
	{"a == -2.5", "a == -2.5"},
	{"a == .5", "a == 0.5"},
	{"a == 3.", "a == 3"},
	{"a == 1e3", "a == 1000"},
	{"a == 1E-2", "a == 0.01"},
	{"a == +7", "a == 7"},
	{"a == 1e300", "a == 1" + strings.Repeat("0", 300)},
	{"a == 9007199254740993", "a == 9007199254740992"},
	{"a == 0x10", "a == 0x10"},
	{"a == 1_000", "a == 1_000"},
	{"a == inf", "a == inf"},
	{"a == NaN", "a == NaN"},
	{"a == 1e999", "a == 1e999"},
	{"a == -0", "a == 0"},
	{"a == 'x", "a == 'x"},
	// Rule 6: a bare fact path is truthy.
	{"test.exists", "test.exists"},
	{"review.approved", "review.approved"},
	{"a-b_c.D-9", "a-b_c.D-9"},
}

func TestParseCompact(t *testing.T) {
	for _, c := range compactCases {
		p, err := ParseCompact(c.in)
		if err != nil {
			t.Errorf("ParseCompact(%q): %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("ParseCompact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseCompactVariants(t *testing.T) {
	cases := []struct {
		in   string
		want Predicate
	}{
		{"test.exists", Truthy{Path: "test.exists"}},
		{"a.b == c.d", Compare{Fact("a.b"), Eq, Fact("c.d")}},
		{"a == c", Compare{Fact("a"), Eq, Lit(Text("c"))}},
		{"a == '5'", Compare{Fact("a"), Eq, Lit(Text("5"))}},
		{"a == 5", Compare{Fact("a"), Eq, Lit(Number(5))}},
		{"a == false", Compare{Fact("a"), Eq, Lit(Bool(false))}},
		{"missing(x)", Not{X: Defined{Path: "x"}}},
		{"exists(x)", Defined{Path: "x"}},
	}
	for _, c := range cases {
		p, err := ParseCompact(c.in)
		if err != nil {
			t.Errorf("ParseCompact(%q): %v", c.in, err)
			continue
		}
		if !equalPred(p, c.want) {
			t.Errorf("ParseCompact(%q) = %#v, want %#v", c.in, p, c.want)
		}
	}
}

func TestParseCompactErrors(t *testing.T) {
	cases := []struct {
		in, code, msg string
	}{
		{"", CodeInvalid, "empty"},
		{"   ", CodeInvalid, "empty"},
		{"defined()", CodeInvalid, "`defined(…)` needs a fact path"},
		{"missing(a b)", CodeInvalid, "`missing(…)`"},
		{"exists(1x)", CodeInvalid, "fact path"},
		{"a ==", CodeInvalid, "right side of `==` is empty"},
		{"== 1", CodeInvalid, "left side of `==`"},
		{"1a == 1", CodeInvalid, "left side"},
		{"a b", CodeInvalid, "neither"},
		{"a.", CodeInvalid, "neither"},
		{".a", CodeInvalid, "neither"},
		{"a..b", CodeInvalid, "neither"},
		{"é", CodeInvalid, "neither"},
		{"(a and b)", CodeInvalid, "neither"},
		{"a = b", CodeInvalid, "neither"},
		{"'a' == 1", CodeInvalid, "left side"},
		{strings.Repeat("not ", 33) + "x", CodeTooDeep, "deeper than 32"},
	}
	for _, c := range cases {
		p, err := ParseCompact(c.in)
		if err == nil {
			t.Errorf("ParseCompact(%q) = %v, want error %s", c.in, p, c.code)
			continue
		}
		var d diag.Diagnostic
		if !errors.As(err, &d) || d.Code != c.code || !strings.Contains(d.Message, c.msg) {
			t.Errorf("ParseCompact(%q) error = %v, want code %s containing %q", c.in, err, c.code, c.msg)
		}
	}
}

func TestCompactDepthLimit(t *testing.T) {
	ok := strings.Repeat("not ", 32) + "x"
	if p, err := ParseCompact(ok); err != nil || p.String() != "x" {
		t.Errorf("32 nots: got %v, %v; want x", p, err)
	}
	if _, err := ParseCompact("not " + ok); err == nil {
		t.Errorf("33 nots accepted")
	}
}

func TestParseNumber(t *testing.T) {
	yes := map[string]float64{"1": 1, "-2.5": -2.5, ".5": .5, "3.": 3, "1e3": 1000, "+1E+2": 100, "0.0": 0, "1e-400": 0, "007": 7}
	for s, want := range yes {
		if got, ok := ParseNumber(s); !ok || got != want {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", ".", "-", "e3", "1e", "1e+", "0x10", "0x1p-2", "1_000", "inf", "-Inf", "infinity", "nan", "NaN", "1e999", " 1", "1 ", "1..2", "١"} {
		if got, ok := ParseNumber(s); ok {
			t.Errorf("ParseNumber(%q) = %v, want not a number", s, got)
		}
	}
}

func TestValidFactPath(t *testing.T) {
	for _, s := range []string{"a", "A", "a.b", "a-b_c.9", "a.-", "x.y.z", "a--", "test.exists"} {
		if !ValidFactPath(s) {
			t.Errorf("ValidFactPath(%q) = false", s)
		}
	}
	for _, s := range []string{"", "1a", "_a", "-a", "a.", ".a", "a..b", "a b", "é", "a.é", "a*", "a.*", "a/b"} {
		if ValidFactPath(s) {
			t.Errorf("ValidFactPath(%q) = true", s)
		}
	}
}
