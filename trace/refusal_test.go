package trace

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/yamltag"
)

const okHeader = "format: trace-spec/1\nid: t\nexpectations:\n"

// TestSpecRefusals checks every refusal code with its location.
func TestSpecRefusals(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string // CODE@location
	}{
		{"format", "format: trace-spec/2\nid: t\nexpectations:\n- {id: a, expect: {turns: {count: {at_most: 1}}}}\n", []string{"TRACE-SPEC-001@format"}},
		{"not-yaml", "format: [\n", []string{"TRACE-SPEC-002@document"}},
		// Everything after the first document was ignored: a spec whose
		// second document would gap was judged on the first alone.
		{"second-document", okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n---\nid: u\n", []string{"TRACE-SPEC-002@document"}},
		{"garbage-after-document", okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n---\n: : [\n", []string{"TRACE-SPEC-002@document"}},
		{"json-after-json", `{"format":"trace-spec/1","id":"t","expectations":[{"id":"a","expect":{"turns":{"count":{"at_most":1}}}}]}` + "\n" + `{"x":[1,` + "\n", []string{"TRACE-SPEC-002@document"}},
		{"document-end-marker", okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n...\n", nil},
		{"unknown-key", okHeader + "- {id: a, expect: {tool.called: {toool: Bash}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"unknown-kind", okHeader + "- {id: a, expect: {tool.caled: {tool: Bash}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"flat-kind", okHeader + "- {id: a, tool.called: {tool: Bash}}\n", []string{"TRACE-SPEC-002@document"}},
		{"bare-count", okHeader + "- {id: a, expect: {turns: {count: 1}}}\n", []string{"TRACE-SPEC-002@document"}},
		// A required bound given as null is refused, not read as absent
		// (found by FuzzReadSpec: the digest read the missing bound).
		{"null-required-count", okHeader + "- {id: a, expect: {tool.repeated: {count}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"null-required-ms", okHeader + "- {id: a, expect: {step.gen_time: {ms: null}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"null-required-bytes", okHeader + "- {id: a, expect: {tool.result_bytes: {bytes: null}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"negative", okHeader + "- {id: a, expect: {turns: {count: {at_most: -1}}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"fraction", okHeader + "- {id: a, expect: {turns: {count: {at_most: 1.5}}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"yes-is-string", okHeader + "- {id: a, expect: {cache.used: {equals: yes}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"duplicate-key", okHeader + "- {id: a, id: b, expect: {turns: {count: {at_most: 1}}}}\n", []string{"TRACE-SPEC-002@document"}},
		{"duplicate-id", okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n- {id: a, expect: {turns: {count: {at_most: 2}}}}\n", []string{"TRACE-SPEC-003@expectations[1].id"}},
		{"empty", "format: trace-spec/1\nid: t\nexpectations: []\n", []string{"TRACE-SPEC-004@expectations"}},
		{"omitted", "format: trace-spec/1\nid: t\n", []string{"TRACE-SPEC-004@expectations"}},
		{"unscoped-absent", okHeader + "- {id: a, expect: {tool.absent: {}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.absent"}},
		{"tool-and-tools", okHeader + "- {id: a, expect: {tool.called: {tool: A, tools: [B]}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.called.tools"}},
		{"repeated-tools", okHeader + "- {id: a, expect: {tool.called: {tools: [B, B]}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.called.tools"}},
		{"blank-skill", okHeader + "- {id: a, expect: {env.skill_available: {skill: \" \"}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.env.skill_available.skill"}},
		{"no-side", okHeader + "- {id: a, expect: {turns: {count: {}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.turns.count"}},
		{"order-same", okHeader + "- {id: a, expect: {order: {first: {tool: A}, before: {tools: [A]}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.order"}},
		{"result-empty", okHeader + "- {id: a, expect: {result: {}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.result"}},
		{"tool-result-empty", okHeader + "- {id: a, expect: {tool.result: {tool: A, result: {}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.result.result"}},
		{"fractional-equals", okHeader + "- {id: a, expect: {tool.called: {args: {n: {equals: 1.5}}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.called.args.n"}},
		{"share-range", okHeader + "- {id: a, expect: {usage.share: {field: input_tokens, at_most: 1}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.usage.share.at_most"}},
		{"tool-available-none", okHeader + "- {id: a, expect: {env.tool_available: {}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.env.tool_available"}},
		{"tool-available-two", okHeader + "- {id: a, expect: {env.tool_available: {tool: A, only: [A]}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.env.tool_available"}},
		{"available-with-only", okHeader + "- {id: a, expect: {env.tool_available: {only: [A], available: true}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.env.tool_available.available"}},
		{"trivial-contains", okHeader + "- {id: a, expect: {text.matches: {contains: \"\"}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.text.matches"}},
		{"trivial-glob", okHeader + "- {id: a, expect: {text.matches: {glob: \"**\"}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.text.matches"}},
		{"trivial-regex", okHeader + "- {id: a, expect: {text.matches: {regex: \".*\"}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.text.matches"}},
		{"bad-doc-id", "format: trace-spec/1\nid: Bad/Id\nexpectations:\n- {id: a, expect: {turns: {count: {at_most: 1}}}}\n", []string{"TRACE-SPEC-006@id"}},
		{"bad-row-id", okHeader + "- {id: A_1, expect: {turns: {count: {at_most: 1}}}}\n", []string{"TRACE-SPEC-006@expectations[0].id"}},
		{"exactly-with-side", okHeader + "- {id: a, expect: {turns: {count: {exactly: 1, at_most: 2}}}}\n", []string{"TRACE-SPEC-007@expectations[0].expect.turns.count"}},
		{"bad-regex", okHeader + "- {id: a, expect: {tool.called: {args: {command: {regex: \"*.md\"}}}}}\n", []string{"TRACE-SPEC-008@expectations[0].expect.tool.called.args.command"}},
		// A range bound's refusal stands where the author wrote it: at the
		// kind whose own keys the bound's sides are (cost.total,
		// cache.hit_ratio, rate_limit.utilization, usage.share), at `rate`
		// for tool.error_rate, and at the side that is not a number; it
		// named `…at_most` and `…at_most_usd`, which nobody wrote.
		{"range-unsatisfiable-usd", okHeader + "- {id: a, expect: {cost.total: {at_least_usd: 5, at_most_usd: 2}}}\n", []string{"TRACE-SPEC-007@expectations[0].expect.cost.total"}},
		{"range-no-side-usd", okHeader + "- {id: a, expect: {cost.total: {model: m}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.cost.total"}},
		{"range-nan-usd", okHeader + "- {id: a, expect: {cost.total: {at_most_usd: .nan}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.cost.total.at_most_usd"}},
		{"range-unsatisfiable-inline", okHeader + "- {id: a, expect: {cache.hit_ratio: {at_least: 0.9, at_most: 0.1}}}\n", []string{"TRACE-SPEC-007@expectations[0].expect.cache.hit_ratio"}},
		{"range-no-side-inline", okHeader + "- {id: a, expect: {rate_limit.utilization: {}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.rate_limit.utilization"}},
		{"range-nan-inline", okHeader + "- {id: a, expect: {rate_limit.utilization: {at_least: .nan}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.rate_limit.utilization.at_least"}},
		{"range-unsatisfiable-rate", okHeader + "- {id: a, expect: {tool.error_rate: {tool: Bash, rate: {at_least: 0.5, at_most: 0.1}}}}\n", []string{"TRACE-SPEC-007@expectations[0].expect.tool.error_rate.rate"}},
		{"range-no-side-rate", okHeader + "- {id: a, expect: {tool.error_rate: {tool: Bash, rate: {}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.error_rate.rate"}},
		{"range-nan-rate", okHeader + "- {id: a, expect: {tool.error_rate: {tool: Bash, rate: {at_most: .nan}}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.tool.error_rate.rate.at_most"}},
		{"share-no-side", okHeader + "- {id: a, expect: {usage.share: {field: input_tokens}}}\n", []string{"TRACE-SPEC-005@expectations[0].expect.usage.share"}},
		{"share-unsatisfiable", okHeader + "- {id: a, expect: {usage.share: {field: input_tokens, at_least: 0.9, at_most: 0.5}}}\n", []string{"TRACE-SPEC-007@expectations[0].expect.usage.share"}},
		// The example of trace.md §3.8: exactly 001, 003, 007 and 008.
		{"combined", "format: trace-spec/2\nid: t\nexpectations:\n- {id: a, expect: {turns: {count: {at_least: 5, at_most: 2}}}}\n- {id: a, expect: {text.matches: {regex: \"(\"}}}\n",
			[]string{"TRACE-SPEC-001@format", "TRACE-SPEC-007@expectations[0].expect.turns.count", "TRACE-SPEC-003@expectations[1].id", "TRACE-SPEC-008@expectations[1].expect.text.matches"}},
	} {
		_, refusals := ReadSpec([]byte(c.doc))
		var got []string
		for _, d := range refusals {
			got = append(got, d.Code+"@"+d.Path)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: refusals %v, want %v", c.name, got, c.want)
		}
	}
	_, refusals := ReadSpec([]byte(okHeader + "- {id: a, expect: {tool.called: {toool: Bash}}}\n"))
	if msg := FormatRefusal(refusals[0]); !strings.Contains(msg, "`toool`") || !strings.HasPrefix(msg, "TRACE-SPEC-002 at document: ") {
		t.Errorf("SPEC-002 message %q does not name the key", msg)
	}
	// The messages name the sides as written: `at_least_usd`, not at_least.
	for doc, want := range map[string]string{
		"- {id: a, expect: {cost.total: {at_least_usd: 5, at_most_usd: 2}}}\n": "at_least_usd 5 is greater than at_most_usd 2",
		"- {id: a, expect: {cost.total: {model: m}}}\n":                        "the bound has no side: write `at_least_usd` or `at_most_usd`",
		"- {id: a, expect: {cost.total: {at_most_usd: .nan}}}\n":               "`at_most_usd` is not a number",
		"- {id: a, expect: {cache.hit_ratio: {}}}\n":                           "the bound has no side: write `at_least` or `at_most`",
		"- {id: a, expect: {turns: {count: {}}}}\n":                            "the bound has no side: write `at_least`, `at_most` or `exactly`",
		// A count given a number that is not one names it, not its type
		// (-1 was "found an integer").
		"- {id: a, expect: {turns: {count: {at_most: -1}}}}\n":    "`expectations[0].expect.turns.count.at_most`: expected a non-negative integer, found -1",
		"- {id: a, expect: {turns: {count: {at_most: 1.5}}}}\n":   "`expectations[0].expect.turns.count.at_most`: expected a non-negative integer, found 1.5",
		"- {id: a, expect: {turns: {count: {at_most: 2.0}}}}\n":   "`expectations[0].expect.turns.count.at_most`: expected a non-negative integer, found 2.0",
		"- {id: a, expect: {turns: {count: {at_most: \"2\"}}}}\n": "`expectations[0].expect.turns.count.at_most`: expected a non-negative integer, found the string \"2\"",
	} {
		_, refusals := ReadSpec([]byte(okHeader + doc))
		if len(refusals) != 1 || refusals[0].Message != want {
			t.Errorf("%s: refusals %v, want the message %q", doc, refusals, want)
		}
	}
	_, refusals = ReadSpec([]byte(okHeader + "- {id: a, expect: {tool.called: {args: {command: {regex: \"*.md\"}}}}}\n"))
	if !strings.Contains(refusals[0].Message, "glob syntax") {
		t.Errorf("SPEC-008 message %q does not mention glob syntax", refusals[0].Message)
	}
}

// TestSpecJSONDigestsLikeYAML: JSON and YAML spellings of one document digest equally.
func TestSpecJSONDigestsLikeYAML(t *testing.T) {
	y := mustSpec(t, []byte("# comment\nid: planning-plugin/eval\nformat: trace-spec/1\nexpectations:\n- id: only\n  expect: {tool.absent: {tool: Edit, args: {file_path: {glob: \"*/.engineering/planning/*.md\"}}}}\n"))
	j := mustSpec(t, []byte(`{"format":"trace-spec/1","id":"planning-plugin/eval","expectations":[{"id":"only","expect":{"tool.absent":{"args":{"file_path":{"glob":"*/.engineering/planning/*.md"}},"tool":"Edit"}}}]}`))
	const vector = "935cd04eaca6870e46bef165186a955de51d42971386eaa04bf719d797ed140e"
	if y.Digest != vector || j.Digest != vector {
		t.Errorf("digests %s / %s, want the published vector %s", y.Digest, j.Digest, vector)
	}
}

// TestAdaptRefusals checks TRACE-ADAPT-001/002 and reader selection.
func TestAdaptRefusals(t *testing.T) {
	for _, c := range []struct {
		name, data, adapter string
		want                []string
	}{
		{"not-utf8", "{\"type\":\"x\"}\n\xff\n", "claude-code/stream-json", []string{"TRACE-ADAPT-001@transcript"}},
		{"empty", "", "claude-code/stream-json", []string{"TRACE-ADAPT-002@transcript"}},
		{"blank", "\n  \n", "claude-code/stream-json", []string{"TRACE-ADAPT-002@transcript"}},
		{"not-json", "{\"type\":\"x\"}\n\nnot json\n{oops\n", "claude-code/stream-json", []string{"TRACE-ADAPT-001@line[3]", "TRACE-ADAPT-001@line[4]"}},
		{"command-tag", "{\"format\":\"metaharness.command/1\"}\n", "claude-code/stream-json", nil},
		{"event-missing-tag", "{\"format\":\"metaharness.event/1\",\"event\":\"text\",\"text\":\"a\"}\r\n{\"event\":\"text\"}\n{\"format\":\"other/1\"}\n", "metaharness/event-stream", []string{"TRACE-ADAPT-001@line[2]", "TRACE-ADAPT-001@line[3]"}},
		{"event-control-only", "{\"format\":\"metaharness.event/1\",\"event\":\"turn.started\"}\n", "metaharness/event-stream", []string{"TRACE-ADAPT-002@transcript"}},
	} {
		ir, adapter, refusals := Read([]byte(c.data))
		var got []string
		for _, d := range refusals {
			got = append(got, d.Code+"@"+d.Path)
		}
		if adapter.Name != c.adapter || !slices.Equal(got, c.want) || (ir == nil) != (len(c.want) > 0) {
			t.Errorf("%s: adapter %s refusals %v, want %s %v", c.name, adapter.Name, got, c.adapter, c.want)
		}
	}
	_, _, refusals := Read([]byte("{\"format\":\"metaharness.event/1\",\"event\":\"text\"}\n{\"format\":\"other/1\"}\n"))
	if !strings.Contains(refusals[0].Message, "other/1") {
		t.Errorf("message %q does not name the tag found", refusals[0].Message)
	}
	// A byte order mark is named as one (the message read "invalid
	// character 'ï' looking for beginning of value"), on any line.
	_, _, refusals = Read([]byte("\xef\xbb\xbf{\"type\":\"system\"}\n{\"type\":\"x\"}\n\xef\xbb\xbf\n"))
	var got []string
	for _, d := range refusals {
		got = append(got, FormatRefusal(d))
	}
	if want := []string{
		"TRACE-ADAPT-001 at line[1]: line 1 is not JSON: it begins with a byte order mark (U+FEFF, bytes EF BB BF); save the transcript without one",
		"TRACE-ADAPT-001 at line[3]: line 3 is not JSON: it begins with a byte order mark (U+FEFF, bytes EF BB BF); save the transcript without one",
	}; !slices.Equal(got, want) {
		t.Errorf("byte order marks: %q", got)
	}
}

// TestOversizedFirstLineChoosesNoReader: a first non-blank line over the
// line bound cannot be read, so no reader is chosen from it: the adapter
// is zero and the refusal headers say no format was detected; it was
// reported "read as claude-code/stream-json", the default it fell to. A
// later oversized line keeps the reader the first line chose.
func TestOversizedFirstLineChoosesNoReader(t *testing.T) {
	read := func(text string) (Adapter, diag.List) {
		_, adapter, refusals, err := ReadStream(strings.NewReader(text), ReadOptions{MaxLineBytes: 40})
		if err != nil {
			t.Fatal(err)
		}
		return adapter, refusals
	}
	adapter, refusals := read("\n" + `{"format":"metaharness.event/1","event":"text","text":"a long one"}` + "\n{}\nnot json\n")
	if adapter.Name != "" || len(refusals) != 2 || refusals[0].Path != "line[2]" || refusals[1].Path != "line[4]" {
		t.Errorf("adapter %q, refusals %v", adapter.Name, refusals)
	}
	j := Judged{Name: "big.jsonl", Adapter: adapter, Refusals: refusals}
	if got, want := j.ReadAs(), "no format detected: its first non-blank line is over the line bound"; got != want {
		t.Errorf("ReadAs() = %q, want %q", got, want)
	}
	adapter, _ = read(`{"format":"metaharness.event/1"}` + "\n" + `{"format":"metaharness.event/1","event":"text","text":"a long one"}` + "\n")
	if adapter.Name != AdapterEventStream.Name {
		t.Errorf("a later long line: adapter %q", adapter.Name)
	}
	j = Judged{Name: "x.jsonl", Adapter: AdapterStreamJSON, Refusals: refusals}
	if got := j.ReadAs(); got != "read as claude-code/stream-json" {
		t.Errorf("ReadAs() = %q", got)
	}
}

// TestMatchers pins the five matchers' semantics (trace.md §3.5).
func TestMatchers(t *testing.T) {
	num := func(s string) any { return json.Number(s) }
	for _, c := range []struct {
		m    Matcher
		v    any
		want bool
	}{
		{Matcher{Op: "glob", Text: "a.c+d"}, "a.c+d", true},
		{Matcher{Op: "glob", Text: "a.c+d"}, "abcccd", false},
		{Matcher{Op: "glob", Text: "a.c+d"}, "xa.c+dy", false},
		{Matcher{Op: "glob", Text: "*/planning/*.md"}, "/w/.engineering/planning/a.md", true},
		{Matcher{Op: "glob", Text: "?é*"}, "xé", true},
		{Matcher{Op: "glob", Text: "?"}, "", false},
		{Matcher{Op: "exact", Text: "ls"}, "ls", true},
		{Matcher{Op: "exact", Text: "ls"}, "ls ", false},
		{Matcher{Op: "exact", Text: "[1,2]"}, []any{num("1"), num("2")}, true},
		{Matcher{Op: "contains", Text: "\"k\":1"}, map[string]any{"k": num("1")}, true},
		{Matcher{Op: "equals", Value: false}, false, true},
		{Matcher{Op: "equals", Value: false}, "false", false},
		{Matcher{Op: "equals", Value: int64(3)}, num("3"), true},
		{Matcher{Op: "equals", Value: int64(3)}, num("3.0"), false},
		{Matcher{Op: "equals", Value: int64(3)}, "3", false},
		{Matcher{Op: "equals", Value: "3"}, "3", true},
		{Matcher{Op: "equals", Value: "3"}, num("3"), false},
	} {
		if got := c.m.MatchValue(newValue(c.v)); got != c.want {
			t.Errorf("%s on %#v = %v, want %v", c.m.Display(), c.v, got, c.want)
		}
	}
	spec := mustSpec(t, []byte(okHeader+"- {id: a, expect: {text.matches: {regex: '\\.md$'}}}\n- {id: b, expect: {text.matches: {regex: '^$'}}}\n"))
	re := spec.Expectations[0].Kind.Matcher
	if !re.MatchText("a/b/story.md") || re.MatchText("a/b/story.markdown") {
		t.Error("regex is not a search with written anchors")
	}
	if eq := (Matcher{Op: "equals", Value: int64(1)}); eq.MatchText("1") {
		t.Error("a non-string equals matched plain text")
	}
	if got := (&Matcher{Op: "contains", Text: "a\"b\n"}).Display(); got != `~ "a\"b\n"` {
		t.Errorf("display %s", got)
	}
}

// TestCompact pins the serde-compatible compact form and float layout.
func TestCompact(t *testing.T) {
	v, err := decodeJSON([]byte(`{"b":[1,1.0,1e-7,1e16,0.99,-0.0,123456789012345678901],"a":"<\u2028\u0001\t\"\\é>","c":null,"d":true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"a\":\"<\u2028\\u0001\\t\\\"\\\\é>\",\"b\":[1,1.0,1e-7,1e16,0.99,-0.0,1.2345678901234568e20],\"c\":null,\"d\":true}"
	if got := Compact(v); got != want {
		t.Errorf("Compact = %s\nwant      %s", got, want)
	}
	for f, want := range map[float64]string{1: "1.0", 0.00001: "0.00001", 1e-6: "1e-6", 1e15: "1000000000000000.0", 2.5e20: "2.5e20", 0.2736588999999999: "0.2736588999999999"} {
		if got := FormatFloat(f); got != want {
			t.Errorf("FormatFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	for in, want := range map[string]int64{
		"2026-08-21T12:04:15.233Z": 1787313855233, "2026-08-21T12:04:15Z": 1787313855000,
		"2026-08-21T12:04:15.2Z": 1787313855200, "2026-08-21T12:04:15.23399Z": 1787313855233,
		"1970-01-01T00:00:00Z": 0, "1969-12-31T23:59:59.000Z": -1000,
	} {
		if got, ok := ParseTimestamp(in); !ok || got != want {
			t.Errorf("ParseTimestamp(%s) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"2026-08-21T12:04:15+00:00", "2026-08-21T12:04:15", "2026-08-21 12:04:15Z", "2026-13-21T12:04:15Z", "2026-08-21T24:00:00Z", "2026-08-21T12:04:15.Z", ""} {
		if _, ok := ParseTimestamp(in); ok {
			t.Errorf("ParseTimestamp(%q) accepted", in)
		}
	}
}

// TestLineDecoder: one decoder reads line after line as fresh decoders
// would — a value per line, exactly, anything but white space after it
// refused (a line `{…} junk` was accepted once), and a line that fails
// leaving the next line's reading untouched.
func TestLineDecoder(t *testing.T) {
	var d lineDecoder
	for i, c := range []struct {
		line, want, err string
	}{
		{`{"a":1}`, `{"a":1}`, ""},
		{`{"a":1} junk`, "", "trailing data after the JSON value"},
		{`{"b":2}`, `{"b":2}`, ""},
		{`{"a":1} {"b":2}`, "", "trailing data after the JSON value"},
		{"  {\"c\":[1,2.50]}\t ", `{"c":[1,2.50]}`, ""},
		{`5`, `5`, ""},
		{`{"d":`, "", "unexpected EOF"},
		{`{"e":true}`, `{"e":true}`, ""},
		{`{"f" 1}`, "", "invalid character '1' after object key"},
		{`"g"`, `"g"`, ""},
		{``, "", "EOF"},
		{`{"h":null}`, `{"h":null}`, ""},
	} {
		v, err := d.decode([]byte(c.line))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("line %d %q: error %v, want %q", i, c.line, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("line %d %q: %v", i, c.line, err)
			continue
		}
		if got, err := json.Marshal(v); err != nil || string(got) != c.want {
			t.Errorf("line %d %q: decoded %s, want %s", i, c.line, got, c.want)
		}
		if fresh, err := decodeJSON([]byte(c.line)); err != nil || !reflect.DeepEqual(fresh, v) {
			t.Errorf("line %d %q: a fresh decoder reads %v (%v), the reused one %v", i, c.line, fresh, err, v)
		}
	}
}

// TestSpecNumbersInOneReading: a number written in a form YAML 1.1 and
// YAML 1.2 read otherwise is TRACE-SPEC-002 at its line and column, as an
// AEP document refuses it (yamldoc.AmbiguousNumber): yaml.v3 read `at_most:
// 010` as 8 where trace.md §3.2's YAML 1.2 reads 10, and `3_0` as 30 where
// YAML 1.2 reads the text `3_0`. The forms both read alike are kept.
func TestSpecNumbersInOneReading(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"- {id: a, expect: {turns: {count: {at_most: 010}}}}\n",
			"line 4, column 45: `010` starts with a 0, which YAML 1.1 reads as octal and YAML 1.2 as decimal; write the number in decimal (without a leading zero), or quote it if it is text"},
		{"- {id: a, expect: {turns: {count: {at_least: 3_0}}}}\n",
			"line 4, column 46: `3_0` holds `_`, which YAML 1.1 skips in a number and YAML 1.2 reads as text; write the number in decimal (without a leading zero), or quote it if it is text"},
		{"- id: a\n  expect:\n    tool.result_bytes:\n      bytes: {at_most: 0b11}\n",
			"line 7, column 24: `0b11` is a number in YAML 1.1 and text in YAML 1.2; write the number in decimal (without a leading zero), or quote it if it is text"},
		{"- {id: a, expect: {tool.called: {args: {n: {equals: -0x10}}}}}\n",
			"line 4, column 53: `-0x10` is a number in YAML 1.1 and text in YAML 1.2; write the number in decimal (without a leading zero), or quote it if it is text"},
		{"- {id: a, expect: {cost.total: {at_most_usd: 0_1.5}}}\n",
			"line 4, column 46: `0_1.5` holds `_`, which YAML 1.1 skips in a number and YAML 1.2 reads as text; write the number in decimal (without a leading zero), or quote it if it is text"},
	} {
		spec, refusals := ReadSpec([]byte(okHeader + c.doc))
		if spec != nil || len(refusals) != 1 {
			t.Errorf("%s: spec %v, refusals %v", c.doc, spec != nil, refusals)
			continue
		}
		if d := refusals[0]; d.Code != CodeSpecShape || d.Path != "document" || d.Message != c.want {
			t.Errorf("%s: %s\nwant TRACE-SPEC-002 at document: %s", c.doc, FormatRefusal(d), c.want)
		}
	}
	// JSON takes the same path: `010` is no JSON number, and yaml.v3 read it as 8.
	if _, refusals := ReadSpec([]byte(`{"format":"trace-spec/1","id":"t","expectations":[{"id":"a","expect":{"turns":{"count":{"at_most":010}}}}]}`)); len(refusals) != 1 || !strings.HasPrefix(refusals[0].Message, "line 1, column 99: `010` starts with a 0") {
		t.Errorf("JSON: %v", refusals)
	}
	// Decimal, 0o, 0x, floats and a quoted `010` (a string) read alike.
	for _, doc := range []string{
		"- {id: a, expect: {turns: {count: {at_most: 10}}}}\n",
		"- {id: a, expect: {turns: {count: {at_most: 0o12}}}}\n",
		"- {id: a, expect: {turns: {count: {at_most: 0xA}}}}\n",
		"- {id: a, expect: {turns: {count: {at_most: 0}}}}\n",
		"- {id: a, expect: {cost.total: {at_most_usd: 0.5}}}\n",
		"- {id: a, expect: {cost.total: {at_most_usd: 1e1}}}\n",
		"- {id: a, expect: {tool.called: {args: {n: {equals: \"010\"}}}}}\n",
	} {
		if _, refusals := ReadSpec([]byte(okHeader + doc)); len(refusals) != 0 {
			t.Errorf("%s: %v", doc, refusals)
		}
	}
	a, b := mustSpec(t, []byte(okHeader+"- {id: a, expect: {turns: {count: {at_most: 0xA}}}}\n")), mustSpec(t, []byte(okHeader+"- {id: a, expect: {turns: {count: {at_most: 10}}}}\n"))
	if a.Digest != b.Digest {
		t.Errorf("0xA and 10 digest apart")
	}
}

// TestSpecTagsReadAsTheirValues: an explicit tag its value does not read as,
// or one outside YAML's core schema, is TRACE-SPEC-002 at its line and
// column, as in an AEP document (yamltag.Unreadable). The spec read
// `at_most: !!null 3` as no bound and `!custom 3` as the string "3".
func TestSpecTagsReadAsTheirValues(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"- {id: a, expect: {turns: {count: {at_most: !!null 3}}}}\n",
			"line 4, column 45: `3` is tagged `!!null` but is not null; " + yamltag.Hint},
		{"- {id: a, expect: {turns: {count: {at_most: !custom 3}}}}\n",
			"line 4, column 45: the tag `!custom` is not one of YAML's core schema; " + yamltag.Hint},
		{"- {id: a, expect: !!set {turns: {count: {at_most: 3}}}}\n",
			"line 4, column 19: the tag `!!set` is not one of YAML's core schema; " + yamltag.Hint},
	} {
		spec, refusals := ReadSpec([]byte(okHeader + c.doc))
		if spec != nil || len(refusals) != 1 {
			t.Errorf("%s: spec %v, refusals %v", c.doc, spec != nil, refusals)
			continue
		}
		if d := refusals[0]; d.Code != CodeSpecShape || d.Message != c.want {
			t.Errorf("%s: %s\nwant TRACE-SPEC-002: %s", c.doc, FormatRefusal(d), c.want)
		}
	}
	if _, refusals := ReadSpec([]byte(okHeader + "- {id: a, expect: {turns: {count: {at_most: !!int '3'}}}}\n")); len(refusals) != 0 {
		t.Errorf("a tag the value reads as: %v", refusals)
	}
}
