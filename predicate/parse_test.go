package predicate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"go.yaml.in/yaml/v3"
)

func equalPred(a, b Predicate) bool { return reflect.DeepEqual(a, b) }

// parseYAML parses src as a YAML document and hands the document node to Parse.
func parseYAML(t testing.TB, src string) (Predicate, diag.List) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("yaml %q: %v", src, err)
	}
	return Parse(&doc, "f.yaml", "when")
}

var structuredCases = []struct {
	src, want string
}{
	// Scalars.
	{"true", "always"},
	{"false", "never"},
	{"True", "always"},
	{`"true"`, "always"},
	{"test.exists", "test.exists"},
	{"'a == 1'", "a == 1"},
	// Lists are conjunctions, simplified.
	{"[]", "always"},
	{"[a]", "a"},
	{"[a, b]", "(a and b)"},
	{"[a, [b, c]]", "(a and (b and c))"},
	{"[a, true]", "(a and always)"}, // no other rewriting
	// Mappings: every entry, keys in byte order.
	{"{}", "always"},
	{"{b: 1, a: 2}", "(a == 2 and b == 1)"},
	{"{B: 1, a: 2, _x: [c]}", ""}, // `_x` is not a path: see errors
	{"{b: 1, a: 2, B: 3}", "(B == 3 and a == 2 and b == 1)"},
	// all / and / all_of.
	{"all: [a, b]", "(a and b)"},
	{"and: [a, b]", "(a and b)"},
	{"all_of: [a, b]", "(a and b)"},
	{"all: a", "a"},
	{"all: []", "always"},
	{"all:", "always"},
	{"all: null", "always"},
	{"all: [a]", "a"},
	{"all: {x: 1}", "x == 1"},
	// any / or.
	{"any: [a, b]", "(a or b)"},
	{"or: [a, b]", "(a or b)"},
	{"any: a", "a"},
	{"any: []", "never"},
	{"any: [a]", "a"},
	// not.
	{"not: a", "not (a)"},
	{"not: [a, b]", "not ((a and b))"},
	{"not: {not: a}", "a"},
	{"not: true", "never"},
	{"not: []", "never"},
	{"not: {any: []}", "always"},
	{"not: 'not a'", "a"},
	// none / none_of_these.
	{"none: [a, b]", "not ((a or b))"},
	{"none_of_these: [a, b]", "not ((a or b))"},
	{"none: a", "not (a)"},
	{"none: []", "always"},
	// Fact constraints.
	{"x: true", "x == true"},
	{"x: 3", "x == 3"},
	{"x: 2.50", "x == 2.5"},
	{"x: -0.0", "x == 0"},
	{"x: failed", "x == failed"},
	{"x: '5'", "x == 5"},
	{`x: "'5'"`, "x == 5"},
	{"x: a.b", `x == "a.b"`}, // a plain string value is a literal, never a fact
	{"x: ''", `x == ""`},
	{"x: 'true'", "x == true"},
	{"x: [a, 1, true, 'b.c']", "x in [a, 1, true, b.c]"},
	{"x: []", "x in []"},
	{"task.kind: {any_of: [feature, bugfix]}", "task.kind in [feature, bugfix]"},
	{"task.kind: {none_of: [incident]}", "task.kind not in [incident]"},
	// Operators and aliases.
	{"x: {eq: 1}", "x == 1"},
	{"x: {equals: 1}", "x == 1"},
	{"x: {'==': 1}", "x == 1"},
	{"x: {ne: 1}", "x != 1"},
	{"x: {not_equals: 1}", "x != 1"},
	{"x: {'!=': 1}", "x != 1"},
	{"x: {lt: 1}", "x < 1"},
	{"x: {'<': 1}", "x < 1"},
	{"x: {le: 1}", "x <= 1"},
	{"x: {lte: 1}", "x <= 1"},
	{"x: {'<=': 1}", "x <= 1"},
	{"x: {gt: 1}", "x > 1"},
	{"x: {'>': 1}", "x > 1"},
	{"x: {ge: 1}", "x >= 1"},
	{"x: {gte: 1}", "x >= 1"},
	{"x: {'>=': 1}", "x >= 1"},
	{"x: {eq: a.b}", "x == a.b"}, // an operator's string operand follows the right-hand-side rules
	{"x: {eq: 'a.b'}", "x == a.b"},
	{`x: {eq: "'a.b'"}`, `x == "a.b"`},
	{"x: {eq: '1.5'}", "x == 1.5"},
	{"x: {eq: true}", "x == true"},
	{"x: {any_of: [a, b]}", "x in [a, b]"},
	{"x: {in: a}", "x in [a]"},
	{"x: {one_of: [1]}", "x in [1]"},
	{"x: {none_of: [a]}", "x not in [a]"},
	{"x: {not_in: a}", "x not in [a]"},
	{"x: {exists: true}", "defined(x)"},
	{"x: {defined: true}", "defined(x)"},
	{"x: {exists: false}", "not (defined(x))"},
	{"x: {truthy: anything}", "x"},
	{"x: {truthy: }", "x"},
	{"x: {}", "always"},
	{"x: {lt: 5, gt: 1}", "(x > 1 and x < 5)"},
	{"x: {'<': 5, '>': 1, ge: 2}", "(x < 5 and x > 1 and x >= 2)"},
	// Mixed nesting.
	{"{any: [a, {b: {gt: 2}}], c: x}", "((a or b > 2) and c == x)"},
	{"- all: [a, b]\n- any: [c, d]\n- not: e", "((a and b) and (c or d) and not (e))"},
}

func TestParseStructured(t *testing.T) {
	for _, c := range structuredCases {
		if c.want == "" {
			continue
		}
		p, ds := parseYAML(t, c.src)
		if len(ds) > 0 {
			t.Errorf("Parse(%q): %v", c.src, ds)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("Parse(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestParseStructuredVariants(t *testing.T) {
	cases := []struct {
		src  string
		want Predicate
	}{
		{"x: '5'", Compare{Fact("x"), Eq, Lit(Number(5))}},
		{"x: a.b", Compare{Fact("x"), Eq, Lit(Text("a.b"))}},
		{"x: {eq: a.b}", Compare{Fact("x"), Eq, Fact("a.b")}},
		{"x: {gt: '1.5'}", Compare{Fact("x"), Gt, Lit(Number(1.5))}},
		{"x: ['5', a]", In{Path: "x", Values: []Value{Number(5), Text("a")}}},
		{"x: {not_in: [true]}", In{Path: "x", Values: []Value{Bool(true)}, Negated: true}},
		{"x: {exists: false}", Not{X: Defined{Path: "x"}}},
		{"x: 1000000000000", Compare{Fact("x"), Eq, Lit(Number(1e12))}},
	}
	for _, c := range cases {
		p, ds := parseYAML(t, c.src)
		if len(ds) > 0 || !equalPred(p, c.want) {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", c.src, p, ds, c.want)
		}
	}
}

// TestParseErrors checks each refusal: the code, the blamed position, the
// document path and a part of the message.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		src  string
		want []string // "line:col path code message-part"
	}{
		{"null", []string{"1:1 when invalid_predicate cannot be null"}},
		{"~", []string{"1:1 when invalid_predicate cannot be null"}},
		{"3", []string{"1:1 when invalid_predicate cannot be a number"}},
		{"2.5", []string{"1:1 when invalid_predicate cannot be a number"}},
		{"''", []string{"1:1 when invalid_predicate empty"}},
		{"[a, null, 'b c']", []string{
			"1:5 when[1] invalid_predicate cannot be null",
			"1:11 when[2] invalid_predicate neither"}},
		{"any: [a, 7]", []string{"1:10 when.any[1] invalid_predicate cannot be a number"}},
		{"any:", []string{"1:5 when.any invalid_predicate cannot be null"}},
		{"not:", []string{"1:5 when.not invalid_predicate cannot be null"}},
		{"{B: 1, a: 2, _x: [c]}", []string{"1:14 when._x invalid_predicate `_x` is neither a predicate keyword"}},
		{"x:", []string{"1:3 when.x invalid_predicate cannot be null"}},
		{"x: [a, null]", []string{"1:8 when.x[1] invalid_predicate cannot be null"}},
		{"x: [a, [b]]", []string{"1:8 when.x[1] invalid_predicate expected a scalar"}},
		{"x: .inf", []string{"1:4 when.x invalid_predicate not a finite number"}},
		{"x: {eq: .nan}", []string{"1:9 when.x.eq invalid_predicate not a finite number"}},
		{"x: {eq: [1]}", []string{"1:9 when.x.eq invalid_predicate expected a scalar"}},
		{"x: {eq: null}", []string{"1:9 when.x.eq invalid_predicate cannot be null"}},
		{"x: {exists: yes}", []string{"1:13 when.x.exists invalid_predicate takes a bool"}},
		{"x: {exists: 'true'}", []string{"1:13 when.x.exists invalid_predicate takes a bool"}},
		{"x: {like: a}", []string{"1:5 when.x.like invalid_predicate unknown operator `like` on fact `x` (expected one of eq, ne, lt, lte, gt, gte, any_of, none_of, exists, truthy)"}},
		{"x: {lt: 1, zz: 2, aa: 3}", []string{
			"1:19 when.x.aa invalid_predicate unknown operator `aa`",
			"1:12 when.x.zz invalid_predicate unknown operator `zz`"}},
		{"[1, 2]: a", []string{"1:1 when invalid_predicate key must be a string"}},
		{"x: !!binary aGk=", nil},
		{"a: !!int abc", []string{"1:4 when.a invalid_predicate not a finite number"}},
		{"!!str 3", []string{"1:1 when invalid_predicate `3` is neither"}},
	}
	for _, c := range cases {
		_, ds := parseYAML(t, c.src)
		var got []string
		for _, d := range ds {
			got = append(got, d.Pos.String()+" "+d.Path+" "+d.Code+" "+d.Message)
		}
		if len(got) != len(c.want) {
			t.Errorf("Parse(%q) = %q, want %q", c.src, got, c.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], strings.SplitN(c.want[i], " ", 4)[0]) || !matchDiag(got[i], c.want[i]) {
				t.Errorf("Parse(%q)[%d] = %q, want %q", c.src, i, got[i], c.want[i])
			}
			if ds[i].File != "f.yaml" || ds[i].Severity != diag.Error {
				t.Errorf("Parse(%q)[%d]: file %q severity %v", c.src, i, ds[i].File, ds[i].Severity)
			}
		}
	}
}

// matchDiag compares "pos path code" exactly and the message by substring.
func matchDiag(got, want string) bool {
	g := strings.SplitN(got, " ", 4)
	w := strings.SplitN(want, " ", 4)
	if len(g) < 4 || len(w) < 4 {
		return false
	}
	return g[0] == w[0] && g[1] == w[1] && g[2] == w[2] && strings.Contains(g[3], w[3])
}

func TestParseOddNodes(t *testing.T) {
	if p, ds := Parse(nil, "f.yaml", "when"); p != nil || ds.Codes()[0] != CodeInvalid {
		t.Errorf("Parse(nil) = %v, %v", p, ds)
	}
	alias := &yaml.Node{Kind: yaml.AliasNode, Line: 2, Column: 3}
	if p, ds := Parse(alias, "f.yaml", "when"); p != nil || len(ds) != 1 || ds[0].Pos != (diag.Pos{Line: 2, Column: 3}) {
		t.Errorf("Parse(alias) = %v, %v", p, ds)
	}
	odd := []*yaml.Node{
		{Kind: yaml.DocumentNode},
		{Kind: yaml.DocumentNode, Content: []*yaml.Node{nil}},
		{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil}},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "a"}}},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{nil, nil}},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "x"}, {Kind: yaml.AliasNode}}},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "x"}, {Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "eq"}, {Kind: yaml.AliasNode}}}}},
		{Kind: yaml.Kind(99)},
		{Kind: 0},
	}
	for i, n := range odd {
		if p, ds := Parse(n, "f.yaml", "when"); p != nil || !ds.HasErrors() {
			t.Errorf("odd node %d: got %v, %v; want an error", i, p, ds)
		}
	}
	// An alias that the strict loader would refuse is refused here too,
	// even when it points at a valid predicate.
	_, ds := parseYAML(t, "a: &x b\nc: *x")
	if len(ds) != 1 || ds[0].Path != "when.c" {
		t.Errorf("alias value: %v", ds)
	}
}

// nest wraps leaf in n levels of the given structured wrapper.
func nest(n int, open, close, leaf string) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

func TestParseDepthLimit(t *testing.T) {
	cases := []struct {
		name, src string
		ok        bool
	}{
		{"list 32", nest(32, "[", "]", "x"), true},
		{"list 33", nest(33, "[", "]", "x"), false},
		{"not 32", nest(32, "{not: ", "}", "x"), true},
		{"not 33", nest(33, "{not: ", "}", "x"), false},
		{"any list 32", nest(32, "{any: [", "]}", "x"), true}, // a child of `any` is one level deeper
		{"any list 33", nest(33, "{any: [", "]}", "x"), false},
		{"all 32", nest(32, "{all: ", "}", "x"), true},
		{"all 33", nest(33, "{all: ", "}", "x"), false},
		{"all list 32", nest(32, "{all: [", "]}", "x"), true},
		{"all list 33", nest(33, "{all: [", "]}", "x"), false},
		{"none 33", nest(33, "{none: ", "}", "x"), false},
		{"shared 31+1", nest(31, "[", "]", "'not x'"), true},
		{"shared 31+2", nest(31, "[", "]", "'not not x'"), false},
		{"shared 32+0", nest(32, "{not: ", "}", "'a == 1'"), true},
		{"shared 30+2", nest(30, "{not: ", "}", "'not not x'"), true},
		{"fact at 32", nest(32, "[", "]", "{x: {gt: 1, lt: 3}}"), true},
		{"fact at 33", nest(33, "[", "]", "{x: {gt: 1, lt: 3}}"), false},
	}
	for _, c := range cases {
		p, ds := parseYAML(t, c.src)
		if c.ok && len(ds) > 0 {
			t.Errorf("%s: %v", c.name, ds)
		}
		if !c.ok {
			if p != nil || len(ds) != 1 || ds[0].Code != CodeTooDeep {
				t.Errorf("%s: got %v, %v; want one predicate_too_deep", c.name, p, ds)
			}
		}
	}
	// The message describes the refused node one level deep only.
	_, ds := parseYAML(t, nest(33, "[", "]", "[a, b]"))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "a list of 2 item(s)") || strings.Contains(ds[0].Message, "`a`") {
		t.Errorf("depth message: %v", ds)
	}
	_, ds = parseYAML(t, nest(32, "{not: ", "}", "{not: {any: [a]}, b: c}"))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "a mapping with keys `any`") {
		t.Errorf("depth message: %v", ds)
	}
}
