package flow

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

// fixtureOptions reads `# options: governed max-attempts=N` from a
// fixture's first line.
func fixtureOptions(data []byte) CheckOptions {
	var o CheckOptions
	first, _, _ := strings.Cut(string(data), "\n")
	rest, ok := strings.CutPrefix(first, "# options:")
	if !ok {
		return o
	}
	for _, f := range strings.Fields(rest) {
		if f == "governed" {
			o.Governed = true
		}
		if v, ok := strings.CutPrefix(f, "max-attempts="); ok {
			o.MaxAttempts, _ = strconv.Atoi(v)
		}
	}
	return o
}

// formatDiags prints one line per diagnostic: position, path, message, code.
func formatDiags(ds diag.List) string {
	var b strings.Builder
	for _, d := range ds {
		path := d.Path
		if path == "" {
			path = "-"
		}
		sev := ""
		if d.Severity == diag.Warning {
			sev = "warning: "
		}
		fmt.Fprintf(&b, "%d:%d %s: %s%s [%s]\n", d.Pos.Line, d.Pos.Column, path, sev, d.Message, d.Code)
	}
	return b.String()
}

// checkPattern matches the fixtures of testdata/check; each one's golden
// is the fixture's name with `.out` appended.
const checkPattern = "testdata/check/*"

// TestCheckFixtures runs every fixture under testdata/check and compares
// the diagnostics with the sibling `<file>.out`.
func TestCheckFixtures(t *testing.T) {
	f := testkit.Fixtures{
		Check: func(t *testing.T, file string, data []byte) diag.List {
			_, ds := CheckBytes(filepath.Base(file), data, fixtureOptions(data))
			for _, d := range ds {
				if d.File != filepath.Base(file) || (!d.Pos.IsValid() && d.Code != "flow_unreadable") {
					t.Errorf("diagnostic not positioned in the file: %v", d)
				}
			}
			return ds
		},
		Print: formatDiags,
		Out:   func(file string) string { return file + ".out" },
	}
	f.Golden(t, *update, checkPattern)
}

// allCodes lists every flow_* code of flow-format.md §2 and §3.2.
var allCodes = []string{
	"flow_unreadable", "flow_bad_extension", "flow_parse_error",
	"flow_blank_id", "flow_root_gives", "flow_empty_group", "flow_dotted_id", "flow_duplicate_id",
	"flow_self_need", "flow_unknown_need", "flow_repeat_zero", "flow_cycle",
	"flow_run_not_object", "flow_kind_not_string", "flow_kind_unknown", "flow_operator_no_prompt",
	"flow_command_missing", "flow_command_empty", "flow_command_not_strings", "flow_scope_not_list",
	"flow_scope_not_string", "flow_scope_bad_rule",
	"flow_unknown_key", "flow_null_value", "flow_bad_type", "flow_blank_node_id", "flow_id_charset",
	"flow_duplicate_need", "flow_duplicate_gives", "flow_gives_unsatisfiable", "flow_run_field_type",
	"flow_context_invalid", "flow_scope_whitespace", "flow_run_unknown_key", "flow_llm_no_prompt",
	"flow_command_ignored", "flow_state_name",
}

// TestEveryCodeHasAFixture keeps the fixtures honest: each code is produced
// by at least one of them (flow_bad_extension by TestReadExtension).
func TestEveryCodeHasAFixture(t *testing.T) {
	var all bytes.Buffer
	for _, file := range testkit.Files(t, checkPattern) {
		out, err := os.ReadFile(file + ".out")
		if err != nil {
			t.Fatal(err)
		}
		all.Write(out)
	}
	for _, code := range allCodes {
		if code == "flow_bad_extension" {
			continue
		}
		if !strings.Contains(all.String(), "["+code+"]") {
			t.Errorf("no fixture produces %s", code)
		}
	}
}

func TestReadExtension(t *testing.T) {
	data := []byte(`{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"prompt": "p"}}]}}`)
	for file, want := range map[string]string{
		"f.json": "", "f.JSON": "", "f.Yaml": "", "f.YML": "", "dir.d/f.yml": "",
		"f.txt": "flow_bad_extension", "f": "flow_bad_extension", "f.json.bak": "flow_bad_extension",
	} {
		_, ds := Read(file, data)
		got := ""
		if len(ds) > 0 {
			got = ds[0].Code
		}
		if got != want {
			t.Errorf("Read(%q): code %q, want %q", file, got, want)
		}
	}
	_, ds := Read("f.txt", data)
	if !strings.Contains(ds[0].Message, "`.txt`") {
		t.Errorf("message does not name the extension: %s", ds[0].Message)
	}
}

func TestReadFileErrors(t *testing.T) {
	_, ds := ReadFile(filepath.Join(t.TempDir(), "missing.yaml"))
	if len(ds) != 1 || ds[0].Code != "flow_unreadable" {
		t.Fatalf("missing file: %v", ds)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("#\n"), MaxSize/2+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ds := ReadFile(big); len(ds) != 1 || ds[0].Code != "flow_unreadable" {
		t.Fatalf("oversized file: %v", ds)
	}
}

func TestReadDepthAndAliases(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	for _, file := range []string{"d.json", "d.yaml"} {
		_, ds := Read(file, []byte(deep))
		if len(ds) != 1 || ds[0].Code != "flow_parse_error" || !strings.Contains(ds[0].Message, "nesting") {
			t.Errorf("%s: deep nesting not refused: %v", file, ds)
		}
	}
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'j'; i++ {
		prev := string(i - 1)
		laughs += fmt.Sprintf("%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
	}
	_, ds := Read("l.yaml", []byte(laughs))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "expands") {
		t.Errorf("alias bomb not refused: %v", ds)
	}
}

func TestReadExactIntegers(t *testing.T) {
	raw, ds := Read("x.yaml", []byte("a: 0x10\nb: 18446744073709551615\nc: 99999999999999999999999\nd: 2.0\ne: '3'\n"))
	if ds != nil {
		t.Fatal(ds)
	}
	// An integer not written in decimal is kept as written and marked, for
	// the strict check; its value is yaml.v3's.
	want := map[string][2]any{"a": {IntValue, "0x10"}, "b": {IntValue, "18446744073709551615"},
		"c": {FloatValue, "99999999999999999999999"}, "d": {FloatValue, "2.0"}, "e": {StringValue, "3"}}
	// yaml.v3 resolves an integer beyond 64 bits as a float; either way the
	// literal is kept and it is no u32.
	for k, w := range want {
		v, _ := raw.Root.Get(k)
		if v.Kind != w[0] || v.Text != w[1] {
			t.Errorf("%s: got %v %q, want %v %q", k, v.Kind, v.Text, w[0], w[1])
		}
		if v.NonDecimal != (k == "a") {
			t.Errorf("%s: NonDecimal = %v", k, v.NonDecimal)
		}
	}
	if a, _ := raw.Root.Get("a"); !a.NonDecimal {
		t.Error("0x10 is not marked NonDecimal")
	} else if n, ok := a.uint32Value(); !ok || n != 16 {
		t.Errorf("0x10 reads as %d, %v; want 16", n, ok)
	}
}

// TestCheckDocument exercises the generator's self-check on model values the
// YAML form would misread.
func TestCheckDocument(t *testing.T) {
	ok := doc("x", group("true", nil, 0, "", step("s", nil, &Run{Kind: KindLLM, Prompt: "p"})))
	ds := CheckDocument(ok)
	if !slices.Contains(ds.Codes(), "flow_parse_error") && !slices.Contains(ds.Codes(), "flow_bad_type") {
		t.Errorf("a group id `true` passed the self-check: %v", ds)
	}
	if len(ds) > 0 && (ds[0].File != "" || ds[0].Pos.IsValid()) {
		t.Errorf("self-check diagnostic keeps a position into hidden bytes: %v", ds[0])
	}
	dotted := doc("x", group("a.b", nil, 0, "", step("s", nil, &Run{Kind: KindLLM, Prompt: "p"})))
	if ds := CheckDocument(dotted); !slices.Equal(ds.Codes(), []string{"flow_dotted_id"}) {
		t.Errorf("dotted id: %v", ds.Codes())
	}
	for name, d := range specDocuments() {
		ds := CheckDocument(d)
		if ds.HasErrors() {
			t.Errorf("%s: %v", name, ds)
		}
		// Only demo-dfs has slots with neither summary nor step.
		if warns := len(ds); (name == "demo-dfs" || name == "demo-self") != (warns > 0) {
			t.Errorf("%s: warnings %v", name, ds.Codes())
		}
	}
}

func TestReadAliasDepth(t *testing.T) {
	// Each anchor nests the previous one 100 levels deeper; the reused
	// aliases must still count against MaxDepth.
	src := "a0: &a0 x\n"
	for i := 1; i <= 4; i++ {
		src += fmt.Sprintf("a%d: &a%d %s*a%d%s\n", i, i, strings.Repeat("[", 100), i-1, strings.Repeat("]", 100))
	}
	src += "z: [*a4, *a4]\n"
	_, ds := Read("a.yaml", []byte(src))
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "nesting") {
		t.Errorf("deep aliases not refused: %v", ds)
	}
}

// TestReadAliasIntoReleasedSubtree: the YAML reader drops each converted
// node, except below an anchor; an alias to an anchor nested in an earlier
// item, or to a whole anchored item, must read as the anchor's value.
func TestReadAliasIntoReleasedSubtree(t *testing.T) {
	src := "items:\n" +
		"  - {id: a, deep: {list: &inner [x, {y: z}]}}\n" +
		"  - &whole {id: b, nested: [1, [2, 3]]}\n" +
		"again: [*inner, *whole, *inner]\n"
	raw, ds := Read("a.yaml", []byte(src))
	if ds != nil {
		t.Fatal(ds)
	}
	again, _ := raw.Root.Get("again")
	inner, whole := again.Items[0], again.Items[1]
	if len(inner.Items) != 2 || inner.Items[0].Text != "x" {
		t.Fatalf("*inner = %+v", inner)
	}
	if y, _ := inner.Items[1].Get("y"); y == nil || y.Text != "z" {
		t.Errorf("*inner[1].y = %+v", y)
	}
	if id, _ := whole.Get("id"); id == nil || id.Text != "b" {
		t.Errorf("*whole.id = %+v", id)
	}
	if n, _ := whole.Get("nested"); n == nil || len(n.Items) != 2 || n.Items[1].Items[1].Text != "3" {
		t.Errorf("*whole.nested = %+v", n)
	}
	if again.Items[2].Items[1].Pos != inner.Items[1].Pos {
		t.Error("the second *inner is not the anchor's value")
	}
}

// TestReadJSONErrorPositions: a JSON syntax error stands at the offending
// byte. The decoder's offset stood before the separator (`{"id": x}` was
// blamed at the colon) or at the start of the string or literal holding the
// bad byte; a byte beyond ASCII was named as a Latin-1 character (`'Ã'` for
// `é`, `'ï'` for a byte order mark).
func TestReadJSONErrorPositions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"id": x}`, "1:8: JSON parse error at line 1, column 8: invalid character 'x' looking for beginning of value"},
		{`{"id": é}`, "1:8: JSON parse error at line 1, column 8: invalid character 'é' looking for beginning of value"},
		// Not UTF-8: refused before it is parsed, at the byte.
		{"{\"id\":\n  \"é\xff\"}", "2:5: cannot read flow document `f.json`: the byte 0xff is not UTF-8 text"},
		{"\ufeff{}", "1:1: JSON parse error at line 1, column 1: the file starts with a byte order mark (U+FEFF), which JSON does not allow"},
		{"{\"id\":\n  ]}", "2:3: JSON parse error at line 2, column 3: invalid character ']' looking for beginning of value"},
		{"{\"id\": \"a\n\"}", "1:10: JSON parse error at line 1, column 10: invalid character '\\n' in string literal"},
		{`{"id": "\q"}`, "1:10: JSON parse error at line 1, column 10: invalid character 'q' in string escape code"},
		{`{"id" 1}`, "1:7: JSON parse error at line 1, column 7: invalid character '1' after object key"},
		{`{"a": tru}`, "1:10: JSON parse error at line 1, column 10: invalid character '}' in literal true (expecting 'e')"},
		{`{"é": "x" y}`, "1:11: JSON parse error at line 1, column 11: invalid character 'y' after object key:value pair"},
		{`{"a": 1} x`, "1:10: JSON parse error at line 1, column 10: unexpected data after the top-level value"},
	} {
		_, ds := ReadAs("f.json", "JSON", []byte(tc.src))
		if len(ds) != 1 || fmt.Sprintf("%d:%d: %s", ds[0].Pos.Line, ds[0].Pos.Column, ds[0].Message) != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, ds, tc.want)
		}
	}
}

// TestReadYAMLErrorPositions: yaml.v3 prints its parser's lines 0-based,
// so a YAML error stood a line early; text after the end of the document
// was "more than one document in the stream" at column 1.
func TestReadYAMLErrorPositions(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"id: f\nroot: {id: r,\n  nodes: [{id: s}]\n", "2:1: YAML parse error at line 2, column 1: did not find expected ',' or '}'"},
		{"id: f\nroot: {id: r}\n  x: 1\n", "3:1: YAML parse error at line 3, column 1: did not find expected key"},
		{`{"id": "f", "root": {"id": "r"}}  }` + "\n", "1:35: YAML parse error at line 1, column 35: text follows the end of the document"},
		{"{\"id\": \"f\"}\n# c\n  {\"id\": \"g\"}\n", "3:3: YAML parse error at line 3, column 3: text follows the end of the document"},
		{"  id: f\nroot: {}\n", "2:1: YAML parse error at line 2, column 1: text follows the end of the document"},
	} {
		_, ds := ReadAs("f.yaml", "YAML", []byte(tc.src))
		if len(ds) != 1 || fmt.Sprintf("%d:%d: %s", ds[0].Pos.Line, ds[0].Pos.Column, ds[0].Message) != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.src, ds, tc.want)
		}
	}
}

// TestReadRefusesUnreadableTags: an explicit tag its value does not read
// as, or one outside YAML's core schema, is a parse error at the tagged
// node (internal/yamltag), as in an AEP document. `!!null x` read as null
// and `!custom x` as the string "x"; a tag the value reads as anyway is
// kept.
func TestReadRefusesUnreadableTags(t *testing.T) {
	for src, want := range map[string]string{
		"a: 1\nb: !!null x\n":    "2:4",
		"a: !custom x\n":         "1:4",
		"a: !!bool yes\n":        "1:4",
		"a: !!set {b: null}\n":   "1:4",
		"a: [1, !!int two]\n":    "1:8",
		"a: !!binary aGVsbG8=\n": "1:4",
	} {
		_, ds := Read("t.yaml", []byte(src))
		if len(ds) != 1 || ds[0].Code != "flow_parse_error" || ds[0].Pos.String() != want || !strings.Contains(ds[0].Message, "tag") {
			t.Errorf("%q: %v, want one flow_parse_error at %s naming the tag", src, ds, want)
		}
	}
	raw, ds := Read("t.yaml", []byte("a: !!str 010\nb: !!int '2'\nc: !!map {d: !!null ~}\n"))
	if ds != nil {
		t.Fatalf("tags the values read as: %v", ds)
	}
	if a, _ := raw.Root.Get("a"); a.Kind != StringValue || a.Text != "010" {
		t.Errorf("!!str 010 read as %+v", a)
	}
}
