package evidence

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aepflow/aepflow/predicate"
)

var now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func readAll(t *testing.T) []Record {
	t.Helper()
	data, err := os.ReadFile("testdata/all-kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	recs, diags := ReadDocument("all-kinds.yaml", data, now)
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	return recs
}

func TestProjections(t *testing.T) {
	recs := readAll(t)
	facts := map[string]string{}
	for _, r := range recs {
		r.Project(func(p string, v predicate.Value) { facts[p] = v.String() })
	}
	want := map[string]string{
		"tests.e2e.total": "3", "tests.e2e.result": "failed", "e2e_tests.failed": "1", "test.result": "failed", "test.exists": "true",
		"static_analysis.result": "passed", "static_analysis.warnings": "4",
		"contracts.result": "failed", "contracts.failed": "0", "tests.contract.failed": "0", "contract_tests.failed": "0",
		"property_test.session-isolation.passed": "true", "property_test.session-isolation.seed": "0x5f", "property_test.session-isolation.seed.exists": "true",
		"diff.exists": "true", "diff.files_changed": "2", "diff.lines_added": "0", "source_diff.exists": "true",
		"verification.provenance.status": "failed", "provenance_verified": "false",
		"specification.satisfied": "false", "specification.unsatisfied.count": "1", "specification.requirements.total": "4",
		"review.api-design.approved": "true", "review.design.result": "approved", "review.design.by_human": "true", "review.design.blocking_findings": "0", "review.approved": "true",
		"approval.production-change.granted": "true", "approval.production-change.by_human": "true",
		"artifact.feature-design.sections_present": "true", "artifact.design.sections_present": "true",
		"trace_conformance.passed": "true", "trace_conformance.expectations.unknown": "1", "trace_conformance.spec_digest": "sha256:aa",
		"deployment.production.status": "succeeded", "deployment.previous_revision": "r1", "deployment.succeeded": "true",
		"service.auth.api.health": "degraded", "service.health": "degraded",
	}
	for p, v := range want {
		if facts[p] != v {
			t.Errorf("%s = %q, want %q", p, facts[p], v)
		}
	}
	for _, p := range []string{"review.changes_requested", "review.rejected", "regression_suite.result"} {
		if _, ok := facts[p]; ok {
			t.Errorf("%s projected", p)
		}
	}
}

func TestTestOutcome(t *testing.T) {
	for _, c := range []struct {
		p, f, s float64
		want    string
	}{{0, 0, 0, "inconclusive"}, {0, 0, 2, "passed"}, {3, 0, 0, "passed"}, {3, 1, 0, "failed"}} {
		p := Payload{Kind: "test_result", Fields: map[string]Any{"passed": c.p, "failed": c.f, "skipped": c.s}}
		if got := TestOutcome(p); got != c.want {
			t.Errorf("%v: %s, want %s", c, got, c.want)
		}
	}
}

func TestDocumentRefusals(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"- {kind: diff, producer: {producer: agent, id: a}}", "`observed_at` is missing"},
		{"- {kind: diff, observed_at: 2025-01-02, producer: {producer: agent, id: a}}", "lies in the future [evidence_in_future]"},
		{"- {kind: telepathy, observed_at: 2024-01-01, producer: {producer: agent, id: a}}", "unknown evidence kind `telepathy`"},
		{"- {kind: diff, observed_at: 2024-01-01, producer: {producer: robot, id: a}}", "`producer` must be one of"},
		// A producer with an empty name is refused at the name: the
		// record was dropped without a word, and the document read.
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 5, producer: {producer: verifier, verifier: ''}}", "e.yaml:1:113: `verifier` must name who produced the record, found an empty string [invalid_value]"},
		{"- {kind: diff, observed_at: 2024-01-01, producer: {producer: agent, id: \"\"}}", "`id` must name who produced the record, found an empty string [invalid_value]"},
		{"- {kind: diff, observed_at: 2024-01-01, colour: red, producer: {producer: agent, id: a}}", "unknown key `colour`"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: -1, producer: {producer: agent, id: a}}", "`failed` must be a non-negative integer, found -1 [invalid_value]"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 2.5, producer: {producer: agent, id: a}}", "`failed` must be a non-negative integer, found 2.5 [invalid_value]"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: -3.0, producer: {producer: agent, id: a}}", "`failed` must be a non-negative integer, found -3.0 [invalid_value]"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: '3', producer: {producer: agent, id: a}}", "`failed` must be a non-negative integer, found a string [invalid_value]"},
		{"- {kind: verification, observed_at: 2024-01-01, claim: c, verifier: v, status: great, producer: {producer: agent, id: a}}", "`status` must be one of"},
		{"{kind: diff}", "must be a sequence"},
		{"", "the document must be a list of records, found nothing [wrong_type]"},
		{"# records to come\n", "the document must be a list of records, found nothing [wrong_type]"},
		{"null\n", "the document must be a list of records, found null [wrong_type]"},
		// Numbers are never rounded and are named for what they are.
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 9007199254740993, producer: {producer: agent, id: a}}", "`failed` is `9007199254740993`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -9007199254740992 to 9007199254740992 [invalid_value]"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 9223372036854775807, producer: {producer: agent, id: a}}", "`failed` is `9223372036854775807`, a number out of range"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 1e400, producer: {producer: agent, id: a}}", "`failed` is `1e400`, a number out of range: it is beyond the largest 64-bit float"},
		{"- {kind: test_result, observed_at: 2024-01-01, suite: unit, failed: 1e300, producer: {producer: agent, id: a}}", "`failed` is `1e300`, a number out of range"},
		{"- {kind: metric_observation, observed_at: 2024-01-01, metric: m, value: .nan, producer: {producer: agent, id: a}}", "`value` is `.nan`, which is not a finite number [invalid_value]"},
		// Inside an opaque value, a key holding a dot is named whole.
		{"- {kind: verification, observed_at: 2024-01-01, claim: c, verifier: v, status: failed, counterexamples: {input.size: 1e400}, producer: {producer: agent, id: a}}", "`input.size` is `1e400`, a number out of range"},
	} {
		recs, diags := ReadDocument("e.yaml", []byte(c.doc), now)
		if recs != nil || !strings.Contains(diagText(diags), c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.doc, diagText(diags), c.want)
		}
	}
	// 14 hours ahead is still admitted.
	soon := now.Add(13 * time.Hour).Format("2006-01-02")
	if _, diags := ReadDocument("e.yaml", []byte("- {kind: diff, observed_at: "+soon+", producer: {producer: agent, id: a}}"), now); diags.HasErrors() {
		t.Errorf("a date within 14 hours refused: %v", diags)
	}
}

// TestUnknownKindIsTheOneCause: an unknown kind is the one diagnostic of
// its record; the keys a known kind would have allowed are not blamed as
// unknown, in a record and in an execution's `value`.
func TestUnknownKindIsTheOneCause(t *testing.T) {
	for _, doc := range []string{
		"- {kind: telepathy, observed_at: 2024-01-01, producer: {producer: agent, id: a}, suite: unit}",
		"- {observed_at: 2024-01-01, producer: {producer: agent, id: a}, suite: unit}",
	} {
		_, diags := ReadDocument("e.yaml", []byte(doc), now)
		if len(diags) != 1 || (diags[0].Code != CodeUnknownKind && diags[0].Code != "missing_field") {
			t.Errorf("%s: want the kind's diagnostic alone, got\n%s", doc, diagText(diags))
		}
	}
}

func diagText(l interface{ Err() error }) string {
	if err := l.Err(); err != nil {
		return err.Error()
	}
	return ""
}

func TestRecordJSONRoundTrip(t *testing.T) {
	for i, r := range readAll(t) {
		r.ID, r.ProducedAt = "T-1.1.evidence.1", 1
		var b bytes.Buffer
		r.AppendJSON(&b)
		back := decodeOne(t, b.Bytes())
		var b2 bytes.Buffer
		back.AppendJSON(&b2)
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Errorf("record %d:\n%s\n%s", i, b.Bytes(), b2.Bytes())
		}
	}
}

// TestAppendAnyForm pins the forms in which AppendAny differs on purpose
// from trace.Compact: display-form numbers and encoding/json's escaping of
// U+2028 and invalid UTF-8.
func TestAppendAnyForm(t *testing.T) {
	v := map[string]Any{"n": []Any{1.0, 0.5, 1e16, -2.0}, "s": "<\u2028\b\x01\xff>", "a": nil, "b": true}
	var b bytes.Buffer
	AppendAny(&b, v)
	want := `{"a":null,"b":true,"n":[1,0.5,10000000000000000,-2],"s":"<\u2028\b\u0001\ufffd>"}`
	if b.String() != want {
		t.Errorf("AppendAny = %s\nwant       %s", b.String(), want)
	}
}
