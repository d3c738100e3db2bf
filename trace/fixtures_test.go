package trace

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func fixture(t *testing.T, spec, transcript string) (*Spec, *IR) {
	t.Helper()
	return mustSpec(t, readFile(t, filepath.Join("..", "testdata", "trace", "specs", spec))),
		mustRead(t, readFile(t, filepath.Join("..", "testdata", "trace", "transcripts", transcript)))
}

// TestEveryKindOKAndGap: kinds-ok covers all 53 kinds and every row holds;
// kinds-gap covers them again and every row gaps.
func TestEveryKindOKAndGap(t *testing.T) {
	for _, c := range []struct{ spec, verdict string }{{"kinds-ok.trace.yaml", VerdictOK}, {"kinds-gap.trace.yaml", VerdictGap}} {
		spec, ir := fixture(t, c.spec, "small.jsonl")
		r, err := Check(spec, ir, CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		covered := map[KindName]bool{}
		for i, row := range r.Expectations {
			covered[spec.Expectations[i].Kind.Name] = true
			if row.Verdict != c.verdict {
				t.Errorf("%s: %s = %s, want %s (%+v)", c.spec, row.ID, row.Verdict, c.verdict, row.Outcome)
			}
		}
		for _, k := range KindNames() {
			if !covered[k] {
				t.Errorf("%s does not cover kind %s", c.spec, k)
			}
		}
	}
	if n := len(KindNames()); n != 53 {
		t.Errorf("KindNames() has %d kinds, want 53", n)
	}
}

// TestEventStreamFixture checks the event-stream specifics verdict by verdict.
func TestEventStreamFixture(t *testing.T) {
	spec, ir := fixture(t, "events.trace.yaml", "events.jsonl")
	r, _ := Check(spec, ir, CheckOptions{})
	want := map[string]string{
		"called-lower-bound-ok": "ok", "called-lower-bound-gap": "gap", "called-lower-bound-unk": "unknown/opaque_events",
		"argv-joined": "gap", "subject-scope": "ok", "fields-from-content": "ok", "is-error-absent": "gap/result_field_absent",
		"denial-join": "ok", "cut-by-rate-limit": "unknown/run_cut_by_rate_limit", "stop-reason-absent": "unknown/field_absent",
		"operations-available": "ok", "model-not-used": "unknown/model_not_used", "cost-model": "ok", "hit-ratio-zero": "ok",
		"series-one-request": "ok", "no-skill-available": "gap", "plugin-unpinned": "gap",
		"no-thinking-estimate": "unknown/no_thinking_estimate", "order-never": "unknown/never_occurred", "mcp": "gap",
		"skill-completed-none": "unknown/opaque_events",
	}
	for _, row := range r.Expectations {
		got := row.Verdict
		if row.Outcome.Reason != nil {
			got += "/" + row.Outcome.Reason.Code
		}
		if got != want[row.ID] {
			t.Errorf("%s = %s, want %s", row.ID, got, want[row.ID])
		}
	}
	if r.Verdict != VerdictGap || r.ExitCode() != 1 {
		t.Errorf("verdict %s exit %d", r.Verdict, r.ExitCode())
	}
}

// TestCodexFixture checks the Codex rollout reader verdict by verdict: the
// adapter is chosen from the session_meta line, what the rollout records
// decides, what it cannot record is undecidable.
func TestCodexFixture(t *testing.T) {
	spec, ir := fixture(t, "codex.trace.yaml", "codex.jsonl")
	if ir.Adapter.Name != AdapterCodex.Name || ir.StreamClose != nil || ir.RecordsRequests() || len(ir.ClosureMarkers) != 0 {
		t.Fatalf("adapter %s, closure %v, requests recorded %t, markers %v", ir.Adapter.Name, ir.StreamClose, ir.RecordsRequests(), ir.ClosureMarkers)
	}
	r, _ := Check(spec, ir, CheckOptions{})
	want := map[string]string{
		"ran-tests": "ok", "patched-once": "unknown/opaque_events", "never-rm": "unknown/stream_not_closed",
		"shell-never-failed": "unknown/result_field_absent", "api-requests": "unknown/no_requests",
		"assistant-events": "unknown/no_requests", "input-trend": "unknown/no_requests", "model": "unknown/field_absent",
		"harness": "unknown/field_absent", "final-text": "ok", "tests-before-patch": "ok", "no-repeats": "gap",
		"shell-exec-time": "ok", "clean-exit": "unknown/no_run_outcome",
	}
	for _, row := range r.Expectations {
		got := row.Verdict
		if row.Outcome.Reason != nil {
			got += "/" + row.Outcome.Reason.Code
		}
		if got != want[row.ID] {
			t.Errorf("%s = %s, want %s", row.ID, got, want[row.ID])
		}
	}
	c := NewCensus(ir)
	if c.Events != 14 || c.OpaqueEvents != 4 || c.APIRequests != nil || c.AssistantEvents != nil || *c.ToolTraffic["shell"] != (ToolTraffic{2, 0, 2, 122, 124}) {
		t.Errorf("census %+v, shell %+v", c, c.ToolTraffic["shell"])
	}
	if s := ir.Events[ir.calls[1]].Call(); s.Name != "apply_patch" || s.InputBytes != 85 {
		t.Errorf("custom tool call %+v", s)
	}
}

// TestCodexNeverFalse: every row of the kind fixtures whose kind reads
// requests or closure is undecidable on a rollout, which records neither.
func TestCodexNeverFalse(t *testing.T) {
	_, ir := fixture(t, "codex.trace.yaml", "codex.jsonl")
	reads := map[KindName]bool{KindAPIRequests: true, KindEventsAssistant: true, KindUsageTrend: true, KindUsageShare: true, KindToolAbsent: true}
	n := 0
	for _, file := range []string{"kinds-ok.trace.yaml", "kinds-gap.trace.yaml", "events.trace.yaml"} {
		spec := mustSpec(t, readFile(t, filepath.Join("..", "testdata", "trace", "specs", file)))
		r, _ := Check(spec, ir, CheckOptions{})
		for i, row := range r.Expectations {
			if reads[spec.Expectations[i].Kind.Name] {
				n++
				if row.Outcome.Result != ResultUndecidable {
					t.Errorf("%s %s (%s) = %s on a rollout", file, row.ID, row.Kind, row.Outcome.Result)
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d rows checked", n)
	}
}

// TestUndecidableReasons exercises the remaining undecidable reasons on
// transcripts that lack what the kinds read.
func TestUndecidableReasons(t *testing.T) {
	bare := mustRead(t, []byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Bash","input":{"command":"ls"}},{"type":"redacted_thinking"}]}}`+"\n"))
	spec := mustSpec(t, []byte(`format: trace-spec/1
id: reasons
expectations:
- {id: session, expect: {env.model: {equals: x}}}
- {id: outcome, expect: {turns: {count: {at_most: 1}}}}
- {id: rate, expect: {rate_limit.status: {allowed: [allowed]}}}
- {id: text, expect: {text.matches: {contains: x}}}
- {id: requests, expect: {usage.trend: {field: input_tokens, trend: non_decreasing}}}
- {id: scope, expect: {tool.result: {tool: Read, result: {x: {exact: y}}}}}
- {id: no-result, expect: {tool.failed: {tool: Bash, count: {exactly: 0}}}}
- {id: timestamps, expect: {step.exec_time: {tool: Bash, ms: {at_most: 1}}}}
- {id: totals, expect: {time.tool_exec_total: {ms: {at_most: 1}}}}
- {id: absent, expect: {tool.absent: {tool: Write}}}
- {id: bytes, expect: {tool.result_bytes: {bytes: {at_most: 1}}}}
- {id: skill, expect: {skill.invoked: {skill: s, count: {exactly: 0}}}}
`))
	want := []string{"no_session_start", "no_run_outcome", "no_rate_limit_event", "no_final_text", "field_absent",
		"nothing_in_scope", "no_result_correlated", "timestamp_absent", "timestamp_absent", "stream_not_closed",
		"no_result_correlated", "opaque_events"}
	r, _ := Check(spec, bare, CheckOptions{})
	for i, row := range r.Expectations {
		if row.Outcome.Reason == nil || row.Outcome.Reason.Code != want[i] {
			t.Errorf("%s: %+v, want %s", row.ID, row.Outcome, want[i])
		}
		if row.Outcome.Reason != nil && row.Outcome.Reason.Sentence() == row.Outcome.Reason.Code {
			t.Errorf("%s: reason %s has no sentence", row.ID, row.Outcome.Reason.Code)
		}
	}
	if r.Verdict != VerdictUnknown || r.ExitCode() != 3 {
		t.Errorf("verdict %s", r.Verdict)
	}
}

// TestGoldenOutputs pins the text and JSON layouts.
func TestGoldenOutputs(t *testing.T) {
	for _, c := range []struct {
		name, spec, transcript string
		opts                   CheckOptions
		json                   bool
	}{
		{"check-kinds-ok.txt", "kinds-ok.trace.yaml", "small.jsonl", CheckOptions{}, false},
		{"check-kinds-gap.txt", "kinds-gap.trace.yaml", "small.jsonl", CheckOptions{}, false},
		{"check-events.txt", "events.trace.yaml", "events.jsonl", CheckOptions{}, false},
		{"check-events-redact-advisory.txt", "events.trace.yaml", "events.jsonl",
			CheckOptions{Redact: true, Advisory: []string{"called-lower-bound-gap", "argv-joined", "is-error-absent", "no-skill-available", "plugin-unpinned"}}, false},
		{"check-events.json", "events.trace.yaml", "events.jsonl", CheckOptions{Redact: true}, true},
		{"check-codex.txt", "codex.trace.yaml", "codex.jsonl", CheckOptions{}, false},
	} {
		spec, ir := fixture(t, c.spec, c.transcript)
		r, err := Check(spec, ir, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if c.json {
			err = r.WriteJSON(&b)
		} else {
			err = r.WriteText(&b)
		}
		if err != nil {
			t.Fatal(err)
		}
		golden(t, c.name, b.Bytes())
	}
	for _, name := range []string{"small", "events", "codex"} {
		_, ir := fixture(t, "kinds-ok.trace.yaml", name+".jsonl")
		var b bytes.Buffer
		if err := NewCensus(ir).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		golden(t, "inspect-"+name+".txt", b.Bytes())
	}
}

// TestAdvisoryAndRedact: downgrades move the verdict, never the digest;
// redaction hides notes but keeps citations and reasons.
func TestAdvisoryAndRedact(t *testing.T) {
	spec, ir := fixture(t, "events.trace.yaml", "events.jsonl")
	gating := []string{"called-lower-bound-gap", "argv-joined", "is-error-absent", "no-skill-available", "plugin-unpinned"}
	r, err := Check(spec, ir, CheckOptions{Advisory: gating[:4]})
	if err != nil || r.Verdict != VerdictGap {
		t.Fatalf("one gating gap left: %v %v", err, r.Verdict)
	}
	r, _ = Check(spec, ir, CheckOptions{Advisory: gating})
	if r.Verdict != VerdictUnknown || r.SpecDigest != spec.Digest || !slices.Equal(r.AdvisoryOverrides, gating) {
		t.Errorf("all gaps downgraded: verdict %s", r.Verdict)
	}
	if _, err := Check(spec, ir, CheckOptions{Advisory: []string{"nope", "argv-joined", "zzz"}}); err == nil ||
		!strings.Contains(err.Error(), "fixture/events") || !strings.Contains(err.Error(), "`nope`, `zzz`") {
		t.Errorf("unknown advisory ids: %v", err)
	}
	plain, _ := Check(spec, ir, CheckOptions{})
	red, _ := Check(spec, ir, CheckOptions{Redact: true})
	for i, row := range red.Expectations {
		p := plain.Expectations[i]
		if !slices.Equal(row.Outcome.Events, p.Outcome.Events) || row.Verdict != p.Verdict {
			t.Errorf("%s: redaction changed the outcome", row.ID)
		}
		if p.Outcome.Reason == nil && row.Outcome.Note != "sha256:"+sha256Hex(p.Outcome.Note)[:12] {
			t.Errorf("%s: note %q not redacted", row.ID, row.Outcome.Note)
		}
	}
}

// TestEvidence pins the record's YAML shape and the status mapping.
func TestEvidence(t *testing.T) {
	spec, ir := fixture(t, "events.trace.yaml", "events.jsonl")
	r, _ := Check(spec, ir, CheckOptions{Advisory: []string{"argv-joined"}})
	rec, err := NewEvidence(r, "specs/events.trace.yaml", "runs/events.jsonl", 1787270400000)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != StatusFailed || rec.ExpectationsGapped != 6 || rec.ExpectationsUnknown != 7 {
		t.Errorf("record = %+v", rec)
	}
	var y, j bytes.Buffer
	if err := EncodeEvidenceYAML(&y, []*Evidence{rec}); err != nil {
		t.Fatal(err)
	}
	golden(t, "evidence-events.yaml", y.Bytes())
	if err := EncodeEvidenceJSON(&j, []*Evidence{rec}); err != nil {
		t.Fatal(err)
	}
	golden(t, "evidence-events.json", j.Bytes())
	for _, data := range [][]byte{y.Bytes(), j.Bytes()} {
		back, err := DecodeEvidence(data)
		if err != nil || len(back) != 1 || back[0].Provenance.Command != rec.Provenance.Command || back[0].ObservedAt != rec.ObservedAt {
			t.Errorf("round trip: %v %+v", err, back)
		}
	}
	if back, err := DecodeEvidence(append(y.Bytes(), "---\n[]\n"...)); err == nil {
		t.Errorf("evidence with a second document decoded as %+v", back)
	}
	ok, _ := Check(mustSpec(t, []byte("format: trace-spec/1\nid: a\nexpectations:\n- {id: b, expect: {api_requests: {count: {exactly: 1}}}}\n")), ir, CheckOptions{})
	if rec, _ := NewEvidence(ok, "s", "t", 0); rec.Status != StatusPassed || rec.GappedExpectations != nil {
		t.Errorf("passed record = %+v", rec)
	}
	bad := *ok
	bad.TranscriptDigest = "abc"
	if _, err := NewEvidence(&bad, "s", "t", 0); err == nil {
		t.Error("short transcript digest accepted")
	}
}

func TestParseObservedAt(t *testing.T) {
	now := time.Date(2026, 8, 21, 11, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2026-08-21", 1787270400000, true},
		{"2026-08-22", 1787356800000, true}, // begun at UTC+14 (midnight - 14h is 10:00 UTC)
		{"2026-08-23", 0, false},
		{"1787270400000", 1787270400000, true},
		{"0", 0, true},
		{"1787310000001", 0, false}, // one ms after now
		{"-1", 0, false},
		{"yesterday", 0, false},
		{"2026-8-21", 0, false},
		{"1970-01-01", 0, true},
		{"1969-12-31", 0, false}, // before the epoch: a negative time
		{"0000-01-01", 0, false},
	} {
		got, err := ParseObservedAt(c.in, now)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseObservedAt(%q) = %d, %v", c.in, got, err)
		}
	}
}
