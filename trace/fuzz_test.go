package trace

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

// checkIR asserts the IR invariants every reader must keep.
func checkIR(t *testing.T, ir *IR) {
	for i, e := range ir.Events {
		if e.Index != i || e.SourceLine < 1 {
			t.Fatalf("event %d: index %d line %d", i, e.Index, e.SourceLine)
		}
		if e.Family == FamilyToolCall && e.Call().ResultEvent >= 0 {
			r := e.Call().ResultEvent
			if r >= len(ir.Events) || ir.Events[r].Family != FamilyToolResult {
				t.Fatalf("call %d correlates with %d", i, r)
			}
		}
	}
	if len(ir.TranscriptDigest) != 64 {
		t.Fatalf("digest %q", ir.TranscriptDigest)
	}
	var b bytes.Buffer
	if err := NewCensus(ir).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkPrinted(t, b.String())
}

// checkPrinted fails when a line of text output holds a character
// diag.EscapeText escapes: a transcript or a spec broke or reordered it.
func checkPrinted(t *testing.T, out string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if diag.EscapeText(line) != line {
			t.Fatalf("a line of text output holds a raw control character: %q", line)
		}
	}
}

// FuzzReadStreamJSON: the stream-json reader never panics and keeps its invariants.
func FuzzReadStreamJSON(f *testing.F) {
	testkit.Seed(f, "../testdata/trace/transcripts/small.jsonl")
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":1}]}}\n"))
	f.Add([]byte("{\"type\":\"user\",\"isSynthetic\":true,\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}\n\xff"))
	// A byte order mark before the first line.
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"system\",\"subtype\":\"init\"}\n"))
	// A tool name that breaks the census's line (raw control characters
	// and a line separator in the JSON string).
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"c\",\"name\":\"B\\r\\nconformant\u2028\\u202e\",\"input\":{}}]}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ir, adapter, refusals := Read(data)
		if (ir == nil) == (len(refusals) == 0) {
			t.Fatalf("ir %v with %d refusals", ir != nil, len(refusals))
		}
		if adapter.Name == "" && ir != nil { // none only when the first line is over the bound
			t.Fatal("no adapter")
		}
		if ir != nil {
			checkIR(t, ir)
		}
	})
}

// FuzzReadEventStream: the metaharness.event/1 reader never panics and keeps its invariants.
func FuzzReadEventStream(f *testing.F) {
	testkit.Seed(f, "../testdata/trace/transcripts/events.jsonl")
	f.Add([]byte("{\"format\":\"metaharness.event/1\",\"event\":\"session.started\",\"hermetic\":{\"stream_complete\":true}}\n"))
	f.Add([]byte("{\"format\":\"metaharness.event/1\",\"event\":\"usage\",\"usage\":[]}\n{\"format\":\"metaharness.event/1\",\"event\":\"stream.closed\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ir, _, refusals := Read(data)
		if (ir == nil) == (len(refusals) == 0) {
			t.Fatalf("ir %v with %d refusals", ir != nil, len(refusals))
		}
		if ir != nil {
			checkIR(t, ir)
		}
	})
}

// FuzzReadCodex: the Codex rollout reader never panics and keeps its invariants.
func FuzzReadCodex(f *testing.F) {
	testkit.Seed(f, "../testdata/trace/transcripts/codex.jsonl")
	f.Add([]byte(`{"type":"session_meta","payload":null}` + "\n" + `{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":{"a":1}}}`))
	f.Add([]byte(`{"type":"session_meta"}` + "\n" + `{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"x","output":[1]}}` + "\n[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ir, _, refusals := Read(data)
		if (ir == nil) == (len(refusals) == 0) {
			t.Fatalf("ir %v with %d refusals", ir != nil, len(refusals))
		}
		if ir != nil {
			checkIR(t, ir)
		}
	})
}

// maxFuzzSpec bounds the specifications FuzzReadSpec reads, in bytes.
//
// Why a bound: whenever the Go fuzzer finds an input with new coverage, a
// worker minimizes it before fuzzing on, trying about n²/2 cuts of an
// n-byte input, each a YAML parse, a validation and a check — cubic in n
// overall. Seeded with the whole 2–5 KB fixture specs, each interesting
// mutant cost millions of calls to minimize (capped only by
// -fuzzminimizetime) before its worker fuzzed again (docs/fuzzing.md).
// Expectations are read and checked independently of each other and one
// row with its header fits in 300 bytes, so a bound that holds one
// row, or two for the cross-row codes (duplicate ids), loses nothing the
// target checks; TestEveryKindOKAndGap and TestGoldenOutputs read the whole
// fixtures.
const maxFuzzSpec = 512

// splitSpec cuts a fixture specification into one document per
// expectation: its header lines (comments dropped), `expectations:` and
// that single row, so the fuzzer is seeded with small inputs. It expects
// the fixtures' layout: top-level keys at column 0, rows starting `  - `.
func splitSpec(data []byte) [][]byte {
	var header []byte
	var rows [][]byte
	inRows := false
	for _, l := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "":
		case !inRows:
			header = append(header, l...)
			inRows = l == "expectations:\n"
		case strings.HasPrefix(l, "  - "):
			rows = append(rows, []byte(l))
		case len(rows) > 0:
			rows[len(rows)-1] = append(rows[len(rows)-1], l...)
		}
	}
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = append(slices.Clip(header), r...)
	}
	return out
}

// FuzzReadSpec: the spec reader never panics; an accepted spec has a digest
// and checks without panicking against both fixture transcripts (one per
// reader). Inputs over
// maxFuzzSpec bytes are outside its domain (see there for why).
func FuzzReadSpec(f *testing.F) {
	for _, file := range testkit.Files(f, "../testdata/trace/specs/*.yaml") {
		rows := splitSpec(readFile(f, file))
		if len(rows) == 0 {
			f.Fatalf("%s: no expectation rows found", file)
		}
		for _, row := range rows {
			if _, refusals := ReadSpec(row); len(refusals) > 0 || len(row) > maxFuzzSpec {
				f.Fatalf("%s: the seed (%d bytes) is refused or over the bound: %v\n%s", file, len(row), refusals, row)
			}
			f.Add(row)
		}
	}
	f.Add([]byte("format: trace-spec/1\nid: a\nexpectations:\n- {id: a, expect: {text.matches: {regex: \"(\"}}}\n"))
	f.Add([]byte(okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n- {id: a, expect: {order: {first: {tool: A}, before: {tool: B}}}}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	// A second document was ignored (the fuzzer keeps looking past it).
	f.Add([]byte(okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}}\n---\nid: u\n"))
	// The null bounds that panicked in evaluation (issue 10), one per kind.
	for kind, param := range requiredBoundKinds {
		f.Add([]byte(nullBoundDoc(kind, param)))
	}
	f.Add([]byte(okHeader + "- {id: a, expect: {tool.called: {args: {command: {regex: \"[ab]{0,1000}c\"}}}}}\n"))
	// Range bounds refused at the kind, at `rate` and at a side that is not a number.
	f.Add([]byte(okHeader + "- {id: a, expect: {cost.total: {at_least_usd: 5, at_most_usd: .nan}}}\n- {id: b, expect: {tool.error_rate: {rate: {at_least: 0.5, at_most: 0.1}}}}\n"))
	// A title and an argument matcher that would forge a report line.
	f.Add([]byte("format: trace-spec/1\nid: t\ntitle: \"x\\r\\nconformant\\L\\u202e\"\nexpectations:\n- {id: a, expect: {tool.called: {args: {command: {contains: \"\\nconformant\"}}}}}\n"))
	// Numbers YAML 1.1 and 1.2 read otherwise, refused at their position
	// (an anchor's use included), beside the forms both read alike.
	f.Add([]byte(okHeader + "- {id: a, expect: {turns: {count: {at_least: 0o7, at_most: 010}}}}\n- {id: b, expect: {tool.called: {args: {n: {equals: &n -0x10}, m: {equals: *n}}}}}\n- {id: c, expect: {cost.total: {at_most_usd: 1_0.5}}}\n- {id: d, expect: {tool.result_bytes: {bytes: {exactly: 0b11}}}}\n"))
	// Tags the values do not read as, and tags outside the core schema.
	f.Add([]byte(okHeader + "- {id: a, expect: {turns: {count: {at_least: !!int '2', at_most: !!null 3}}}}\n- {id: b, expect: !custom {x: !!bool yes}}\n"))
	var irs []*IR
	for _, name := range []string{"small.jsonl", "events.jsonl", "codex.jsonl"} {
		irs = append(irs, mustRead(f, readFile(f, "../testdata/trace/transcripts/"+name)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzSpec {
			return
		}
		spec, refusals := ReadSpec(data)
		if (spec == nil) == (len(refusals) == 0) {
			t.Fatalf("spec %v with %d refusals", spec != nil, len(refusals))
		}
		if spec == nil {
			return
		}
		if len(spec.Digest) != 64 {
			t.Fatalf("digest %q", spec.Digest)
		}
		for _, ir := range irs {
			r, err := Check(spec, ir, CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			checkPrinted(t, b.String())
		}
	})
}

// FuzzGlob: the linear glob matcher agrees with the backtracking reference
// on every pattern and text (kept short: the reference is quadratic).
// Both are valid UTF-8, as every pattern (YAML) and text (a validated
// transcript, decoded JSON) is.
func FuzzGlob(f *testing.F) {
	for _, c := range [][2]string{{"a.c+d", "a.c+d"}, {"*/.engineering/*.md", "/r/.engineering/x.md"}, {"*a?c*", "xabcx"}, {"x*é?*z", "xéyz"}, {"**?", ""}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 64 || len(text) > 256 || !utf8.ValidString(pattern) || !utf8.ValidString(text) {
			return
		}
		if got, want := compileGlob(pattern).match(text), globBacktrack(pattern, text); got != want {
			t.Fatalf("glob %q on %q = %t, the reference says %t", pattern, text, got, want)
		}
	})
}

// FuzzLineDecoder: one lineDecoder reading the lines of the input in turn
// decodes each exactly as a fresh decoder does, failures included, whatever
// the lines before it held.
func FuzzLineDecoder(f *testing.F) {
	for _, seed := range []string{
		"{\"a\":1}\n{\"a\":1} junk\n{\"b\":2}",
		"5\n\"x\"\n[1,2]\n{}",
		"{\"d\":\n{\"e\":true}",
		"{} {}\n{}\n\n  \n[",
		"{\"n\":1e400}\n{\"s\":\"\\ud800\"}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var d lineDecoder
		for _, line := range strings.Split(input, "\n") {
			got, gotErr := d.decode([]byte(line))
			want, wantErr := decodeJSON([]byte(line))
			if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
				t.Fatalf("line %q: reused decoder error %v, fresh %v", line, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("line %q: reused decoder %v, fresh %v", line, got, want)
			}
		}
	})
}

// FuzzNumberOutOfRange: the byte scan that refuses a line holding a number
// no float64 reaches agrees with a walk of the decoded value, whatever the
// strings around the numbers hold.
func FuzzNumberOutOfRange(f *testing.F) {
	for _, seed := range []string{
		`{"n":1e400}`, `[1,-2e308,"1e400"]`, `{"1e400":"a\"1e999\\","b":[true,1.5e-400]}`,
		`{"s":"\u00221e400","t":9e307}`, `-1E+309`, `"x"`, `{"a":{"b":[[0.1e3]]}}`,
	} {
		f.Add(seed)
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case json.Number:
			f, err := strconv.ParseFloat(string(x), 64)
			return err != nil && math.IsInf(f, 0)
		case []any:
			return slices.ContainsFunc(x, walk)
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	f.Fuzz(func(t *testing.T, input string) {
		dec := json.NewDecoder(strings.NewReader(input))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil || !jsonBlank([]byte(input[dec.InputOffset():])) {
			return // not one JSON value: the decoder refuses it first
		}
		if got, want := numberOutOfRange([]byte(input)), walk(v); got != want {
			t.Fatalf("%q: scan %t, walk %t", input, got, want)
		}
	})
}
