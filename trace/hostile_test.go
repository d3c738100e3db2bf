package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// globBacktrack is the reference glob matcher: the textbook backtracking
// algorithm (quadratic in the worst case), kept to check the linear one.
func globBacktrack(pattern, text string) bool {
	p, t := []rune(pattern), []rune(text)
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && p[pi] != '*' && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// TestGlobExamples: the examples of trace.md §3.5 and the anchoring rules.
func TestGlobExamples(t *testing.T) {
	for _, c := range []struct {
		pattern, text string
		want          bool
	}{
		{"a.c+d", "a.c+d", true},
		{"a.c+d", "abcccd", false},
		{"a.c+d", "xa.c+dy", false},
		{"*/.engineering/planning/*.md", "/repo/.engineering/planning/story.md", true},
		{"*/.engineering/planning/*.md", "/repo/.engineering/planning/story.markdown", false},
		{"", "", true},
		{"", "a", false},
		{"*", "", true},
		{"?", "é", true}, // one Unicode scalar, two bytes
		{"??", "é", false},
		{"a*a", "a", false}, // the stars' segments may not overlap
		{"a*a", "aa", true},
		{"*ab*ab*", "abab", true},
		{"*ab*ab*", "aba", false},
		{"*a?c*", "xxabcxx", true},
		{"*a?c*", "xxacxx", false},
		{"x*é?*z", "xéz", false},
		{"x*é?*z", "xéyz", true},
	} {
		if got := compileGlob(c.pattern).match(c.text); got != c.want {
			t.Errorf("glob %q on %q = %t, want %t", c.pattern, c.text, got, c.want)
		}
	}
}

// TestGlobMatchesReference compares the linear matcher with the
// backtracking one on random small patterns and texts, segments of more
// than 64 characters (several shift-and words) included.
func TestGlobMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(alphabet []rune, n int) string {
		var b strings.Builder
		for range n {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	patternRunes := []rune("ab?*é")
	textRunes := []rune("abé")
	for i := range 20000 {
		p, text := pick(patternRunes, rng.IntN(8)), pick(textRunes, rng.IntN(12))
		if i%50 == 0 { // long segments: 70–140 characters between stars
			seg := pick([]rune("a?"), 70+rng.IntN(70))
			p, text = "*"+seg+"*", pick([]rune("ab"), rng.IntN(20))+strings.ReplaceAll(seg, "?", "b")+pick([]rune("ab"), rng.IntN(20))
			if rng.IntN(2) == 0 {
				text = strings.Replace(text, "a", "b", 1)
			}
		}
		if got, want := compileGlob(p).match(text), globBacktrack(p, text); got != want {
			t.Fatalf("glob %q on %q = %t, the reference says %t", p, text, got, want)
		}
	}
}

// TestGlobLinear: the shapes that took the backtracking matcher ~n·m steps
// (`*` + 10,000 characters against a long text: 19 s) take a number of
// steps linear in the text, times the shift-and words of a `?` segment.
func TestGlobLinear(t *testing.T) {
	long := strings.Repeat("a", 10000)
	text := strings.Repeat("a", 200_000)
	for _, c := range []struct {
		name, pattern string
		want          bool
	}{
		{"star then literal", "*" + long + "b", false},
		{"literal between stars", "*" + long + "b*", false},
		{"question marks between stars", "*" + strings.Repeat("a?", 5000) + "b*", false},
		{"many stars", strings.Repeat("*a", 5000) + "b", false},
		{"many stars that match", strings.Repeat("*a", 5000), true},
	} {
		g := compileGlob(c.pattern)
		got, steps := g.matchCounting(text)
		if got != c.want {
			t.Errorf("%s: match = %t, want %t", c.name, got, c.want)
		}
		words := 1
		for _, s := range g.middle {
			words = max(words, s.words)
		}
		if bound := 4 * (len(text) + len(c.pattern)) * words; steps > bound {
			t.Errorf("%s: %d steps, over the linear bound %d", c.name, steps, bound)
		}
	}
}

// TestRegexProgramBound: a pattern whose program exceeds MaxRegexInsts is
// refused at validation (TRACE-SPEC-008), one within it is accepted.
func TestRegexProgramBound(t *testing.T) {
	_, refusals := ReadSpec([]byte(okHeader + "- {id: a, expect: {tool.called: {args: {command: {regex: \"[ab]{0,1000}c\"}}}}}\n"))
	if len(refusals) != 1 || refusals[0].Code != CodeSpecBadRegex || !strings.Contains(refusals[0].Message, "instructions, over the limit of 256") {
		t.Fatalf("refusals %v", refusals)
	}
	mustSpec(t, []byte(okHeader+"- {id: a, expect: {tool.called: {args: {command: {regex: \"x{0,100}\"}}}}}\n"))
}

// TestPatternsCompiledOnce: every matcher writing the same regex or glob,
// directly or through an alias, shares one compiled pattern.
func TestPatternsCompiledOnce(t *testing.T) {
	spec := mustSpec(t, []byte(okHeader+`- {id: a, expect: {tool.called: {args: {command: &re {regex: "^git (push|commit)"}}}}}
- {id: b, expect: {tool.called: {args: {command: *re}}}}
- {id: c, expect: {tool.called: {args: {command: {regex: "^git (push|commit)"}, path: &g {glob: "*.md"}}}}}
- {id: d, expect: {tool.absent: {tool: Edit, args: {file_path: *g}}}}
`))
	var res, globs []any
	for _, e := range spec.Expectations {
		for _, m := range e.Kind.Selector.Args {
			if m.re != nil {
				res = append(res, m.re)
			}
			if m.glob != nil {
				globs = append(globs, m.glob)
			}
		}
	}
	if len(res) != 3 || len(globs) != 2 || res[0] != res[1] || res[1] != res[2] || globs[0] != globs[1] {
		t.Fatalf("compiled patterns are not shared: %d regexes %v, %d globs %v", len(res), res, len(globs), globs)
	}
}

// TestAliasBudgetCountsBytes: one 24 KB pattern aliased into a thousand
// expectations expands to 24 MB, past MaxSpecExpansion, and is refused
// while decoding (a node budget let 20,000 of them through: with a regex,
// each compiled on its own, 6 GB). The same document written with few uses
// passes.
func TestAliasBudgetCountsBytes(t *testing.T) {
	doc := func(uses int) []byte {
		var b strings.Builder
		b.WriteString(okHeader)
		fmt.Fprintf(&b, "- {id: r0, expect: {tool.called: {args: {command: &big {contains: %q}}}}}\n", strings.Repeat("a", 24<<10))
		for i := 1; i < uses; i++ {
			fmt.Fprintf(&b, "- {id: r%d, expect: {tool.called: {args: {command: *big}}}}\n", i)
		}
		return []byte(b.String())
	}
	big := doc(1000)
	if len(big) > MaxSpecBytes {
		t.Fatalf("the test document is %d bytes, over MaxSpecBytes", len(big))
	}
	_, refusals := ReadSpec(big)
	if len(refusals) != 1 || refusals[0].Code != CodeSpecShape || !strings.Contains(refusals[0].Message, "expands to more than 16 MiB") {
		t.Fatalf("refusals %v", refusals)
	}
	mustSpec(t, doc(10))
}

// TestSpecSizeAndDepthBounds: a document over MaxSpecBytes, and one nested
// deeper than MaxSpecDepth, are refused with TRACE-SPEC-002.
func TestSpecSizeAndDepthBounds(t *testing.T) {
	huge := append([]byte(okHeader), make([]byte, MaxSpecBytes)...)
	if _, refusals := ReadSpec(huge); len(refusals) != 1 || !strings.Contains(refusals[0].Message, "over the limit of 1 MiB") {
		t.Errorf("oversized spec: %v", refusals)
	}
	deep := okHeader + "- {id: a, expect: {turns: {count: {at_most: 1}}}, statement: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "}\n"
	if _, refusals := ReadSpec([]byte(deep)); len(refusals) != 1 || !strings.Contains(refusals[0].Message, "nests deeper than 64 levels") {
		t.Errorf("deep spec: %v", refusals)
	}
}

// requiredBoundKinds are the 25 kinds whose bound (count, ms or bytes) has
// no default, with a document that writes it null.
var requiredBoundKinds = map[KindName]string{
	KindEnvMCPServers: "count", KindPermissionDenied: "count", KindSubagentSpawned: "count", KindTurns: "count",
	KindAPIRequests: "count", KindEventsAssistant: "count", KindIterations: "count", KindTokensThinking: "count",
	KindThinkingEstimated: "count", KindTokensInput: "count", KindTokensOutput: "count", KindTokensTotal: "count",
	KindCacheReadTokens: "count", KindCacheCreatedTokens: "count", KindToolFailed: "count", KindToolRepeated: "count",
	KindDurationTotal: "ms", KindDurationAPI: "ms", KindTTFT: "ms", KindTimeToRequest: "ms",
	KindTimeInferenceTotal: "ms", KindTimeToolExecTotal: "ms", KindStepGenTime: "ms", KindStepExecTime: "ms",
	KindToolResultBytes: "bytes",
}

// nullBoundDoc is a one-row specification of kind whose bound param is null.
func nullBoundDoc(kind KindName, param string) string {
	return fmt.Sprintf("%s- {id: a, expect: {%s: {%s: null}}}\n", okHeader, kind, param)
}

// TestNullBoundsRefused: a null bound where the kind has no default is a
// clear TRACE-SPEC-002 (it panicked in evaluation), for all 25 such kinds;
// where the kind has a default (`count` of tool.called, skill.invoked,
// skill.completed), null takes it.
func TestNullBoundsRefused(t *testing.T) {
	if len(requiredBoundKinds) != 25 {
		t.Fatalf("%d kinds listed, want 25", len(requiredBoundKinds))
	}
	for kind, param := range requiredBoundKinds {
		_, refusals := ReadSpec([]byte(nullBoundDoc(kind, param)))
		want := fmt.Sprintf("`expectations[0].expect.%s.%s`: expected a bound (a mapping of `at_least`, `at_most` or `exactly`), found null", kind, param)
		if len(refusals) != 1 || refusals[0].Code != CodeSpecShape || refusals[0].Message != want {
			t.Errorf("%s: refusals %v, want %q", kind, refusals, want)
		}
	}
	for _, doc := range []string{
		okHeader + "- {id: a, expect: {tool.called: {tool: Bash, count: null}}}\n",
		okHeader + "- {id: a, expect: {skill.invoked: {skill: s, count: null}}}\n",
		okHeader + "- {id: a, expect: {skill.completed: {skill: s, count: null}}}\n",
	} {
		spec := mustSpec(t, []byte(doc))
		if c := spec.Expectations[0].Kind.Count; c == nil || c.String() != "at least 1" {
			t.Errorf("%s: count %v, want the default at least 1", doc, c)
		}
	}
}

// TestNullParametersNeverPanic writes null for every parameter of every
// row of the fixture specifications in turn: each document is refused or
// checks against both fixture transcripts, and never panics.
func TestNullParametersNeverPanic(t *testing.T) {
	irs := []*IR{
		mustRead(t, readFile(t, "../testdata/trace/transcripts/small.jsonl")),
		mustRead(t, readFile(t, "../testdata/trace/transcripts/events.jsonl")),
	}
	tried := 0
	for _, file := range []string{"../testdata/trace/specs/kinds-ok.trace.yaml", "../testdata/trace/specs/events.trace.yaml"} {
		for _, row := range splitSpec(readFile(t, file)) {
			for _, doc := range nullVariants(string(row)) {
				tried++
				spec, refusals := ReadSpec([]byte(doc))
				if spec == nil {
					if len(refusals) == 0 {
						t.Fatalf("no spec and no refusal for\n%s", doc)
					}
					continue
				}
				for _, ir := range irs {
					if _, err := Check(spec, ir, CheckOptions{}); err != nil {
						t.Fatalf("%v for\n%s", err, doc)
					}
				}
			}
		}
	}
	if tried < 100 {
		t.Fatalf("only %d variants tried", tried)
	}
}

// nullVariants returns doc with the value of each `key: value` pair inside
// its `expect:` replaced by null, one pair at a time (flow-style rows, as
// the fixtures write them).
func nullVariants(doc string) []string {
	at := strings.Index(doc, "expect:")
	if at < 0 {
		return nil
	}
	var out []string
	for i := at + len("expect:"); i < len(doc); i++ {
		if doc[i] != ':' || i+1 >= len(doc) || doc[i+1] != ' ' {
			continue
		}
		end := valueEnd(doc, i+2)
		out = append(out, doc[:i+2]+"null"+doc[end:])
	}
	return slices.Compact(out)
}

// valueEnd returns where the flow value starting at i ends: after its
// balanced brackets or quotes, or at the next `,` or closing bracket.
func valueEnd(doc string, i int) int {
	depth := 0
	for j := i; j < len(doc); j++ {
		switch doc[j] {
		case '"':
			for j++; j < len(doc) && doc[j] != '"'; j++ {
				if doc[j] == '\\' {
					j++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
			if depth == 0 {
				return j + 1
			}
		case ',', '\n':
			if depth == 0 {
				return j
			}
		}
	}
	return len(doc)
}

// TestNumberOutOfRangeRefused: a number no 64-bit float holds is refused as
// serde_json refuses it (the line is not JSON), on every wire and at any
// depth. Read as ±Inf, `total_cost_usd: -1e400` held within `at_most_usd`.
// A number that underflows to 0, or a large one that fits, is read.
func TestNumberOutOfRangeRefused(t *testing.T) {
	long := "1" + strings.Repeat("0", 400)
	for _, line := range []string{
		`{"type":"result","subtype":"success","total_cost_usd":-1e400}`,
		`{"type":"result","subtype":"success","num_turns":` + long + `}`,
		`{"type":"rate_limit_event","rate_limit_info":{"utilization":1.8e308}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","content":[[[{"n":1E+999}]]]}]}}`,
		`{"format":"metaharness.event/1","event":"text","text":"a","x":[1e400]}`,
		`{"timestamp":"t","type":"session_meta","payload":{"n":-2e308}}`,
	} {
		for _, redact := range []bool{false, true} {
			ir, _, refusals, err := ReadStream(strings.NewReader(line+"\n"), ReadOptions{Redact: redact})
			if err != nil || ir != nil || len(refusals) != 1 || refusals[0].Code != CodeAdaptUnreadable || refusals[0].Path != "line[1]" ||
				!strings.Contains(refusals[0].Message, "out of the range of a 64-bit float") {
				t.Errorf("%.60s (redact %t): ir %v, refusals %v, err %v", line, redact, ir != nil, refusals, err)
			}
		}
	}
	for _, line := range []string{
		`{"type":"result","subtype":"success","total_cost_usd":1e-400,"num_turns":` + strings.Repeat("9", 299) + `}`,
		`{"type":"result","subtype":"success","total_cost_usd":1.7976931348623157e308}`,
		// Text that spells such a number is text.
		`{"type":"x","a":"1e400","b":"q\"1e400\\","1e400":[true,false,null,"\u0022 -1e999"]}`,
		`{"type":"x","` + long + `":0.5e-3}`,
	} {
		if _, _, refusals := Read([]byte(line + "\n")); len(refusals) > 0 {
			t.Errorf("%.60s: refused %v", line, refusals)
		}
	}
}

// TestTotalsDoNotWrap: a total of numbers the transcript wrote (tokens, result
// bytes, a hit ratio's denominator, a usage share's sum, step times) that
// does not fit a uint64 is past every at_most, never wrapped round to a
// small number: 2^64 - 1 input tokens and 2 output tokens made 1 token in
// all, within `at_most: 10`.
func TestTotalsDoNotWrap(t *testing.T) {
	const max = "18446744073709551615"
	outcome := fmt.Sprintf(`{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0,`+
		`"usage":{"input_tokens":%s,"output_tokens":2,"cache_read_input_tokens":%s}}`, max, max)
	ir := mustRead(t, []byte(outcome+"\n"))
	spec := mustSpec(t, []byte(okHeader+
		"- {id: total-at-most, expect: {tokens.total: {count: {at_most: 10}}}}\n"+
		"- {id: total-max, expect: {tokens.total: {count: {at_most: "+max+"}}}}\n"+
		"- {id: total-exactly, expect: {tokens.total: {count: {exactly: 1}}}}\n"+
		"- {id: total-at-least, expect: {tokens.total: {count: {at_least: "+max+"}}}}\n"+
		"- {id: hit-half, expect: {cache.hit_ratio: {at_least: 0.4, at_most: 0.6}}}\n"))
	r, err := Check(spec, ir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"total-at-most": VerdictGap, "total-max": VerdictGap, "total-exactly": VerdictGap,
		"total-at-least": VerdictOK, "hit-half": VerdictOK}
	for _, row := range r.Expectations {
		if row.Verdict != want[row.ID] {
			t.Errorf("%s: %s (%s), want %s", row.ID, row.Verdict, row.Outcome.Note, want[row.ID])
		}
		if strings.HasPrefix(row.ID, "total") && !strings.Contains(row.Outcome.Note, "is more than "+max) {
			t.Errorf("%s: note %q", row.ID, row.Outcome.Note)
		}
	}

	// An event stream's result sizes (`bytes`, without content) and its
	// requests' token counts are the wire's to set.
	stream := `{"format":"metaharness.event/1","event":"session.started","at":"2026-01-01T00:00:00Z"}
{"format":"metaharness.event/1","event":"tool.requested","call_id":"a","name":"Read","input":{},"at":"2026-01-01T00:00:01Z"}
{"format":"metaharness.event/1","event":"tool.result","call_id":"a","is_error":false,"bytes":9223372036854775808,"at":"2026-01-01T00:00:02Z"}
{"format":"metaharness.event/1","event":"tool.requested","call_id":"b","name":"Read","input":{},"at":"2026-01-01T00:00:03Z"}
{"format":"metaharness.event/1","event":"tool.result","call_id":"b","is_error":false,"bytes":9223372036854775809,"at":"2026-01-01T00:00:04Z"}
{"format":"metaharness.event/1","event":"usage","request_id":"r1","usage":{"input_tokens":` + max + `}}
{"format":"metaharness.event/1","event":"usage","request_id":"r2","usage":{"input_tokens":` + max + `}}
{"format":"metaharness.event/1","event":"stream.closed","events":7,"reason":"completed"}
`
	ir = mustRead(t, []byte(stream))
	spec = mustSpec(t, []byte(okHeader+
		"- {id: bytes, expect: {tool.result_bytes: {tool: Read, bytes: {at_most: 100}}}}\n"+
		"- {id: share, expect: {usage.share: {field: input_tokens, at_most: 0.6}}}\n"))
	r, err = Check(spec, ir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if row := r.Expectations[0]; row.Verdict != VerdictGap || !strings.Contains(row.Outcome.Note, "more than "+max+"B") {
		t.Errorf("bytes: %s (%s)", row.Verdict, row.Outcome.Note)
	}
	if row := r.Expectations[1]; row.Verdict != VerdictOK || !strings.Contains(row.Outcome.Note, "share 0.5,") {
		t.Errorf("share: %s (%s)", row.Verdict, row.Outcome.Note)
	}
	if c := NewCensus(ir); c.ToolTraffic["Read"].ResultBytes != math.MaxUint64 {
		t.Errorf("census result bytes %d", c.ToolTraffic["Read"].ResultBytes)
	}

	// The denial join adds the vendor's entries to the census's count.
	ir = mustRead(t, []byte(`{"format":"metaharness.event/1","event":"session.ended","subtype":"success","census":{"denied":`+max+`},"permission_denials":[{"tool_use_id":"x"}]}`+"\n"))
	spec = mustSpec(t, []byte(okHeader+"- {id: none, expect: {permission.denied: {count: {at_most: 0}}}}\n"))
	if r, _ = Check(spec, ir, CheckOptions{}); r.Expectations[0].Verdict != VerdictGap {
		t.Errorf("denials: %s (%s)", r.Expectations[0].Verdict, r.Expectations[0].Outcome.Note)
	}
}

// TestStepTimeTotalDoesNotWrap: time.inference_total sums the steps' gen
// times, each at most the span of the timestamps (years 0000 to 9999,
// 315569519999000 ms here); 58456 of them pass 2^64 ms by 187787351992384
// ms, the total the sum wrapped round to, which held within `at_most:
// 1000000000000000` (about 31 years). The total is past every at_most.
func TestStepTimeTotalDoesNotWrap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"system","subtype":"init","model":"m","timestamp":"0000-01-01T00:00:00Z"}` + "\n")
	const steps = 58456
	for i := range steps {
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":"9999-12-31T23:59:59Z","message":{"content":[{"type":"tool_use","id":"c%d","name":"Bash","input":{}}]}}`+"\n", i)
		b.WriteString(`{"type":"rate_limit_event","timestamp":"0000-01-01T00:00:00Z","rate_limit_info":{"status":"allowed"}}` + "\n")
	}
	ir := mustRead(t, []byte(b.String()))
	spec := mustSpec(t, []byte(okHeader+"- {id: fast, expect: {time.inference_total: {ms: {at_most: 1000000000000000}}}}\n"))
	r, err := Check(spec, ir, CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if row := r.Expectations[0]; row.Verdict != VerdictGap || !strings.Contains(row.Outcome.Note, "total more than ") {
		t.Errorf("%s (%s)", row.Verdict, row.Outcome.Note)
	}
}
