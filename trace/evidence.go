package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/aepflow/aepflow/internal/shquote"
)

// EvidenceKind is the kind of the record `evidence` mints.
const EvidenceKind = "trace_conformance"

// Statuses of a trace_conformance record.
const (
	StatusPassed       = "passed"
	StatusFailed       = "failed"
	StatusInconclusive = "inconclusive"
)

// Evidence is a trace_conformance evidence record (trace.md §7). Field order
// is the record's key order in YAML and JSON.
type Evidence struct {
	Kind                string     `json:"kind" yaml:"kind"`
	Specification       string     `json:"specification" yaml:"specification"`
	SpecDigest          string     `json:"spec_digest" yaml:"spec_digest"`
	TranscriptDigest    string     `json:"transcript_digest" yaml:"transcript_digest"`
	Status              string     `json:"status" yaml:"status"`
	ExpectationsTotal   int        `json:"expectations_total" yaml:"expectations_total"`
	ExpectationsGapped  int        `json:"expectations_gapped" yaml:"expectations_gapped"`
	ExpectationsUnknown int        `json:"expectations_unknown" yaml:"expectations_unknown"`
	AdvisoryOverrides   []string   `json:"advisory_overrides,omitempty" yaml:"advisory_overrides,omitempty"`
	Adapter             string     `json:"adapter" yaml:"adapter"`
	GappedExpectations  []string   `json:"gapped_expectations,omitempty" yaml:"gapped_expectations,omitempty"`
	ObservedAt          int64      `json:"observed_at" yaml:"observed_at"`
	Producer            Producer   `json:"producer" yaml:"producer"`
	Provenance          Provenance `json:"provenance" yaml:"provenance"`
}

// Producer names who minted a record; for trace evidence it is constant.
type Producer struct {
	Producer string `json:"producer" yaml:"producer"`
	Verifier string `json:"verifier" yaml:"verifier"`
}

// Provenance says how the record was produced.
type Provenance struct {
	Command string   `json:"command" yaml:"command"`
	Inputs  []string `json:"inputs" yaml:"inputs"`
}

// The digest patterns, compiled on first use: a process that mints no
// evidence record (the transition hook) does not pay for them at start-up.
var (
	specDigestRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{16,64}$`) })
	transcriptDigestRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })
)

// NewEvidence mints the record of a report. specPath and transcriptPath are
// the inputs as the user gave them, kept so in the provenance's inputs and
// quoted for a POSIX shell in its command (shquote); observedAt is epoch
// milliseconds.
func NewEvidence(r *Report, specPath, transcriptPath string, observedAt int64) (*Evidence, error) {
	if !specDigestRe().MatchString(r.SpecDigest) {
		return nil, fmt.Errorf("spec digest `%s` is not 16 to 64 lowercase hex", r.SpecDigest)
	}
	if !transcriptDigestRe().MatchString(r.TranscriptDigest) {
		return nil, fmt.Errorf("transcript digest `%s` is not 64 lowercase hex", r.TranscriptDigest)
	}
	// The provenance holds the paths as given, and a record is text: a
	// path that is not UTF-8 was written by the YAML encoder as !!binary,
	// which the engine refuses (`command` must be a string), and by the
	// JSON encoder with U+FFFD in place of its bytes, naming a file that
	// is not there. Refused, as a record that cannot say what it judged.
	for _, p := range []struct{ flag, path string }{{"--spec", specPath}, {"--transcript", transcriptPath}} {
		if !utf8.ValidString(p.path) {
			return nil, fmt.Errorf("cannot mint a record of %s `%s`: the path is not UTF-8, and a record holds its inputs' paths as text; rename the file", p.flag, p.path)
		}
	}
	status := map[string]string{VerdictOK: StatusPassed, VerdictGap: StatusFailed, VerdictUnknown: StatusInconclusive}[r.Verdict]
	var gapped []string
	for _, row := range r.Expectations {
		if row.Verdict == VerdictGap {
			gapped = append(gapped, row.ID)
		}
	}
	// The command trace.md §7 writes, each argument quoted for a POSIX
	// shell when it needs it: a path with a space, a quote or a `$` was
	// joined as it is, and the command did not run what minted the record.
	args := []string{"aepflow", "trace", "evidence", "--spec", specPath, "--transcript", transcriptPath}
	for _, id := range r.AdvisoryOverrides {
		args = append(args, "--advisory", id)
	}
	cmd := shquote.Join(args...)
	adapter := r.Adapter.Name
	if len(r.Adapter.WrittenAgainst) > 0 {
		adapter += " (written against " + strings.Join(r.Adapter.WrittenAgainst, ", ") + ")"
	}
	return &Evidence{
		Kind: EvidenceKind, Specification: r.SpecID, SpecDigest: r.SpecDigest, TranscriptDigest: r.TranscriptDigest,
		Status: status, ExpectationsTotal: r.Summary.Total, ExpectationsGapped: r.Summary.Gap,
		ExpectationsUnknown: r.Summary.Unknown, AdvisoryOverrides: r.AdvisoryOverrides, Adapter: adapter,
		GappedExpectations: gapped, ObservedAt: observedAt,
		Producer:   Producer{Producer: "verifier", Verifier: "trace-checker"},
		Provenance: Provenance{Command: cmd, Inputs: []string{specPath, transcriptPath}},
	}, nil
}

// EncodeEvidenceYAML writes records as a YAML list: 2-space indent, sequence
// items flush with their key.
func EncodeEvidenceYAML(w io.Writer, records []*Evidence) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(records); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// EncodeEvidenceJSON writes records as a pretty JSON array with a trailing newline.
func EncodeEvidenceJSON(w io.Writer, records []*Evidence) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(records); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// DecodeEvidence reads records written by either encoder (a YAML or JSON
// list), and refuses data that holds more than that one document.
func DecodeEvidence(data []byte) ([]*Evidence, error) {
	var out []*Evidence
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("line %d: evidence is one list, and the data holds a second document", next.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	return out, nil
}

// ParseObservedAt reads `--observed-at`: `YYYY-MM-DD` (UTC midnight, from
// 1970-01-01 on: an earlier date would mint a negative time the engine
// refuses) or non-negative epoch milliseconds. A future time is refused: epoch ms after
// now, or a date whose UTC midnight minus 14 hours is still ahead of now
// (the day has begun nowhere).
func ParseObservedAt(s string, now time.Time) (int64, error) {
	nowMs := now.UnixMilli()
	if t, err := time.Parse("2006-01-02", s); err == nil && len(s) == 10 {
		ms := t.UnixMilli()
		if ms < 0 {
			return 0, fmt.Errorf("--observed-at %s lies before 1970-01-01: an observation time is a date from 1970 on or non-negative epoch milliseconds", s)
		}
		if ms-14*3600*1000 > nowMs {
			return 0, fmt.Errorf("--observed-at %s is in the future: that day has begun nowhere yet", s)
		}
		return ms, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 && !strings.HasPrefix(s, "+") {
		if ms > nowMs {
			return 0, fmt.Errorf("--observed-at %s is in the future", s)
		}
		return ms, nil
	}
	return 0, fmt.Errorf("--observed-at %q is neither a date YYYY-MM-DD nor non-negative epoch milliseconds", s)
}
