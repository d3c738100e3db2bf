package trace

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// The JUnit XML CI systems read (the de-facto schema of Ant's JUnit task,
// as GitLab, Jenkins, GitHub Actions reporters and Buildkite parse it): one
// <testsuite> per transcript, one <testcase> per expectation. A gating gap
// is a <failure>, a gating unknown an <error>, an advisory row passes with
// its verdict in <system-out>. Times are left out: a check has no clock.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes a checked suite as JUnit XML: <testsuites> named by
// the spec id; per transcript a <testsuite> named by its path, with the
// transcript digest, adapter, spec id and digest and verdict as
// properties; per expectation a <testcase> named by its id (classname: the
// spec id). A gap is a <failure> whose text cites the evidence (the note
// and the events), an unknown an <error> naming what was absent (the
// reason, its code and payload), an advisory row passes with its verdict
// in <system-out>. A refused transcript is a <testsuite> with one
// <testcase> `transcript` in <error>, its refusals as the text.
func (s *Suite) WriteJUnit(w io.Writer) error {
	if s.Spec == nil {
		return fmt.Errorf("only a checked suite has a JUnit report")
	}
	doc := junitSuites{Name: s.Spec.ID}
	for i := range s.Transcripts {
		js := s.junitSuite(&s.Transcripts[i])
		doc.Tests += js.Tests
		doc.Failures += js.Failures
		doc.Errors += js.Errors
		doc.Suites = append(doc.Suites, js)
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

func (s *Suite) junitSuite(j *Judged) junitSuite {
	js := junitSuite{Name: j.Name}
	prop := func(name, value string) { js.Properties = append(js.Properties, junitProperty{name, value}) }
	if j.Report != nil {
		prop("transcript_digest", j.Report.TranscriptDigest)
	}
	if j.Adapter.Name != "" {
		prop("adapter", j.Adapter.Name)
	}
	prop("spec_id", s.Spec.ID)
	prop("spec_digest", s.Spec.Digest)
	prop("verdict", j.Verdict())
	if j.Report == nil {
		js.Tests, js.Errors = 1, 1
		js.Cases = []junitCase{{Name: "transcript", Classname: s.Spec.ID, Error: junitRefusal(j)}}
		return js
	}
	for _, row := range j.Report.Expectations {
		c := junitCase{Name: row.ID, Classname: s.Spec.ID}
		detail := rowDetail(row, j.Report.Redacted)
		switch {
		case row.Severity == SeverityAdvisory:
			c.SystemOut = fmt.Sprintf("advisory, %s: %s", row.Verdict, detail)
		case row.Verdict == VerdictGap:
			c.Failure = &junitProblem{Message: detail, Type: VerdictGap, Text: junitEvidence(row, j.Report.Redacted)}
			js.Failures++
		case row.Verdict == VerdictUnknown:
			c.Error = &junitProblem{Message: detail, Type: VerdictUnknown, Text: junitEvidence(row, j.Report.Redacted)}
			js.Errors++
		default:
			c.SystemOut = "ok: " + detail
		}
		js.Cases = append(js.Cases, c)
	}
	js.Tests = len(js.Cases)
	return js
}

// junitEvidence is the text of a failure or error: the expectation, what
// it found and where (what the transcript wrote redacted when the report
// is).
func junitEvidence(row Row, redact bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "expectation %s (%s)\n", row.ID, row.Kind)
	if row.Statement != nil {
		fmt.Fprintf(&b, "statement: %s\n", *row.Statement)
	}
	o := row.Outcome
	if o.Result == ResultUndecidable {
		r := shownReason(o.Reason, redact)
		fmt.Fprintf(&b, "undecidable: %s\nreason: %s %s\n", r.Sentence(), r.Code, marshalNoHTML(r.Payload))
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %s\n", o.Result, o.Note)
	if len(o.Events) > 0 {
		fmt.Fprintf(&b, "cited: %s\n", citeList(o.Events))
	}
	return b.String()
}

// junitRefusal is the <error> of a transcript that was not judged.
func junitRefusal(j *Judged) *junitProblem {
	if j.Err != nil {
		return &junitProblem{Message: "unreadable: " + j.Err.Error(), Type: VerdictRefused, Text: j.Err.Error() + "\n"}
	}
	var text strings.Builder
	for _, d := range j.Refusals {
		text.WriteString(FormatRefusal(d) + "\n")
	}
	return &junitProblem{
		Message: fmt.Sprintf("transcript refused (%s): %d refusal(s)", j.ReadAs(), len(j.Refusals)),
		Type:    VerdictRefused, Text: text.String(),
	}
}
