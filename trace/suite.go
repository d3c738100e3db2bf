package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
)

// Suite formats and the verdict of a transcript that could not be judged.
const (
	// SuiteFormat tags the JSON of a checked suite.
	SuiteFormat = "trace-suite/1"
	// CensusSuiteFormat tags the JSON of an inspected suite.
	CensusSuiteFormat = "trace-census-suite/1"
	// VerdictRefused is the verdict of a transcript that was refused
	// (TRACE-ADAPT-00n) or could not be read at all.
	VerdictRefused = "refused"
)

// Source is one transcript of a suite: its name as reports show it (the
// path as given, or as found in a directory) and how to open it. The suite
// closes what Open returns.
type Source struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// Judged is what became of one transcript of a suite: a report (a checked
// suite) or a census (an inspected one), or the refusals, or the error
// that kept it from being read.
type Judged struct {
	Name string
	// Adapter is the reader chosen for the transcript (zero when it could
	// not be read).
	Adapter  Adapter
	Report   *Report
	Census   *Census
	Refusals diag.List
	Err      error
}

// ReadAs says how the transcript was read, as the header of its refusals
// prints it (trace.md §6.3: the wire selected): `read as NAME`, or, when
// no reader was chosen because its first non-blank line is over the line
// bound (ReadStream returns no adapter then), that no format was detected.
func (j *Judged) ReadAs() string {
	if j.Adapter.Name == "" {
		return "no format detected: its first non-blank line is over the line bound"
	}
	return "read as " + j.Adapter.Name
}

// Refused reports whether the transcript was refused or unreadable.
func (j *Judged) Refused() bool { return j.Err != nil || len(j.Refusals) > 0 }

// Verdict is the transcript's verdict: the report's (`ok`, `gap`,
// `unknown`), `ok` for a census, or `refused`.
func (j *Judged) Verdict() string {
	switch {
	case j.Refused():
		return VerdictRefused
	case j.Report != nil:
		return j.Report.Verdict
	}
	return VerdictOK
}

// Suite is several transcripts judged against one specification (or
// inspected), each with its own report, in the order of its sources.
type Suite struct {
	// Spec is the specification checked, nil for an inspected suite.
	Spec        *Spec
	Transcripts []Judged
}

// CheckSuite reads and checks every source against spec, with workers
// transcripts in flight at once (at least one; zero means GOMAXPROCS).
// Each read keeps only what spec reads (Spec.Keep), and an IR is released
// as soon as its report is made, so a suite holds its reports, never its
// transcripts. A redacted check (opts.Redact) reads redacted too
// (ReadOptions.Redact), so that its refusals quote no transcript text. It
// fails only when opts.Advisory names an id the spec does not declare.
func CheckSuite(spec *Spec, sources []Source, opts CheckOptions, read ReadOptions, workers int) (*Suite, error) {
	if err := ValidateAdvisory(spec, opts.Advisory); err != nil {
		return nil, err
	}
	if read.Keep == nil {
		read.Keep = spec.Keep()
	}
	read.Redact = read.Redact || opts.Redact
	judged := judgeAll(sources, workers, func(src Source) Judged {
		j, ir := readSource(src, read)
		if ir != nil {
			j.Report, _ = Check(spec, ir, opts) // the advisory ids are valid
		}
		return j
	})
	return &Suite{Spec: spec, Transcripts: judged}, nil
}

// InspectSuite reads every source and takes its census, as CheckSuite
// does; the IRs keep no input or result field (a census reads none).
func InspectSuite(sources []Source, read ReadOptions, workers int) *Suite {
	if read.Keep == nil {
		read.Keep = KeepNothing
	}
	judged := judgeAll(sources, workers, func(src Source) Judged {
		j, ir := readSource(src, read)
		if ir != nil {
			j.Census = NewCensus(ir)
		}
		return j
	})
	return &Suite{Transcripts: judged}
}

// readSource opens and reads one transcript.
func readSource(src Source, read ReadOptions) (Judged, *IR) {
	j := Judged{Name: src.Name}
	f, err := src.Open()
	if err != nil {
		j.Err = err
		return j, nil
	}
	defer f.Close()
	ir, adapter, refusals, err := ReadStream(f, read)
	j.Adapter, j.Refusals, j.Err = adapter, refusals, err
	if err != nil {
		j.Adapter = Adapter{}
		return j, nil
	}
	return j, ir
}

// judgeAll runs judge over sources on workers goroutines and returns the
// results in source order.
func judgeAll(sources []Source, workers int, judge func(Source) Judged) []Judged {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([]Judged, len(sources))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(sources)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(sources) {
					return
				}
				out[i] = judge(sources[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// Verdict is the suite's: `refused` if any transcript was refused, else
// `gap` if any is contradicted, else `unknown` if any is undecided, else
// `ok`.
func (s *Suite) Verdict() string {
	worst := VerdictOK
	rank := map[string]int{VerdictOK: 0, VerdictUnknown: 1, VerdictGap: 2, VerdictRefused: 3}
	for i := range s.Transcripts {
		if v := s.Transcripts[i].Verdict(); rank[v] > rank[worst] {
			worst = v
		}
	}
	return worst
}

// ExitCode is the suite's exit code, the worst verdict's: 1 if any
// transcript is contradicted or refused, else 3 if any is undecided, else
// 0 (trace.md §6.3, per transcript).
func (s *Suite) ExitCode() int {
	switch s.Verdict() {
	case VerdictGap, VerdictRefused:
		return 1
	case VerdictUnknown:
		return 3
	}
	return 0
}

// counts tallies the transcripts by verdict.
func (s *Suite) counts() map[string]int {
	c := map[string]int{}
	for i := range s.Transcripts {
		c[s.Transcripts[i].Verdict()]++
	}
	return c
}

// namesWith lists the transcripts with verdict v, at most ten, then how
// many more.
func (s *Suite) namesWith(v string) string {
	var names []string
	more := 0
	for i := range s.Transcripts {
		if s.Transcripts[i].Verdict() != v {
			continue
		}
		if len(names) < 10 {
			names = append(names, s.Transcripts[i].Name)
		} else {
			more++
		}
	}
	out := strings.Join(names, ", ")
	if more > 0 {
		out += fmt.Sprintf(" and %d more", more)
	}
	return out
}

// WriteText writes each transcript's section — a `== NAME` line, then its
// report or census, or what kept it from one — and the summary table with
// the closing sentence, each line escaped (see textLines).
func (s *Suite) WriteText(w io.Writer) error {
	var l textLines
	for i := range s.Transcripts {
		j := &s.Transcripts[i]
		l.printf("== %s", j.Name)
		switch {
		case j.Err != nil:
			l.printf("unreadable: %v", j.Err)
		case len(j.Refusals) > 0:
			l.printf("refused (%s): %d refusal(s), listed on standard error", j.ReadAs(), len(j.Refusals))
		case j.Report != nil:
			j.Report.writeText(&l)
		case j.Census != nil:
			j.Census.writeText(&l)
		}
		l.blank()
	}
	if s.Spec != nil {
		s.writeCheckSummary(&l)
	} else {
		s.writeCensusSummary(&l)
	}
	return l.writeTo(w)
}

func (s *Suite) writeCheckSummary(l *textLines) {
	c := s.counts()
	l.printf("suite %s: %d transcript(s) — %d ok, %d gap, %d unknown, %d refused",
		s.Spec.ID, len(s.Transcripts), c[VerdictOK], c[VerdictGap], c[VerdictUnknown], c[VerdictRefused])
	rows := [][]string{{"transcript", "adapter", "ok", "gap", "unk", "verdict"}}
	for i := range s.Transcripts {
		j := &s.Transcripts[i]
		row := []string{j.Name, adapterName(j), "-", "-", "-", j.Verdict()}
		if r := j.Report; r != nil {
			row[2], row[3], row[4] = strconv.Itoa(r.Summary.OK), strconv.Itoa(r.Summary.Gap), strconv.Itoa(r.Summary.Unknown)
		}
		rows = append(rows, row)
	}
	writeTable(l, rows, 2, 3, 4)
	switch s.Verdict() {
	case VerdictRefused, VerdictGap:
		var parts []string
		if c[VerdictGap] > 0 {
			parts = append(parts, fmt.Sprintf("%d transcript(s) contradicted: %s", c[VerdictGap], s.namesWith(VerdictGap)))
		}
		if c[VerdictRefused] > 0 {
			parts = append(parts, fmt.Sprintf("%d transcript(s) refused: %s", c[VerdictRefused], s.namesWith(VerdictRefused)))
		}
		l.printf("not conformant: %s (exit 1)", strings.Join(parts, "; "))
	case VerdictUnknown:
		l.printf("undecided: %d transcript(s) could not be decided: %s; the transcript format, not the agent, needs attention (exit 3)",
			c[VerdictUnknown], s.namesWith(VerdictUnknown))
	default:
		l.printf("conformant: every gating expectation holds on every transcript (exit 0)")
	}
}

func (s *Suite) writeCensusSummary(l *textLines) {
	c := s.counts()
	l.printf("suite: %d transcript(s) — %d read, %d refused", len(s.Transcripts), c[VerdictOK], c[VerdictRefused])
	rows := [][]string{{"transcript", "adapter", "events", "unread", "calls", "verdict"}}
	for i := range s.Transcripts {
		j := &s.Transcripts[i]
		row := []string{j.Name, adapterName(j), "-", "-", "-", "read"}
		if cs := j.Census; cs != nil {
			calls := 0
			for _, t := range cs.ToolTraffic {
				calls += t.Calls
			}
			row[2], row[3], row[4] = strconv.Itoa(cs.Events), strconv.Itoa(cs.OpaqueEvents), strconv.Itoa(calls)
		} else {
			row[5] = VerdictRefused
		}
		rows = append(rows, row)
	}
	writeTable(l, rows, 2, 3, 4)
	if c[VerdictRefused] > 0 {
		l.printf("%d transcript(s) refused: %s (exit 1)", c[VerdictRefused], s.namesWith(VerdictRefused))
		return
	}
	l.printf("every transcript was read (exit 0)")
}

func adapterName(j *Judged) string {
	if j.Adapter.Name == "" {
		return "-"
	}
	return j.Adapter.Name
}

// writeTable writes rows indented by two spaces, columns padded to their
// widest cell (in characters, as printed) and separated by two spaces; the
// columns in right are aligned right.
func writeTable(l *textLines, rows [][]string, right ...int) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i := range r {
			r[i] = printable(r[i])
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	isRight := map[int]bool{}
	for _, i := range right {
		isRight[i] = true
	}
	for _, r := range rows {
		var cells []string
		for i, cell := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			switch {
			case isRight[i]:
				cells = append(cells, pad+cell)
			case i == len(r)-1:
				cells = append(cells, cell)
			default:
				cells = append(cells, cell+pad)
			}
		}
		l.printf("  %s", strings.Join(cells, "  "))
	}
}

// suiteJSON is the JSON of a suite (trace-suite/1, trace-census-suite/1).
type suiteJSON struct {
	Format      string           `json:"format"`
	SpecID      string           `json:"spec_id,omitempty"`
	SpecDigest  string           `json:"spec_digest,omitempty"`
	Verdict     string           `json:"verdict"`
	Summary     map[string]int   `json:"summary"`
	Transcripts []transcriptJSON `json:"transcripts"`
}

type transcriptJSON struct {
	Path     string        `json:"path"`
	Adapter  *Adapter      `json:"adapter"`
	Verdict  string        `json:"verdict"`
	Report   *Report       `json:"report,omitempty"`
	Census   *Census       `json:"census,omitempty"`
	Refusals []refusalJSON `json:"refusals,omitempty"`
	Error    string        `json:"error,omitempty"`
}

type refusalJSON struct {
	Code     string `json:"code"`
	Location string `json:"location"`
	Message  string `json:"message"`
}

// WriteJSON writes the suite as pretty JSON with a trailing newline: the
// spec, the verdict, the counts by verdict and every transcript with its
// report (trace-report/1) or census, or its refusals or error.
func (s *Suite) WriteJSON(w io.Writer) error {
	doc := suiteJSON{Format: CensusSuiteFormat, Verdict: s.Verdict(), Transcripts: []transcriptJSON{}}
	if s.Spec != nil {
		doc.Format, doc.SpecID, doc.SpecDigest = SuiteFormat, s.Spec.ID, s.Spec.Digest
	}
	c := s.counts()
	doc.Summary = map[string]int{"transcripts": len(s.Transcripts), VerdictRefused: c[VerdictRefused]}
	if s.Spec != nil {
		doc.Summary[VerdictOK], doc.Summary[VerdictGap], doc.Summary[VerdictUnknown] = c[VerdictOK], c[VerdictGap], c[VerdictUnknown]
	} else {
		doc.Summary["read"] = c[VerdictOK]
	}
	for i := range s.Transcripts {
		j := &s.Transcripts[i]
		t := transcriptJSON{Path: j.Name, Verdict: j.Verdict(), Report: j.Report, Census: j.Census}
		if j.Adapter.Name != "" {
			a := j.Adapter
			t.Adapter = &a
		}
		for _, d := range j.Refusals {
			t.Refusals = append(t.Refusals, refusalJSON{Code: d.Code, Location: d.Path, Message: d.Message})
		}
		if j.Err != nil {
			t.Error = j.Err.Error()
		}
		doc.Transcripts = append(doc.Transcripts, t)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
