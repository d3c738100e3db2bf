package conformance

import (
	"bytes"
	"slices"
	"testing"

	"github.com/aepflow/aepflow/trace"
)

func init() { register(traceCases...) }

var traceCases = []Case{
	// The project's own transcripts and specifications (testdata/trace).
	{Name: "trace/own-inspect", Steps: []Step{
		{Args: []string{"aepflow", "trace", "inspect", "--transcript", "$TESTDATA/trace/transcripts/small.jsonl"}, Golden: "trace/inspect-small.txt"},
		{Args: []string{"aepflow", "trace", "inspect", "--transcript", "$TESTDATA/trace/transcripts/events.jsonl", "--format", "json"}, Golden: "trace/inspect-events.json"},
	}},
	{Name: "trace/own-check", Steps: []Step{
		{Args: []string{"aepflow", "trace", "check", "--spec", "$TESTDATA/trace/specs/kinds-ok.trace.yaml", "--transcript", "$TESTDATA/trace/transcripts/small.jsonl"},
			Exit: 0, Stdout: []string{`^conformant: `}},
		{Args: []string{"aepflow", "trace", "check", "--spec", "$TESTDATA/trace/specs/kinds-gap.trace.yaml", "--transcript", "$TESTDATA/trace/transcripts/small.jsonl"},
			Exit: 1, Stdout: []string{`^not conformant: `}},
		{Args: []string{"aepflow", "trace", "check", "--spec", "$TESTDATA/trace/specs/events.trace.yaml", "--transcript", "$TESTDATA/trace/transcripts/events.jsonl"},
			Exit: 1, Golden: "trace/check-events.txt"},
	}},
	{Name: "trace/own-evidence", Steps: []Step{
		// The record goes to a file; evaluate then reads it as evidence.
		{Args: []string{"aepflow", "trace", "evidence", "--spec", "$TESTDATA/trace/specs/kinds-ok.trace.yaml", "--transcript", "$TESTDATA/trace/transcripts/small.jsonl",
			"--observed-at", "2026-08-21", "--out", "evidence/trace.yaml"}, Exit: 0, Files: map[string]string{"evidence/trace.yaml": "trace/evidence-kinds-ok.yaml"}},
		{Args: []string{"aepflow", "evaluate", "--task", "$TESTDATA/project/.engineering/task.yaml", "--root", "$TESTDATA/project/tree",
			"--evidence", "evidence/trace.yaml", "--facts"}, Stdout: []string{`^evidence.count.trace_conformance = 1$`}},
	}},
	{Name: "trace/own-refusals", Setup: func(t *testing.T, e *Env) {
		writeFile(t, e, "bad.trace.yaml", "format: trace-spec/1\nid: bad\nexpectations: []\nsurprise: 1\n")
	}, Steps: []Step{
		{Args: []string{"aepflow", "trace", "check", "--spec", "bad.trace.yaml", "--transcript", "$TESTDATA/trace/transcripts/small.jsonl"},
			Exit: 1, NoStdout: true, Stderr: []string{`TRACE-SPEC-00`}},
		{Args: []string{"aepflow", "trace", "inspect", "--transcript", "$WORK"}, Exit: 1, NoStdout: true},
	}},

	// From cmd/aepflow/testdata/script/trace_shared.txtar: the acceptance
	// table of trace.md §8 through the command line.
	{Name: "trace/corpus-cli", Shared: true, Steps: []Step{
		{Args: []string{"aepflow", "trace", "inspect", "--transcript", "$SHARED/corpus/trace/plugin-eval-7hTYjT.jsonl"},
			Stdout: []string{`^transcript   sha256:143702946b4bf35d3f764a78bee5bac5f530b775f378911352b7c32ecf09dc30$`,
				`^time-split   inference 27761ms, tool-exec 415ms across 11 step\(s\)$`}},
		{Args: []string{"aepflow", "trace", "check", "--spec", "$SHARED/corpus/trace/expectations.trace.yaml", "--transcript", "$SHARED/corpus/trace/plugin-eval-7hTYjT.jsonl"},
			Stdout: []string{`— 43 ok, 0 gap, 0 unk$`, `^spec sha256:a140611aa53c…  adapter claude-code/stream-json$`}},
		{Args: []string{"aepflow", "trace", "check", "--spec", "$SHARED/corpus/trace/expectations.driven-step.trace.yaml", "--transcript", "$SHARED/corpus/trace/metaharness-driven-honest-step.jsonl"},
			Stdout: []string{`— 12 ok, 0 gap, 0 unk$`}},
		{Args: []string{"aepflow", "trace", "check", "--spec", "$SHARED/corpus/trace/expectations.trace.yaml", "--transcript", "$SHARED/corpus/trace/metaharness-driven-honest-step.jsonl"},
			Exit: 1, Stdout: []string{`— 40 ok, 3 gap, 0 unk$`, `the-run-did-not-ask, the-cli-never-refused-a-shell-call, no-permission-denials \(exit 1\)$`}},
		{Args: []string{"aepflow", "trace", "evidence", "--spec", "$SHARED/corpus/trace/expectations.driven-step.trace.yaml", "--transcript", "$SHARED/corpus/trace/metaharness-driven-honest-step.jsonl", "--observed-at", "2026-08-21"},
			Stdout: []string{`^  status: passed$`, `^  spec_digest: ba2bc0ebe98dd9df146bfb269bff6bdc18d12e5c1716e53265888c96fac1527a$`}},
	}},

	// From trace/conformance_test.go: trace.md §8 and §9 through the API.
	{Name: "trace/corpus-digests", Shared: true, Check: traceDigests},
	{Name: "trace/corpus-census", Shared: true, Check: traceCensus},
	{Name: "trace/corpus-verdicts", Shared: true, Check: traceVerdicts},
	{Name: "trace/corpus-citations", Shared: true, Check: traceCitations},
	{Name: "trace/corpus-env-cases", Shared: true, Check: traceEnvCases},
	{Name: "trace/corpus-lower-bound", Shared: true, Check: traceLowerBound},
}

func mustRead(t testing.TB, data []byte) *trace.IR {
	t.Helper()
	ir, _, refusals := trace.Read(data)
	if len(refusals) > 0 {
		t.Fatalf("transcript refused: %v", refusals)
	}
	return ir
}

func mustSpec(t testing.TB, data []byte) *trace.Spec {
	t.Helper()
	s, refusals := trace.ReadSpec(data)
	if len(refusals) > 0 {
		t.Fatalf("spec refused: %v", refusals)
	}
	return s
}

func corpusTrace(t testing.TB, e *Env, name string) []byte {
	t.Helper()
	return readFile(t, e.SharedPath("corpus", "trace", name))
}

// lastOutcome returns the last run_outcome of ir, or nil.
func lastOutcome(ir *trace.IR) *trace.RunOutcome {
	for i := len(ir.Events) - 1; i >= 0; i-- {
		if o := ir.Events[i].Outcome(); o != nil {
			return o
		}
	}
	return nil
}

// traffic is a tool's traffic: calls, errors, results, input and result
// bytes.
func traffic(calls, errors, results int, in, out uint64) trace.ToolTraffic {
	return trace.ToolTraffic{Calls: calls, Errors: errors, Results: results, InputBytes: in, ResultBytes: out}
}

// traceDigests checks the transcript and spec digests of trace.md §8.
func traceDigests(t *testing.T, e *Env) {
	transcripts := map[string]string{
		"plugin-eval-7hTYjT.jsonl":                   "143702946b4bf35d3f764a78bee5bac5f530b775f378911352b7c32ecf09dc30",
		"metaharness-driven-honest-step.jsonl":       "0700ebf844b7e0a3c6e1063f3434b979aae54c040276cbc4ca03f81c8b4a4db5",
		"metaharness-closed-stream.jsonl":            "15df0f63c2faf01a04c6b6b3f6add564e43e57f1768c70337eae8fbebf9e09c5",
		"metaharness-attested-complete-stream.jsonl": "e65dfd55377bd1ecb470f1eae02dccf4eb15539544f138421e14026d227e394a",
	}
	for name, want := range transcripts {
		if got := mustRead(t, corpusTrace(t, e, name)).TranscriptDigest; got != want {
			t.Errorf("%s: digest %s, want %s", name, got, want)
		}
	}
	specs := map[string]string{
		"expectations.trace.yaml":             "a140611aa53c55cfe96a8b2267b598889f62124bc4939473ce64d855e7ec3fc8",
		"expectations.driven-step.trace.yaml": "ba2bc0ebe98dd9df146bfb269bff6bdc18d12e5c1716e53265888c96fac1527a",
	}
	for name, want := range specs {
		if got := mustSpec(t, corpusTrace(t, e, name)).Digest; got != want {
			t.Errorf("%s: digest %s, want %s", name, got, want)
		}
	}
}

// traceCensus checks the censuses of trace.md §8.
func traceCensus(t *testing.T, e *Env) {
	type step struct {
		event     int
		gen, exec int64
	}
	c := trace.NewCensus(mustRead(t, corpusTrace(t, e, "plugin-eval-7hTYjT.jsonl")))
	wantFamilies := map[string]int{"assistant_text": 6, "assistant_thinking": 2, "rate_limit": 1, "run_outcome": 1,
		"session_start": 1, "synthetic_injection": 1, "thinking_estimate": 2, "tool_call": 11, "tool_result": 11}
	if c.Events != 36 || c.OpaqueEvents != 0 || *c.AssistantEvents != 19 || *c.APIRequests != 8 || c.RepeatedCallGroups != 0 {
		t.Errorf("7hTYjT census = %+v", c)
	}
	for f, n := range wantFamilies {
		if c.EventsByFamily[f] != n {
			t.Errorf("7hTYjT %s = %d, want %d", f, c.EventsByFamily[f], n)
		}
	}
	wantTraffic := map[string]trace.ToolTraffic{"Bash": traffic(4, 0, 4, 1116, 2755), "Edit": traffic(3, 0, 3, 6875, 649),
		"Read": traffic(3, 0, 3, 373, 4656), "Skill": traffic(1, 0, 1, 414, 38)}
	for tool, want := range wantTraffic {
		if got := c.ToolTraffic[tool]; got == nil || *got != want {
			t.Errorf("7hTYjT %s traffic = %+v, want %+v", tool, got, want)
		}
	}
	steps := []step{{5, 1486, 35}, {10, 1290, 187}, {13, 1088, 21}, {15, 3205, 38}, {18, 555, 36}, {20, 560, 6},
		{22, 305, 16}, {25, 8742, 26}, {27, 5968, 28}, {29, 4482, 9}, {32, 80, 13}}
	if len(c.Steps) != len(steps) {
		t.Fatalf("7hTYjT steps = %d", len(c.Steps))
	}
	for i, s := range steps {
		got := c.Steps[i]
		if got.CallEvent != s.event || got.GenMs == nil || *got.GenMs != s.gen || got.ExecMs == nil || *got.ExecMs != s.exec {
			t.Errorf("7hTYjT step %d = %+v, want %+v", i, got, s)
		}
	}
	if *c.InferenceTotalMs != 27761 || *c.ToolExecTotalMs != 415 {
		t.Errorf("7hTYjT time split %d/%d", *c.InferenceTotalMs, *c.ToolExecTotalMs)
	}

	honest := mustRead(t, corpusTrace(t, e, "metaharness-driven-honest-step.jsonl"))
	hc := trace.NewCensus(honest)
	if hc.Events != 18 || *hc.APIRequests != 3 || *hc.AssistantEvents != 3 || *hc.InferenceTotalMs != 1706 || *hc.ToolExecTotalMs != 497 {
		t.Errorf("honest census = %+v", hc)
	}
	if b := hc.ToolTraffic["Bash"]; *b != traffic(3, 1, 3, 403, 312) {
		t.Errorf("honest Bash = %+v", b)
	}
	if o := lastOutcome(honest); o == nil || o.PermissionDenials == nil || *o.PermissionDenials != 1 {
		t.Errorf("honest permission_denials = %+v", o)
	}
	if sc := honest.StreamClose; sc.Witness != "closing_event" || *sc.Events != 30 || *sc.Reason != "completed" {
		t.Errorf("honest closure = %+v", sc)
	}

	for name, witness := range map[string]string{"metaharness-closed-stream.jsonl": "closing_event", "metaharness-attested-complete-stream.jsonl": "attestation"} {
		ir := mustRead(t, corpusTrace(t, e, name))
		cc := trace.NewCensus(ir)
		if cc.Events != 5 || cc.OpaqueEvents != 1 || *cc.APIRequests != 0 || cc.InferenceTotalMs != nil || *cc.ToolExecTotalMs != 200 {
			t.Errorf("%s census = %+v", name, cc)
		}
		if *cc.ToolTraffic["Read"] != traffic(1, 0, 1, 44, 2) {
			t.Errorf("%s Read = %+v", name, cc.ToolTraffic["Read"])
		}
		if ir.StreamClose == nil || ir.StreamClose.Witness != witness || *ir.StreamClose.Reason != "completed" {
			t.Errorf("%s closure = %+v", name, ir.StreamClose)
		}
	}
}

// trimmed returns the 7hTYjT transcript without its last record.
func trimmed(full []byte) []byte {
	cut := bytes.TrimSuffix(full, []byte("\n"))
	return cut[:bytes.LastIndexByte(cut, '\n')+1]
}

// traceVerdicts checks the spec × transcript table of trace.md §8.
func traceVerdicts(t *testing.T, e *Env) {
	full := corpusTrace(t, e, "plugin-eval-7hTYjT.jsonl")
	honest := corpusTrace(t, e, "metaharness-driven-honest-step.jsonl")
	big := mustSpec(t, corpusTrace(t, e, "expectations.trace.yaml"))
	driven := mustSpec(t, corpusTrace(t, e, "expectations.driven-step.trace.yaml"))
	// trace.md §8 says "24 advisory"; the document declares 23 `severity:
	// advisory` rows (a 24th occurrence of the phrase is in a comment).
	cases := []struct {
		name                       string
		spec                       *trace.Spec
		transcript                 []byte
		ok, gap, unknown, advisory int
		verdict                    string
		gaps                       []string
	}{
		{"big×7hTYjT", big, full, 43, 0, 0, 23, trace.VerdictOK, nil},
		{"driven×honest", driven, honest, 12, 0, 0, 3, trace.VerdictOK, nil},
		{"driven×7hTYjT", driven, full, 12, 0, 0, 3, trace.VerdictOK, nil},
		{"big×honest", big, honest, 40, 3, 0, 23, trace.VerdictGap, []string{"the-run-did-not-ask", "the-cli-never-refused-a-shell-call", "no-permission-denials"}},
		{"big×7hTYjT-cut", big, trimmed(full), 25, 0, 18, 23, trace.VerdictUnknown, nil},
	}
	for _, c := range cases {
		r, err := trace.Check(c.spec, mustRead(t, c.transcript), trace.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := r.Summary
		adv := 0
		var gaps []string
		for _, row := range r.Expectations {
			if row.Severity == trace.SeverityAdvisory {
				adv++
			}
			if row.Verdict == trace.VerdictGap {
				gaps = append(gaps, row.ID)
			}
		}
		if s.OK != c.ok || s.Gap != c.gap || s.Unknown != c.unknown || adv != c.advisory || r.Verdict != c.verdict || !slices.Equal(gaps, c.gaps) {
			t.Errorf("%s: summary %+v adv %d verdict %s gaps %v", c.name, s, adv, r.Verdict, gaps)
		}
	}
}

// traceCitations checks the cited events and reasons of trace.md §8.
func traceCitations(t *testing.T, e *Env) {
	full := corpusTrace(t, e, "plugin-eval-7hTYjT.jsonl")
	big := corpusTrace(t, e, "expectations.trace.yaml")
	r, _ := trace.Check(mustSpec(t, big), mustRead(t, full), trace.CheckOptions{})
	want := map[string][]int{
		"consulted-the-skill-before-touching-the-store": {5, 10},
		"created-through-the-cli":                       {13, 15},
		"validated-its-own-work":                        {32},
		"skill-completed":                               {5, 6},
	}
	for _, row := range r.Expectations {
		if w, ok := want[row.ID]; ok && !slices.Equal(row.Outcome.Events, w) {
			t.Errorf("%s cites %v, want %v", row.ID, row.Outcome.Events, w)
		}
	}
	r, _ = trace.Check(mustSpec(t, big), mustRead(t, trimmed(full)), trace.CheckOptions{})
	reasons := map[string]string{"no-destructive-shell": "stream_not_closed", "terminal-record-clean": "no_run_outcome",
		"no-permission-denials": "no_run_outcome", "the-plugin-loads-fast": "no_run_outcome"}
	for _, row := range r.Expectations {
		if row.Severity == trace.SeverityGate && row.Verdict == trace.VerdictUnknown {
			if reasons[row.ID] != row.Outcome.Reason.Code {
				t.Errorf("gating unknown %s: reason %s", row.ID, row.Outcome.Reason.Code)
			}
			delete(reasons, row.ID)
		}
	}
	if len(reasons) > 0 {
		t.Errorf("missing gating unknowns: %v", reasons)
	}
	spec := mustSpec(t, []byte("format: trace-spec/1\nid: closed\nexpectations:\n- {id: no-write, expect: {tool.absent: {tool: Write}}}\n- {id: no-read, expect: {tool.absent: {operations: [file.read]}}}\n"))
	for _, name := range []string{"metaharness-closed-stream.jsonl", "metaharness-attested-complete-stream.jsonl"} {
		r, _ := trace.Check(spec, mustRead(t, corpusTrace(t, e, name)), trace.CheckOptions{})
		if r.Expectations[0].Verdict != trace.VerdictOK || r.Expectations[1].Verdict != trace.VerdictGap || !slices.Equal(r.Expectations[1].Outcome.Events, []int{2}) {
			t.Errorf("%s: %+v", name, r.Expectations)
		}
	}
}

// traceEnvCases checks the ok/gap pairs trace.md §9 names on 7hTYjT.
func traceEnvCases(t *testing.T, e *Env) {
	ir := mustRead(t, corpusTrace(t, e, "plugin-eval-7hTYjT.jsonl"))
	spec := mustSpec(t, []byte(`format: trace-spec/1
id: env
expectations:
- {id: model-ok, expect: {env.model: {equals: claude-sonnet-5}}}
- {id: model-gap, expect: {env.model: {equals: sonnet}}}
- {id: task-gap, expect: {env.tool_available: {tool: Task, available: false}}}
- {id: exclusive-gap, expect: {env.exclusive: {plugins: [aep, track]}}}
`))
	r, _ := trace.Check(spec, ir, trace.CheckOptions{})
	want := []string{trace.VerdictOK, trace.VerdictGap, trace.VerdictGap, trace.VerdictGap}
	for i, row := range r.Expectations {
		if row.Verdict != want[i] {
			t.Errorf("%s = %s, want %s", row.ID, row.Verdict, want[i])
		}
	}
}

// traceLowerBound is the §3.7 example on the closed stream.
func traceLowerBound(t *testing.T, e *Env) {
	ir := mustRead(t, corpusTrace(t, e, "metaharness-closed-stream.jsonl"))
	spec := mustSpec(t, []byte(`format: trace-spec/1
id: lower-bound
expectations:
- {id: at-least, expect: {tool.called: {tool: Read, count: {at_least: 1}}}}
- {id: at-most, expect: {tool.called: {tool: Read, count: {at_most: 0}}}}
- {id: exactly, expect: {tool.called: {tool: Read, count: {exactly: 1}}}}
`))
	r, _ := trace.Check(spec, ir, trace.CheckOptions{})
	if r.Expectations[0].Verdict != trace.VerdictOK || r.Expectations[1].Verdict != trace.VerdictGap || r.Expectations[2].Verdict != trace.VerdictUnknown {
		t.Fatalf("%+v", r.Expectations)
	}
	reason := r.Expectations[2].Outcome.Reason
	if reason.Code != "opaque_events" || !slices.Equal(reason.Payload["events"].([]int), []int{1}) || !slices.Equal(reason.Payload["types"].([]string), []string{"system"}) {
		t.Errorf("reason = %+v", reason)
	}
}
