package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/internal/suggest"
)

// ReportFormat is the format tag of a check report.
const ReportFormat = "trace-report/1"

// Verdicts of a row and of a whole report, as JSON spells them.
const (
	VerdictOK      = "ok"
	VerdictGap     = "gap"
	VerdictUnknown = "unknown"
)

// CheckOptions changes how a check reports, never what it finds.
type CheckOptions struct {
	// Advisory lists expectation ids downgraded to advisory for this run;
	// an id given twice counts once.
	Advisory []string
	// Redact replaces every ok/gap note by `sha256:` and 12 hex of its digest.
	Redact bool
}

// Report is the result of checking a transcript against a specification
// (`trace-report/1`, trace.md §6.2).
type Report struct {
	Format            string   `json:"format"`
	SpecID            string   `json:"spec_id"`
	SpecTitle         *string  `json:"spec_title"`
	SpecDigest        string   `json:"spec_digest"`
	TranscriptDigest  string   `json:"transcript_digest"`
	Adapter           Adapter  `json:"adapter"`
	Redacted          bool     `json:"redacted"`
	AdvisoryOverrides []string `json:"advisory_overrides"`
	Summary           Summary  `json:"summary"`
	Verdict           string   `json:"verdict"`
	Expectations      []Row    `json:"expectations"`
}

// Summary counts all rows by row verdict.
type Summary struct {
	Total           int `json:"total"`
	OK              int `json:"ok"`
	Gap             int `json:"gap"`
	Unknown         int `json:"unknown"`
	AdvisoryGap     int `json:"advisory_gap"`
	AdvisoryUnknown int `json:"advisory_unknown"`
}

// Row is one expectation's line of the report.
type Row struct {
	ID        string  `json:"id"`
	Statement *string `json:"statement"`
	Kind      string  `json:"kind"`
	Severity  string  `json:"severity"`
	Outcome   Outcome `json:"outcome"`
	Verdict   string  `json:"verdict"`
}

// advisoryIDs returns the --advisory ids as a run takes them: each once,
// in the order first given. An id given twice is one downgrade, so it is
// listed once in the report, the record and its provenance.
func advisoryIDs(ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// UnknownAdvisory returns the ids of ids the spec does not declare, each
// once, in the order given.
func UnknownAdvisory(spec *Spec, ids []string) []string {
	var unknown []string
	for _, id := range advisoryIDs(ids) {
		if !slices.ContainsFunc(spec.Expectations, func(e Expectation) bool { return e.ID == id }) {
			unknown = append(unknown, id)
		}
	}
	return unknown
}

// ValidateAdvisory returns an error naming the spec id and every id of ids
// the spec does not declare, or nil.
func ValidateAdvisory(spec *Spec, ids []string) error {
	unknown := UnknownAdvisory(spec, ids)
	if len(unknown) == 0 {
		return nil
	}
	msg := fmt.Sprintf("specification `%s` declares no expectation %s", spec.ID, backtickJoin(unknown, ", "))
	declared := make([]string, len(spec.Expectations))
	for i, e := range spec.Expectations {
		declared[i] = e.ID
	}
	if best, ok := suggest.Closest(unknown[0], declared); ok && len(unknown) == 1 {
		msg += fmt.Sprintf("; did you mean `%s`?", best)
	}
	return errors.New(msg)
}

// Check evaluates every expectation of spec against ir. It fails only when
// opts.Advisory names an id the spec does not declare.
func Check(spec *Spec, ir *IR, opts CheckOptions) (*Report, error) {
	if err := ValidateAdvisory(spec, opts.Advisory); err != nil {
		return nil, err
	}
	r := &Report{
		Format: ReportFormat, SpecID: spec.ID, SpecTitle: spec.Title, SpecDigest: spec.Digest,
		TranscriptDigest: ir.TranscriptDigest, Adapter: ir.Adapter, Redacted: opts.Redact,
		AdvisoryOverrides: advisoryIDs(opts.Advisory),
	}
	for i := range spec.Expectations {
		r.Expectations = append(r.Expectations, checkRow(ir, &spec.Expectations[i], opts))
	}
	r.tally()
	return r, nil
}

func checkRow(ir *IR, e *Expectation, opts CheckOptions) Row {
	sev := e.Severity
	if slices.Contains(opts.Advisory, e.ID) {
		sev = SeverityAdvisory
	}
	o := evaluate(ir, &e.Kind)
	if opts.Redact && o.Result != ResultUndecidable {
		o.Note = redactText(o.Note)
	}
	verdict := VerdictOK
	switch o.Result {
	case ResultGap:
		verdict = VerdictGap
	case ResultUndecidable:
		verdict = VerdictUnknown
		if e.OnUnknown == OnUnknownGap {
			verdict = VerdictGap
		}
	}
	return Row{ID: e.ID, Statement: e.Statement, Kind: string(e.Kind.Name), Severity: sev, Outcome: o, Verdict: verdict}
}

// tally fills the summary and the overall verdict (gating rows only).
func (r *Report) tally() {
	s := Summary{Total: len(r.Expectations)}
	gateGap, gateUnknown := false, false
	for _, row := range r.Expectations {
		adv := row.Severity == SeverityAdvisory
		switch row.Verdict {
		case VerdictOK:
			s.OK++
		case VerdictGap:
			s.Gap++
			if adv {
				s.AdvisoryGap++
			} else {
				gateGap = true
			}
		case VerdictUnknown:
			s.Unknown++
			if adv {
				s.AdvisoryUnknown++
			} else {
				gateUnknown = true
			}
		}
	}
	r.Summary = s
	switch {
	case gateGap:
		r.Verdict = VerdictGap
	case gateUnknown:
		r.Verdict = VerdictUnknown
	default:
		r.Verdict = VerdictOK
	}
}

// ExitCode is the exit code of `check` for this report: 0 ok, 1 gap, 3 unknown.
func (r *Report) ExitCode() int {
	switch r.Verdict {
	case VerdictGap:
		return 1
	case VerdictUnknown:
		return 3
	}
	return 0
}

// WriteJSON writes the report as pretty JSON with a trailing newline.
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteText writes the report in the layout of trace.md §6.2, each line
// escaped (see textLines).
func (r *Report) WriteText(w io.Writer) error {
	var l textLines
	r.writeText(&l)
	return l.writeTo(w)
}

func (r *Report) writeText(l *textLines) {
	s := r.Summary
	l.printf("%s against transcript sha256:%s… — %d ok, %d gap, %d unk",
		r.SpecID, r.TranscriptDigest[:12], s.OK, s.Gap, s.Unknown)
	if r.SpecTitle != nil {
		l.printf("  %s", *r.SpecTitle)
	}
	width := 0
	for _, row := range r.Expectations {
		width = max(width, len([]rune(row.ID)))
	}
	for _, row := range r.Expectations {
		l.printf("  %-9s %s  %s", rowStatus(row), padRight(row.ID, width), rowDetail(row, r.Redacted))
	}
	l.printf("spec sha256:%s…  adapter %s", r.SpecDigest[:12], r.Adapter.Name)
	if len(r.AdvisoryOverrides) > 0 {
		l.printf("advisory: %s downgraded for this run; the spec digest is of the document as authored",
			backtickJoin(r.AdvisoryOverrides, ", "))
	}
	footer := "Notes quote command strings and file paths from the transcript; pass --redact to cite indices and digests only. "
	if r.Redacted {
		footer = "Redacted: citations are event indices and digests only. "
	}
	l.printf("%sTranscript sha256:%s", footer, r.TranscriptDigest)
	l.printf("%s", r.sentence())
}

// shownReason is the reason as a text or JUnit report shows it: redacted
// (Reason.Redacted) when the report is.
func shownReason(r *Reason, redact bool) *Reason {
	if redact {
		return r.Redacted()
	}
	return r
}

func padRight(s string, width int) string {
	return s + strings.Repeat(" ", width-len([]rune(s)))
}

func rowStatus(row Row) string {
	st := map[string]string{VerdictOK: "ok", VerdictGap: "gap", VerdictUnknown: "unk"}[row.Verdict]
	if row.Severity == SeverityAdvisory {
		st += " (adv)"
	}
	return st
}

// rowDetail is a row's detail: its note and citations, or the sentence of
// its undecidable reason (redacted when the report is, see shownReason).
func rowDetail(row Row, redact bool) string {
	o := row.Outcome
	if o.Result == ResultUndecidable {
		return shownReason(o.Reason, redact).Sentence()
	}
	if len(o.Events) == 0 {
		return o.Note
	}
	return o.Note + " at " + citeList(o.Events)
}

// sentence is the text report's closing verdict sentence.
func (r *Report) sentence() string {
	s := r.Summary
	switch r.Verdict {
	case VerdictGap:
		var ids []string
		for _, row := range r.Expectations {
			if row.Verdict == VerdictGap && row.Severity != SeverityAdvisory {
				ids = append(ids, row.ID)
			}
		}
		return fmt.Sprintf("not conformant: %d gating expectation(s) gap: %s (exit 1)", len(ids), strings.Join(ids, ", "))
	case VerdictUnknown:
		n := 0
		for _, row := range r.Expectations {
			if row.Verdict == VerdictUnknown && row.Severity != SeverityAdvisory {
				n++
			}
		}
		return fmt.Sprintf("undecided: %d gating expectation(s) could not be decided from this transcript; the transcript format, not the agent, needs attention (exit 3)", n)
	}
	if s.Unknown > 0 {
		return fmt.Sprintf("conformant: every gating expectation holds; %d row(s) that gate nothing are unknown or advisory gaps (exit 0)", s.Unknown+s.AdvisoryGap)
	}
	return "conformant: every gating expectation holds (exit 0)"
}
