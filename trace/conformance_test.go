package trace

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"
)

// TestConformanceDigests checks the transcript and spec digests of trace.md §8.
func TestConformanceDigests(t *testing.T) {
	dir := sharedCorpus(t)
	transcripts := map[string]string{
		"plugin-eval-7hTYjT.jsonl":                   "143702946b4bf35d3f764a78bee5bac5f530b775f378911352b7c32ecf09dc30",
		"metaharness-driven-honest-step.jsonl":       "0700ebf844b7e0a3c6e1063f3434b979aae54c040276cbc4ca03f81c8b4a4db5",
		"metaharness-closed-stream.jsonl":            "15df0f63c2faf01a04c6b6b3f6add564e43e57f1768c70337eae8fbebf9e09c5",
		"metaharness-attested-complete-stream.jsonl": "e65dfd55377bd1ecb470f1eae02dccf4eb15539544f138421e14026d227e394a",
	}
	for name, want := range transcripts {
		if got := mustRead(t, readFile(t, filepath.Join(dir, name))).TranscriptDigest; got != want {
			t.Errorf("%s: digest %s, want %s", name, got, want)
		}
	}
	specs := map[string]string{
		"expectations.trace.yaml":             "a140611aa53c55cfe96a8b2267b598889f62124bc4939473ce64d855e7ec3fc8",
		"expectations.driven-step.trace.yaml": "ba2bc0ebe98dd9df146bfb269bff6bdc18d12e5c1716e53265888c96fac1527a",
	}
	for name, want := range specs {
		if got := mustSpec(t, readFile(t, filepath.Join(dir, name))).Digest; got != want {
			t.Errorf("%s: digest %s, want %s", name, got, want)
		}
	}
}

// TestConformanceCensus checks the censuses of trace.md §8.
func TestConformanceCensus(t *testing.T) {
	dir := sharedCorpus(t)
	type step struct {
		event     int
		gen, exec int64
	}
	c := NewCensus(mustRead(t, readFile(t, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl"))))
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
	traffic := map[string]ToolTraffic{"Bash": {4, 0, 4, 1116, 2755}, "Edit": {3, 0, 3, 6875, 649}, "Read": {3, 0, 3, 373, 4656}, "Skill": {1, 0, 1, 414, 38}}
	for tool, want := range traffic {
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

	honest := mustRead(t, readFile(t, filepath.Join(dir, "metaharness-driven-honest-step.jsonl")))
	hc := NewCensus(honest)
	if hc.Events != 18 || *hc.APIRequests != 3 || *hc.AssistantEvents != 3 || *hc.InferenceTotalMs != 1706 || *hc.ToolExecTotalMs != 497 {
		t.Errorf("honest census = %+v", hc)
	}
	if b := hc.ToolTraffic["Bash"]; *b != (ToolTraffic{3, 1, 3, 403, 312}) {
		t.Errorf("honest Bash = %+v", b)
	}
	if o, _ := honest.lastOutcome(); *o.PermissionDenials != 1 {
		t.Errorf("honest permission_denials = %d", *o.PermissionDenials)
	}
	if sc := honest.StreamClose; sc.Witness != "closing_event" || *sc.Events != 30 || *sc.Reason != "completed" {
		t.Errorf("honest closure = %+v", sc)
	}

	for name, witness := range map[string]string{"metaharness-closed-stream.jsonl": "closing_event", "metaharness-attested-complete-stream.jsonl": "attestation"} {
		ir := mustRead(t, readFile(t, filepath.Join(dir, name)))
		cc := NewCensus(ir)
		if cc.Events != 5 || cc.OpaqueEvents != 1 || *cc.APIRequests != 0 || cc.InferenceTotalMs != nil || *cc.ToolExecTotalMs != 200 {
			t.Errorf("%s census = %+v", name, cc)
		}
		if *cc.ToolTraffic["Read"] != (ToolTraffic{1, 0, 1, 44, 2}) {
			t.Errorf("%s Read = %+v", name, cc.ToolTraffic["Read"])
		}
		if ir.StreamClose == nil || ir.StreamClose.Witness != witness || *ir.StreamClose.Reason != "completed" {
			t.Errorf("%s closure = %+v", name, ir.StreamClose)
		}
	}
}

// TestConformanceVerdicts checks the spec × transcript table of trace.md §8.
func TestConformanceVerdicts(t *testing.T) {
	dir := sharedCorpus(t)
	full := readFile(t, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl"))
	trimmed := bytes.TrimSuffix(full, []byte("\n"))
	trimmed = trimmed[:bytes.LastIndexByte(trimmed, '\n')+1]
	honest := readFile(t, filepath.Join(dir, "metaharness-driven-honest-step.jsonl"))
	big := mustSpec(t, readFile(t, filepath.Join(dir, "expectations.trace.yaml")))
	driven := mustSpec(t, readFile(t, filepath.Join(dir, "expectations.driven-step.trace.yaml")))
	// trace.md §8 says "24 advisory"; the document declares 23 `severity:
	// advisory` rows (a 24th occurrence of the phrase is in a comment).
	cases := []struct {
		name                       string
		spec                       *Spec
		transcript                 []byte
		ok, gap, unknown, advisory int
		verdict                    string
		gaps                       []string
	}{
		{"big×7hTYjT", big, full, 43, 0, 0, 23, VerdictOK, nil},
		{"driven×honest", driven, honest, 12, 0, 0, 3, VerdictOK, nil},
		{"driven×7hTYjT", driven, full, 12, 0, 0, 3, VerdictOK, nil},
		{"big×honest", big, honest, 40, 3, 0, 23, VerdictGap, []string{"the-run-did-not-ask", "the-cli-never-refused-a-shell-call", "no-permission-denials"}},
		{"big×7hTYjT-cut", big, trimmed, 25, 0, 18, 23, VerdictUnknown, nil},
	}
	for _, c := range cases {
		r, err := Check(c.spec, mustRead(t, c.transcript), CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := r.Summary
		adv := 0
		var gaps []string
		for _, row := range r.Expectations {
			if row.Severity == SeverityAdvisory {
				adv++
			}
			if row.Verdict == VerdictGap {
				gaps = append(gaps, row.ID)
			}
		}
		if s.OK != c.ok || s.Gap != c.gap || s.Unknown != c.unknown || adv != c.advisory || r.Verdict != c.verdict || !slices.Equal(gaps, c.gaps) {
			t.Errorf("%s: summary %+v adv %d verdict %s gaps %v", c.name, s, adv, r.Verdict, gaps)
		}
	}
}

// TestConformanceCitations checks the cited events and reasons of trace.md §8.
func TestConformanceCitations(t *testing.T) {
	dir := sharedCorpus(t)
	full := readFile(t, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl"))
	r, _ := Check(mustSpec(t, readFile(t, filepath.Join(dir, "expectations.trace.yaml"))), mustRead(t, full), CheckOptions{})
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
	trimmed := bytes.TrimSuffix(full, []byte("\n"))
	trimmed = trimmed[:bytes.LastIndexByte(trimmed, '\n')+1]
	r, _ = Check(mustSpec(t, readFile(t, filepath.Join(dir, "expectations.trace.yaml"))), mustRead(t, trimmed), CheckOptions{})
	reasons := map[string]string{"no-destructive-shell": "stream_not_closed", "terminal-record-clean": "no_run_outcome",
		"no-permission-denials": "no_run_outcome", "the-plugin-loads-fast": "no_run_outcome"}
	for _, row := range r.Expectations {
		if row.Severity == SeverityGate && row.Verdict == VerdictUnknown {
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
		r, _ := Check(spec, mustRead(t, readFile(t, filepath.Join(dir, name))), CheckOptions{})
		if r.Expectations[0].Verdict != VerdictOK || r.Expectations[1].Verdict != VerdictGap || !slices.Equal(r.Expectations[1].Outcome.Events, []int{2}) {
			t.Errorf("%s: %+v", name, r.Expectations)
		}
	}
}

// TestConformanceEnvCases checks the ok/gap pairs trace.md §9 names on 7hTYjT.
func TestConformanceEnvCases(t *testing.T) {
	dir := sharedCorpus(t)
	ir := mustRead(t, readFile(t, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl")))
	spec := mustSpec(t, []byte(`format: trace-spec/1
id: env
expectations:
- {id: model-ok, expect: {env.model: {equals: claude-sonnet-5}}}
- {id: model-gap, expect: {env.model: {equals: sonnet}}}
- {id: task-gap, expect: {env.tool_available: {tool: Task, available: false}}}
- {id: exclusive-gap, expect: {env.exclusive: {plugins: [aep, track]}}}
`))
	r, _ := Check(spec, ir, CheckOptions{})
	want := []string{VerdictOK, VerdictGap, VerdictGap, VerdictGap}
	for i, row := range r.Expectations {
		if row.Verdict != want[i] {
			t.Errorf("%s = %s, want %s", row.ID, row.Verdict, want[i])
		}
	}
}

// TestConformanceLowerBound is the §3.7 example on the closed stream.
func TestConformanceLowerBound(t *testing.T) {
	dir := sharedCorpus(t)
	ir := mustRead(t, readFile(t, filepath.Join(dir, "metaharness-closed-stream.jsonl")))
	spec := mustSpec(t, []byte(`format: trace-spec/1
id: lower-bound
expectations:
- {id: at-least, expect: {tool.called: {tool: Read, count: {at_least: 1}}}}
- {id: at-most, expect: {tool.called: {tool: Read, count: {at_most: 0}}}}
- {id: exactly, expect: {tool.called: {tool: Read, count: {exactly: 1}}}}
`))
	r, _ := Check(spec, ir, CheckOptions{})
	if r.Expectations[0].Verdict != VerdictOK || r.Expectations[1].Verdict != VerdictGap || r.Expectations[2].Verdict != VerdictUnknown {
		t.Fatalf("%+v", r.Expectations)
	}
	reason := r.Expectations[2].Outcome.Reason
	if reason.Code != "opaque_events" || !slices.Equal(reason.Payload["events"].([]int), []int{1}) || !slices.Equal(reason.Payload["types"].([]string), []string{"system"}) {
		t.Errorf("reason = %+v", reason)
	}
}
