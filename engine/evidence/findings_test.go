package evidence

import (
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
)

// reviewEntry is an approved review whose findings are findings (YAML flow
// text), as an evidence-document entry on one line.
func reviewEntry(findings string) string {
	return "- {kind: review, observed_at: 2024-05-01, subject: change, subject_kind: design, reviewer: {reviewer: human}, disposition: approved, findings: " +
		findings + ", producer: {producer: human, id: ada}}\n"
}

// reviewSnapshot is the same review as a snapshot record (JSON).
func reviewSnapshot(findings string) string {
	return `{"id": "T-1.1.evidence.1", "observed_at": 1714521600000, "produced_at": 1714521600000,` +
		` "producer": {"producer": "human", "id": "ada"}, "value": {"kind": "review", "subject": "change", "subject_kind": "design",` +
		` "reviewer": {"reviewer": "human"}, "disposition": "approved", "findings": ` + findings + `}}`
}

// TestFindingsTyped: a review finding is typed where the payload is read
// (engine.md §6.3 `findings?[{severity, summary, location?,
// blocking=false}]`), in an evidence document and a snapshot record alike.
// `blocking: null`, `"yes"` or `1` counted as not blocking, so the review
// read as approved: each is now refused at the value, as are a finding
// that is not a mapping, one without `severity` or `summary`, a key that
// is not a string where a string is due, and a key the shape does not
// name.
func TestFindingsTyped(t *testing.T) {
	for _, c := range []struct {
		name, yaml, json string
		path, want       string
		// at is the text the refusal stands at: its first occurrence in
		// the findings (the whole findings when empty).
		at string
	}{
		{"blocking null", "[{severity: high, summary: s, blocking: null}]", `[{"severity": "high", "summary": "s", "blocking": null}]`,
			"findings[0].blocking", "`blocking` must be a boolean, found null [wrong_type]", `null`},
		{"blocking tilde", "[{severity: high, summary: s, blocking: ~}]", "",
			"findings[0].blocking", "`blocking` must be a boolean, found null [wrong_type]", `~`},
		{"blocking yes", "[{severity: high, summary: s, blocking: \"yes\"}]", `[{"severity": "high", "summary": "s", "blocking": "yes"}]`,
			"findings[0].blocking", "`blocking` must be a boolean, found a string [wrong_type]", `"yes"`},
		{"blocking bare yes", "[{severity: high, summary: s, blocking: yes}]", "",
			"findings[0].blocking", "`blocking` must be a boolean, found a string [wrong_type]", `yes`},
		{"blocking one", "[{severity: high, summary: s, blocking: 1}]", `[{"severity": "high", "summary": "s", "blocking": 1}]`,
			"findings[0].blocking", "`blocking` must be a boolean, found an integer [wrong_type]", `1`},
		{"blocking list", "[{severity: high, summary: s, blocking: [true]}]", `[{"severity": "high", "summary": "s", "blocking": [true]}]`,
			"findings[0].blocking", "`blocking` must be a boolean, found a sequence [wrong_type]", `[true]`},
		{"findings null", "null", `null`,
			"findings", "`findings` must be a list of findings, found null [wrong_type]", ""},
		{"findings mapping", "{severity: high, summary: s, blocking: true}", `{"severity": "high", "summary": "s", "blocking": true}`,
			"findings", "`findings` must be a list of findings, found a mapping [wrong_type]", ""},
		{"findings string", "blocking", `"blocking"`,
			"findings", "`findings` must be a list of findings, found a string [wrong_type]", ""},
		{"finding string", "[blocking]", `["blocking"]`,
			"findings[0]", "`findings[0]` must be a mapping, found a string [wrong_type]", `blocking`},
		{"finding null", "[null]", `[null]`,
			"findings[0]", "`findings[0]` must be a mapping, found null [wrong_type]", `null`},
		{"no severity", "[{summary: s, blocking: true}]", `[{"summary": "s", "blocking": true}]`,
			"findings[0]", "the required key `severity` is missing [missing_field]", `{`},
		{"no summary", "[{severity: high, blocking: true}]", `[{"severity": "high", "blocking": true}]`,
			"findings[0]", "the required key `summary` is missing [missing_field]", `{`},
		{"severity number", "[{severity: 3, summary: s}]", `[{"severity": 3, "summary": "s"}]`,
			"findings[0].severity", "`severity` must be a string, found an integer [wrong_type]", `3`},
		{"summary null", "[{severity: high, summary: null}]", `[{"severity": "high", "summary": null}]`,
			"findings[0].summary", "`summary` must be a string, found null [wrong_type]", `null`},
		{"location mapping", "[{severity: high, summary: s, location: {line: 3}}]", `[{"severity": "high", "summary": "s", "location": {"line": 3}}]`,
			"findings[0].location", "`location` must be a string, found a mapping [wrong_type]", `{line`},
		{"unknown key", "[{severity: high, summary: s, blocks: true}]", `[{"severity": "high", "summary": "s", "blocks": true}]`,
			"findings[0].blocks", "unknown key `blocks` [unknown_field]", `blocks`},
	} {
		t.Run(c.name, func(t *testing.T) {
			entry := reviewEntry(c.yaml)
			recs, ds := ReadDocument("e.yaml", []byte(entry), now)
			if recs != nil {
				t.Fatalf("admitted:\n%s", entry)
			}
			start := strings.Index(entry, "findings: ") + len("findings: ")
			wantAt(t, ds, "[0]."+c.path, c.want, 1, start+strings.Index(entry[start:], c.at)+1, entry)
			if c.json == "" {
				return
			}
			snap := reviewSnapshot(c.json)
			doc, ds := yamldoc.Parse("s.json", []byte(snap))
			r := yamldoc.NewReader(doc, &ds)
			if _, ok := ReadRecord(r, doc.Root, "record"); ok && !ds.HasErrors() {
				t.Fatalf("snapshot record admitted:\n%s", snap)
			}
			wantAt(t, ds, "record.value."+c.path, c.want, 0, 0, snap)
		})
	}
}

// wantAt wants exactly one error, at path with message want (and at
// line:col when line is not 0).
func wantAt(t *testing.T, ds diag.List, path, want string, line, col int, input string) {
	t.Helper()
	var errs diag.List
	for _, d := range ds {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want one error at %s, got %d: %v\n%s", path, len(errs), errs, input)
	}
	d := errs[0]
	if got := d.Message + " [" + d.Code + "]"; d.Path != path || got != want {
		t.Errorf("got %s at %s, want %s at %s\n%s", got, d.Path, want, path, input)
	}
	if line != 0 && (d.Pos.Line != line || d.Pos.Column != col) {
		t.Errorf("at %d:%d, want %d:%d\n%s", d.Pos.Line, d.Pos.Column, line, col, input)
	}
}

// TestBlockingFindings: a finding blocks when `blocking: true`, and only
// then; an approved review with one is not approved (engine.md §2.5).
func TestBlockingFindings(t *testing.T) {
	for _, c := range []struct {
		findings         string
		blocking         string
		approved, result string
	}{
		{"[]", "0", "true", "approved"},
		{"[{severity: low, summary: nit}]", "0", "true", "approved"},
		{"[{severity: low, summary: nit, blocking: false, location: \"a.go:3\"}]", "0", "true", "approved"},
		{"[{severity: high, summary: leak, blocking: true}]", "1", "false", "approved"},
		{"[{severity: high, summary: leak, blocking: true}, {severity: low, summary: nit}, {severity: high, summary: race, blocking: True}]", "2", "false", "approved"},
	} {
		entry := reviewEntry(c.findings)
		recs, ds := ReadDocument("e.yaml", []byte(entry), now)
		if ds.HasErrors() || len(recs) != 1 {
			t.Fatalf("refused: %v\n%s", ds, entry)
		}
		facts := map[string]string{}
		recs[0].Project(func(p string, v predicate.Value) { facts[p] = v.String() })
		if facts["review.design.blocking_findings"] != c.blocking || facts["review.approved"] != c.approved || facts["review.design.approved"] != c.approved || facts["review.result"] != c.result {
			t.Errorf("%s: %v", c.findings, facts)
		}
	}
}

// TestUnsatisfiedTyped: `specification.unsatisfied.count` is the length
// of `unsatisfied`, so `unsatisfied` is a list: a string, a mapping or a
// number was read as no list, the count fell to 0 and
// `specification.unsatisfied.count == 0` held for a specification that
// named what it left unsatisfied. Its items stay opaque.
func TestUnsatisfiedTyped(t *testing.T) {
	entry := func(v string) string {
		return "- {kind: specification, observed_at: 2024-05-01, satisfied: false, unsatisfied: " + v + ", producer: {producer: verifier, verifier: test-runner}}\n"
	}
	for _, c := range []struct{ value, want string }{
		{`"R-1, R-2"`, "`unsatisfied` must be a list, found a string [wrong_type]"},
		{"{R-1: open}", "`unsatisfied` must be a list, found a mapping [wrong_type]"},
		{"2", "`unsatisfied` must be a list, found an integer [wrong_type]"},
		{"null", "`unsatisfied` must be a list, found null [wrong_type]"},
	} {
		e := entry(c.value)
		recs, ds := ReadDocument("e.yaml", []byte(e), now)
		if recs != nil {
			t.Fatalf("admitted:\n%s", e)
		}
		wantAt(t, ds, "[0].unsatisfied", c.want, 1, strings.Index(e, "unsatisfied: ")+len("unsatisfied: ")+1, e)
	}
	for _, c := range []struct{ value, count string }{{"[]", "0"}, {"[R-1, R-2]", "2"}, {"[{id: R-1}, 3, null]", "3"}} {
		e := entry(c.value)
		recs, ds := ReadDocument("e.yaml", []byte(e), now)
		if ds.HasErrors() || len(recs) != 1 {
			t.Fatalf("refused: %v\n%s", ds, e)
		}
		facts := map[string]string{}
		recs[0].Project(func(p string, v predicate.Value) { facts[p] = v.String() })
		if got := facts["specification.unsatisfied.count"]; got != c.count {
			t.Errorf("%s: count %s, want %s", c.value, got, c.count)
		}
	}
}
