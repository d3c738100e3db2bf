package yamldoc

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	yaml "go.yaml.in/yaml/v3"
)

func parseLines(t *testing.T, src string) []string {
	t.Helper()
	_, diags := Parse("f.yaml", []byte(src))
	var out []string
	for _, d := range diags.Sorted() {
		out = append(out, d.Error())
	}
	return out
}

func TestParseRefusesWhatYAMLAccepts(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"clean", "a: 1\nb: [x, y]\n", nil},
		{"duplicate key", "a: 1\nb: 2\na: 3\n", []string{"f.yaml:3:1: the key `a` is given twice in one mapping (first on line 1) [duplicate_key]"}},
		{"anchor and alias", "x: &a 1\ny: *a\n", []string{
			"f.yaml:1:4: an anchor (`&a`) is not allowed in AEP documents [yaml_alias]",
			"f.yaml:2:4: an alias (`*a`) is not allowed in AEP documents [yaml_alias]"}},
		{"merge key", "<<: {c: 1}\n", []string{"f.yaml:1:1: a merge key (`<<`) is not allowed in AEP documents [yaml_alias]"}},
		{"non-string keys", "1: a\ntrue: b\n", []string{
			"f.yaml:1:1: mapping keys must be strings, found an integer `1` [non_string_key]",
			"f.yaml:2:1: mapping keys must be strings, found a boolean `true` [non_string_key]"}},
		{"quoted keys are strings", "\"1\": a\n'true': b\n", nil},
		{"syntax", "a: b: c\n", []string{"f.yaml:1:1: the file is not valid YAML or JSON: mapping values are not allowed in this context [yaml_syntax]"}},
		{"second document", "a: 1\n---\nb: 2\n", []string{"f.yaml:2:1: the file is not valid YAML or JSON: a file holds one document, found a second one [yaml_syntax]"}},
		// Text after the end of the document was blamed on column 1, and
		// on the line before when it stood on a later line (yaml.v3's
		// parser prints a 0-based line): it stands at its first byte.
		{"trailing text", "{\"a\": 1}  x\n", []string{"f.yaml:1:11: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"trailing bracket on the next line", "{\"a\": 1,\n \"b\": [2]}\n   }\n", []string{"f.yaml:3:4: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"a second JSON value", "{\"a\": 1}\n{\"b\": 2}\n", []string{"f.yaml:2:1: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"trailing text after a comment", "[\"#]\", '}'] # ]\n\n  ]\n", []string{"f.yaml:3:3: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"trailing text after a quoted root", "\"s\\\"\" x\n", []string{"f.yaml:1:7: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"trailing text in code points", "{\"é\": \"ü\"} x\n", []string{"f.yaml:1:12: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"trailing text after a BOM and CRLF", "\ufeff{\"a\": 1}\r\n\r\n x\r\n", []string{"f.yaml:3:2: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		{"a line indented less than the root", "  a: 1\n  b: 2\nc: 3\n", []string{"f.yaml:3:1: the file is not valid YAML or JSON: text follows the end of the document [yaml_syntax]"}},
		// The line of any other parser error was one before the context
		// yaml.v3 names (the flow sequence opened on line 2).
		{"unclosed flow sequence", "a: 1\nb: [1, 2\nc: 3\n", []string{"f.yaml:2:1: the file is not valid YAML or JSON: did not find expected ',' or ']' [yaml_syntax]"}},
		// yaml.v3 names no line for a byte that is not UTF-8; it was
		// blamed on 1:1, wherever it stood.
		{"invalid UTF-8", "a: 1\nb: {c: \"\xff\"}\n", []string{"f.yaml:2:9: the file is not valid YAML or JSON: invalid leading UTF-8 octet [yaml_syntax]"}},
		{"truncated UTF-8 after CRLF", "a: 1\r\nb: \"é\xc3\"\n", []string{"f.yaml:2:6: the file is not valid YAML or JSON: invalid trailing UTF-8 octet [yaml_syntax]"}},
		// engine.md reads AEP documents by YAML 1.2's core schema; a
		// number yaml.v3 reads otherwise (YAML 1.1's octal, `_`, binary)
		// was taken in yaml.v3's reading without a word.
		{"numbers YAML 1.1 and 1.2 read alike", "a: [0, -3, +3, 10, 0x1F, 0o17, 1.5, .5, 1e3, -.inf, .nan, 01.5, '010', \"3_0\"]\n", nil},
		{"numbers YAML 1.1 and 1.2 read otherwise", "a: 010\nb: [08, 3_0, 0b11, -0x10, 0X10, !!int '07']\n", []string{
			"f.yaml:1:4: `010` starts with a 0, which YAML 1.1 reads as octal and YAML 1.2 as decimal [invalid_value]",
			"f.yaml:2:5: `08` starts with a 0, which YAML 1.1 reads as octal and YAML 1.2 as decimal [invalid_value]",
			"f.yaml:2:9: `3_0` holds `_`, which YAML 1.1 skips in a number and YAML 1.2 reads as text [invalid_value]",
			"f.yaml:2:14: `0b11` is a number in YAML 1.1 and text in YAML 1.2 [invalid_value]",
			"f.yaml:2:20: `-0x10` is a number in YAML 1.1 and text in YAML 1.2 [invalid_value]",
			"f.yaml:2:27: `0X10` is a number in YAML 1.1 and text in YAML 1.2 [invalid_value]",
			"f.yaml:2:33: `07` starts with a 0, which YAML 1.1 reads as octal and YAML 1.2 as decimal [invalid_value]"}},
		// An explicit tag was read by each reader its own way: `!!bool yes`
		// as "must be a boolean, found a boolean", `!!bool 1` as true,
		// `!!null x` as null, `!!int two` as a YAML 1.1 number.
		{"tags the values read as", "a: [!!str 010, !!int '2', !!float 1, !!bool true, !!null ~, !!timestamp 2001-12-14, !<tag:yaml.org,2002:str> x]\nb: !!map {c: !!seq [d]}\n", nil},
		{"tags the values do not read as", "a: [!!bool yes, !!bool 1, !!int two, !!null x, !!float '1e', !!timestamp soon]\n", []string{
			"f.yaml:1:5: `yes` is tagged `!!bool` but is not a boolean (true or false) [invalid_value]",
			"f.yaml:1:17: `1` is tagged `!!bool` but is not a boolean (true or false) [invalid_value]",
			"f.yaml:1:27: `two` is tagged `!!int` but is not an integer [invalid_value]",
			"f.yaml:1:38: `x` is tagged `!!null` but is not null [invalid_value]",
			"f.yaml:1:48: `1e` is tagged `!!float` but is not a number [invalid_value]",
			"f.yaml:1:62: `soon` is tagged `!!timestamp` but is not a timestamp [invalid_value]"}},
		{"tags outside the core schema", "a: !custom x\nb: !!binary aGVsbG8=\nc: !!set {d: null}\ne: !!map [f]\n", []string{
			"f.yaml:1:4: the tag `!custom` is not one of YAML's core schema [invalid_value]",
			"f.yaml:2:4: the tag `!!binary` is not one of YAML's core schema [invalid_value]",
			"f.yaml:3:4: the tag `!!set` is not one of YAML's core schema [invalid_value]",
			"f.yaml:4:4: the tag `!!map` is not one of YAML's core schema [invalid_value]"}},
		{"json with tabs", "{\n\t\"a\": [1,\n\t2]\n}\n", nil},
		{"json duplicate", "{\"a\": 1, \"a\": 2}", []string{"f.yaml:1:10: the key `a` is given twice in one mapping (first on line 1) [duplicate_key]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseLines(t, tt.src)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestParseBounds(t *testing.T) {
	big := make([]byte, MaxFileSize+1)
	doc, diags := Parse("big.yaml", big)
	if doc != nil || len(diags) != 1 || diags[0].Code != CodeTooLarge {
		t.Fatalf("oversized file: got %v", diags)
	}
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	doc, diags = Parse("deep.yaml", []byte(deep))
	if doc != nil || len(diags) != 1 || diags[0].Code != CodeTooLarge || !strings.Contains(diags[0].Message, "nests deeper") {
		t.Fatalf("deep file: got %v", diags)
	}
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, diags := Parse("ok.yaml", []byte(ok)); len(diags) != 0 {
		t.Fatalf("nesting at the limit refused: %v", diags)
	}
}

func TestParseEmpty(t *testing.T) {
	doc, diags := Parse("e.yaml", []byte("# only a comment\n"))
	if len(diags) != 0 || doc == nil || doc.Root != nil {
		t.Fatalf("empty document: doc=%v diags=%v", doc, diags)
	}
}

func TestMapReader(t *testing.T) {
	src := "id: x\nwhen: 2024-01-01\ncount: 3\nflag: yes\nrequires: a\nrequire: b\nextra: 1\nlist: [a, 2]\n"
	doc, diags := Parse("m.yaml", []byte(src))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	r := NewReader(doc, &diags)
	m := r.Map(doc.Root, "doc", false)
	if s, ok := r.String(m.Require("id"), "doc.id"); !ok || s != "x" {
		t.Errorf("id = %q, %v", s, ok)
	}
	if s, ok := r.String(m.Get("when"), "doc.when"); !ok || s != "2024-01-01" {
		t.Errorf("an unquoted timestamp must read as its text, got %q, %v", s, ok)
	}
	if n, ok := r.Uint32(m.Get("count"), "doc.count", 1); !ok || n != 3 {
		t.Errorf("count = %d, %v", n, ok)
	}
	r.Bool(m.Get("flag"), "doc.flag") // YAML 1.2: `yes` is a string
	m.GetAlias("requires", "require")
	r.Strings(m.Get("list"), "doc.list", false)
	m.Require("title")
	m.Done()
	got := strings.Join(diagLines(diags.Sorted()), "\n")
	want := strings.Join([]string{
		"m.yaml:1:1: the required key `title` is missing [missing_field]",
		"m.yaml:4:7: `flag` must be a boolean, found a string [wrong_type]",
		"m.yaml:6:1: `requires` and its alias `require` are both given [conflicting_alias]",
		"m.yaml:7:1: unknown key `extra` [unknown_field]",
		"m.yaml:8:11: `list[1]` must be a string, found an integer [wrong_type]",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, d := range diags {
		if d.Code == CodeUnknownField && d.Hint != "allowed keys: count, flag, id, list, require, requires, title, when" {
			t.Errorf("unknown_field hint = %q", d.Hint)
		}
	}
}

// TestMapLarge reads mappings past the size where a Map stops scanning and
// indexes: a mapping of 40 keys (one duplicated), 30 of them allowed one by
// one, as payload decoders do. Lookups, the first of duplicated keys and
// the unknown keys with their sorted hint must not depend on the size.
func TestMapLarge(t *testing.T) {
	var src strings.Builder
	for i := range 40 {
		fmt.Fprintf(&src, "k%02d: %d\n", i, i)
	}
	doc, diags := Parse("big.yaml", []byte(src.String()))
	if len(diags) != 0 {
		t.Fatal(diags)
	}
	r := NewReader(doc, &diags)
	m := r.Map(doc.Root, "doc", false)
	for i := range 30 {
		m.Allow(fmt.Sprintf("k%02d", i))
	}
	m.Allow("k05", "absent") // again, and one the mapping lacks
	if v := m.Get("k35"); v == nil || v.Value != "35" {
		t.Fatalf("k35 = %v", v)
	}
	if m.Has("k99") || m.KeyNode("k39") == nil {
		t.Fatal("Has/KeyNode")
	}
	m.Done()
	var unknown []string
	var allowed []string
	for i := range 30 {
		allowed = append(allowed, fmt.Sprintf("k%02d", i))
	}
	allowed = append(allowed, "k35", "k99")
	slices.Sort(allowed)
	wantHint := "allowed keys: absent, " + strings.Join(allowed, ", ")
	for _, d := range diags {
		unknown = append(unknown, d.Path)
		if d.Code != CodeUnknownField || !strings.HasSuffix(d.Hint, wantHint) {
			t.Errorf("%s: %s, hint %q", d.Path, d.Code, d.Hint)
		}
	}
	want := []string{"doc.k30", "doc.k31", "doc.k32", "doc.k33", "doc.k34", "doc.k36", "doc.k37", "doc.k38", "doc.k39"}
	if !slices.Equal(unknown, want) {
		t.Errorf("unknown %v, want %v", unknown, want)
	}
}

func TestMapOverNonMapping(t *testing.T) {
	doc, diags := Parse("s.yaml", []byte("- a\n"))
	r := NewReader(doc, &diags)
	m := r.Map(doc.Root, "doc", false)
	if m.Get("id") != nil || m.Require("id") != nil {
		t.Fatal("a non-mapping must answer lookups with absent")
	}
	m.Done()
	if got := diags.Codes(); len(got) != 1 || got[0] != CodeWrongType {
		t.Fatalf("want one wrong_type, got %v", got)
	}
}

func diagLines(l diag.List) []string {
	out := make([]string, len(l))
	for i, d := range l {
		out[i] = d.Error()
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1\n", "x: &a 1\ny: *a\n", "{\"a\": [1, {\"b\": null}]}", "- [[[]]]\n", "a: |\n  text\n", "? [a]\n: b\n", "a: 1\r\nb: \"\xc3\"\n\u2028c: \xff\n",
		"{\"a\": 1}  x\n", "{\"a\": 1}\n{\"b\": 2}\n", "[\"#]\", '}'] # ]\n\n  ]\n", "\"s\\\"\" x", "  a: 1\nb: 2\n", "{a: 1}\u2028}", "\ufeff--- [1]\r]", "a: [010, 3_0, 0b1, -0x1, 0X1, 08, 1e3, 0o7]\n",
		"a.b: [1, [2, {c.d: [x]}]]\nc.d: {e.f: x}\ng.h:\n\"\": 1\n. : [.]\n",
		"a: [!!bool yes, !!int '2', !!null x, !custom y, !!str 010]\nb: !!set {c: null}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, diags := Parse("fuzz.yaml", data)
		// Lines as yaml.v3 breaks them (LS, PS and NEL too, found by
		// this fuzzer), by the byte-by-byte rule.
		lines := lineCountByRule(data)
		for _, d := range diags {
			if d.Pos.Line > lines {
				t.Fatalf("position %v beyond the input's %d lines: %v", d.Pos, lines, d)
			}
			if d.Pos.Line > 0 {
				start := lineStart(data, d.Pos.Line)
				end := start
				for end < len(data) && diag.LineBreak(data, end) == 0 {
					end++
				}
				if width := utf8.RuneCount(data[start:end]); d.Pos.Column > width+1 {
					t.Fatalf("position %v beyond the %d code points of its line: %v", d.Pos, width, d)
				}
			}
		}
		if doc != nil && doc.Root != nil {
			r := NewReader(doc, &diags)
			m := r.Map(doc.Root, "doc", true)
			m.Get("a")
			m.Done()
			// Name every value under its key (keys holding a dot are
			// named whole, NameOf).
			if doc.Root.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(doc.Root.Content); i += 2 {
					p := Key("doc", doc.Root.Content[i].Value)
					if name := r.NameOf(doc.Root.Content[i+1], p); name == "" || name == "``" {
						t.Fatalf("NameOf(%q) = %q", p, name)
					}
					r.Strings(doc.Root.Content[i+1], p, true)
				}
			}
		}
	})
}

// A value yaml.v3 places after the end of input ("--- " without a line
// break) is positioned on the last line (found by stepmap's FuzzLoadStepMap).
func TestPositionsStayInsideTheInput(t *testing.T) {
	for _, src := range []string{"---", "--- ", "# c\n---", "\r---"} {
		doc, diags := Parse("f.yaml", []byte(src))
		if doc == nil || doc.Root == nil {
			t.Fatalf("%q: no root: %v", src, diags)
		}
		if n := lineCount([]byte(src)); doc.Root.Line > n || doc.Root.Line < 1 {
			t.Errorf("%q: root on line %d of %d", src, doc.Root.Line, n)
		}
	}
}

// The parser counts NEL, LS and PS as line breaks; so must the clamp, or a
// node after one of them is moved onto a wrong line.
func TestUnicodeLineBreaksKeepPositions(t *testing.T) {
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		src := "a: \"x" + brk + "y\"\nz: 1\n"
		doc, diags := Parse("f.yaml", []byte(src))
		if doc == nil || diags.HasErrors() {
			t.Fatalf("%q: %v", src, diags)
		}
		if z := doc.Root.Content[2]; z.Line != 3 || z.Column != 1 {
			t.Errorf("%q: `z` at %d:%d, want 3:1", src, z.Line, z.Column)
		}
	}
}

// TestUnknownKeySuggests: the closest allowed key is the hint and, where
// the source holds the key verbatim, an exact edit; a key the mapping
// already holds is never suggested; a misspelt required key is one
// diagnostic, the cause.
func TestUnknownKeySuggests(t *testing.T) {
	for _, c := range []struct {
		name, src  string
		message    string
		hint       string
		start, end diag.Pos
		misspelt   string // the key Misspelt reports, "" for none
	}{
		{"plain", "titel: x\n", "unknown key `titel`, so the required key `title` is missing",
			"did you mean `title`? allowed keys: id, summary, title", diag.Pos{Line: 1, Column: 1}, diag.Pos{Line: 1, Column: 6}, "title"},
		{"json, quoted, after a multi-byte character", "{\"id\": \"é\", \"sumary\": 1, \"title\": \"t\"}", "unknown key `sumary`",
			"did you mean `summary`? allowed keys: id, summary, title", diag.Pos{Line: 1, Column: 14}, diag.Pos{Line: 1, Column: 20}, "summary"},
		{"escaped: no exact edit", "\"sumar\\u0079\": x\ntitle: t\n", "unknown key `sumary`",
			"did you mean `summary`? allowed keys: id, summary, title", diag.Pos{}, diag.Pos{}, "summary"},
		{"present keys are no suggestion", "titles: x\ntitle: t\n", "unknown key `titles`",
			"allowed keys: id, summary, title", diag.Pos{}, diag.Pos{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, diags := Parse("f.yaml", []byte(c.src))
			r := NewReader(doc, &diags)
			m := r.Map(doc.Root, "", false)
			m.Get("id")
			m.Get("summary")
			m.Require("title")
			m.Done()
			if len(diags) != 1 {
				t.Fatalf("got %v", diags)
			}
			for _, k := range []string{"id", "summary", "title"} {
				if m.Misspelt(k) != (k == c.misspelt) {
					t.Errorf("Misspelt(%q) = %v, want the key %q alone", k, m.Misspelt(k), c.misspelt)
				}
			}
			d := diags[0]
			if d.Message != c.message || d.Hint != c.hint {
				t.Errorf("got %q / %q", d.Message, d.Hint)
			}
			if !c.start.IsValid() {
				if len(d.Fixes) != 0 {
					t.Errorf("fixes %+v, want none", d.Fixes)
				}
				return
			}
			if len(d.Fixes) != 1 || d.Fixes[0].Span != (diag.Span{Start: c.start, End: c.end}) || d.Fixes[0].File != "f.yaml" {
				t.Errorf("fixes %+v", d.Fixes)
			}
		})
	}
}

// TestNoEmptyNames: a message names what it blames — the document, a key,
// or the empty key — never an empty pair of backticks; and a required key
// found missing is not blamed again as "found nothing".
func TestNoEmptyNames(t *testing.T) {
	doc, diags := Parse("f.yaml", []byte("\"\": 1\nlist: x\n"))
	r := NewReader(doc, &diags)
	r.Seq(doc.Root, "", false)
	m := r.Map(doc.Root, "", false)
	r.Seq(m.Get("list"), "list", false)
	r.String(m.Require("name"), "name")
	r.Seq(doc.Root.Content[1], "x.", false)
	m.Done()
	var got []string
	for _, d := range diags {
		got = append(got, d.Message)
	}
	want := []string{
		"the document must be a sequence, found a mapping",
		"`list` must be a sequence, found a string",
		"the required key `name` is missing",
		"the empty key must be a sequence, found an integer",
		"unknown key \"\" (an empty key)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNamesWholeDottedKey: a message names the whole key a value stands
// under, when the key holds a dot (a state `review.first`, a fact
// `diff.exists`): the path joins keys with `.` as the location of
// documents.md writes them (`states.<s>`), so its last segment named only
// `first`. An index is named with its key (`a.b[1]`); the path is kept.
func TestNamesWholeDottedKey(t *testing.T) {
	doc, diags := Parse("f.yaml", []byte("states:\n  review.first: 5\nfacts:\n  diff.exists: {a: 1}\n  x.y: [a, [b]]\n  big.count: -1\n"))
	r := NewReader(doc, &diags)
	top := r.Map(doc.Root, "workflow demo.w/1", false)
	states := top.Require("states")
	r.Map(states.Content[1], "workflow demo.w/1.states.review.first", false)
	facts := top.Require("facts")
	r.String(facts.Content[1], "facts.diff.exists")
	r.Strings(facts.Content[3], "facts.x.y", false)
	r.Uint32(facts.Content[5], "facts.big.count", 0)
	r.Bool(nil, "facts.not.there") // no value: named by the path's last segment
	top.Done()
	var got []string
	for _, d := range diags {
		got = append(got, d.Path+": "+d.Message)
	}
	want := []string{
		"workflow demo.w/1.states.review.first: `review.first` must be a mapping, found an integer",
		"facts.diff.exists: `diff.exists` must be a string, found a mapping",
		"facts.x.y[1]: `x.y[1]` must be a string, found a sequence",
		"facts.big.count: `big.count` must be an integer from 0 to 4294967295, found -1",
		"facts.not.there: `there` must be a boolean, found nothing",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLineCountFastPath: the count of a text without CR, NEL, LS or PS
// lead bytes (LF alone) is the byte-by-byte rule's, and so is the count of
// texts with each of them.
func TestLineCountFastPath(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\nb\n\nc", "\n\n", "é\nü\n", "日本\n語",
		"a\rb", "a\r\nb", "a\u0085b", "a\u2028b\u2029c", "\xc2", "\xe2\x80", "a\xc2\nb", "x\xe2\x80\xa8"} {
		if got, want := lineCount([]byte(src)), lineCountByRule([]byte(src)); got != want {
			t.Errorf("lineCount(%q) = %d, the rule counts %d", src, got, want)
		}
	}
}

// TestKeyOf: the path of a present value is Key's; an absent one has none.
func TestKeyOf(t *testing.T) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: "x"}
	if got := KeyOf(n, "states.a", "summary"); got != "states.a.summary" {
		t.Errorf("KeyOf(present) = %q", got)
	}
	if got := KeyOf(n, "", "summary"); got != "summary" {
		t.Errorf("KeyOf(present, top level) = %q", got)
	}
	if got := KeyOf(nil, "states.a", "summary"); got != "" {
		t.Errorf("KeyOf(absent) = %q, want none", got)
	}
	if got := Index("transitions", 12); got != "transitions[12]" {
		t.Errorf("Index = %q", got)
	}
}

// TestWrongTypedMapBlamesOnce: a value that should be a mapping and is not
// is reported once; the keys read from it are not blamed again as missing
// values ("`id` must be a string, found nothing").
func TestWrongTypedMapBlamesOnce(t *testing.T) {
	doc, diags := Parse("f.yaml", []byte("spec: [1]\n"))
	r := NewReader(doc, &diags)
	top := r.Map(doc.Root, "", false)
	spec := r.Map(top.Require("spec"), "spec", false)
	r.String(spec.Require("id"), "spec.id")
	r.Bool(spec.Require("on"), "spec.on")
	if len(diags) != 1 || diags[0].Message != "`spec` must be a mapping, found a sequence" {
		t.Errorf("diagnostics %v; want the one about `spec`", diags)
	}
}

// TestStringsJoinsPathsOnlyToReport: a list of strings decodes into one
// slice, with no item path joined; an item of the wrong type is reported at
// its own path.
func TestStringsJoinsPathsOnlyToReport(t *testing.T) {
	doc, diags := Parse("f.yaml", []byte("tags: [a, b, c, d, e, f, g, h]\nbad: [a, [b]]\n"))
	r := NewReader(doc, &diags)
	m := r.Map(doc.Root, "", false)
	tags := m.Require("tags")
	if n := testing.AllocsPerRun(20, func() { r.Strings(tags, "tags", false) }); n != 1 {
		t.Errorf("Strings over 8 strings: %v allocations, want 1 (the slice)", n)
	}
	if got := r.Strings(m.Require("bad"), "bad", false); len(got) != 1 || got[0] != "a" {
		t.Errorf("Strings(bad) = %q", got)
	}
	if len(diags) != 1 || diags[0].Path != "bad[1]" || diags[0].Message != "`bad[1]` must be a string, found a sequence" {
		t.Errorf("diagnostics %v; want one at bad[1]", diags)
	}
}

// TestMapCostsNoAllocation: reading a small mapping strictly — its keys
// looked up, the others allowed, the unknown ones judged — allocates
// nothing: a document holds one Map per mapping.
func TestMapCostsNoAllocation(t *testing.T) {
	doc, diags := Parse("f.yaml", []byte("id: a\nversion: 1\nsummary: s\ndescription: d\n"))
	r := NewReader(doc, &diags)
	read := func() {
		m := r.Map(doc.Root, "", false)
		m.Require("id")
		m.Get("version")
		m.Allow("summary", "description")
		m.Done()
	}
	if n := testing.AllocsPerRun(20, read); n != 0 {
		t.Errorf("reading a mapping of four keys: %v allocations, want 0", n)
	}
	if len(diags) != 0 {
		t.Errorf("diagnostics %v", diags)
	}
}

// TestBoundWalkCostsNoAllocation: the depth bound walks an ordinary
// document without allocating (every document the hook reads is walked).
func TestBoundWalkCostsNoAllocation(t *testing.T) {
	doc, _ := Parse("f.yaml", []byte("states:\n  a: {transitions: [{to: b, when: {all: [x, y]}}]}\n  b: {terminal: true}\n"))
	if n := testing.AllocsPerRun(20, func() { boundAndClamp(doc.Root, MaxDepth, -1) }); n != 0 {
		t.Errorf("walking a small document: %v allocations, want 0", n)
	}
}

// TestValueSpanOneLine: ValueSpan walked each value's line from its start,
// so a document written on one line (as a JSON encoder writes it) took
// time quadratic in its size to decode: a workflow of 20,000 transitions
// (1.3 MB) took 47 s to validate. It walks on from the previous span now:
// the test counts the characters walked over (no time is asserted), at
// most the document's size; and the spans are those a fresh reader
// finds, in any order.
func TestValueSpanOneLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"é":[`)
	const n = 5000
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"from":"s%d","to":ü%d}`, i, i)
	}
	b.WriteString(`]}`)
	doc, diags := Parse("one-line.json", []byte(b.String()))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var scalars []*yaml.Node
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			scalars = append(scalars, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc.Root)
	r := NewReader(doc, &diags)
	for _, s := range scalars {
		r.ValueSpan(s)
	}
	// In document order each character is walked over once at most (it
	// was walked once per value after it on its line).
	if r.stepped > b.Len() {
		t.Fatalf("the spans of %d values on one line of %d bytes walked over %d characters", len(scalars), b.Len(), r.stepped)
	}
	for _, k := range []int{5, 2, 7, len(scalars) - 1, 3, 3, 0, 1, len(scalars) / 2} {
		got, gotOK := r.ValueSpan(scalars[k])
		want, wantOK := NewReader(doc, &diags).ValueSpan(scalars[k])
		if got != want || gotOK != wantOK {
			t.Errorf("ValueSpan(%q) = %v %t, a fresh reader finds %v %t", scalars[k].Value, got, gotOK, want, wantOK)
		}
	}
}
