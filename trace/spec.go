package trace

import (
	"regexp"

	"github.com/aepflow/aepflow/diag"
)

// SpecFormat is the format tag of a trace specification.
const SpecFormat = "trace-spec/1"

// Refusal codes of the specification reader (trace.md §3.8).
const (
	CodeSpecFormat        = "TRACE-SPEC-001"
	CodeSpecShape         = "TRACE-SPEC-002"
	CodeSpecDuplicateID   = "TRACE-SPEC-003"
	CodeSpecEmpty         = "TRACE-SPEC-004"
	CodeSpecUndecidable   = "TRACE-SPEC-005"
	CodeSpecMalformedID   = "TRACE-SPEC-006"
	CodeSpecUnsatisfiable = "TRACE-SPEC-007"
	CodeSpecBadRegex      = "TRACE-SPEC-008"
)

// Severities and on_unknown values of an expectation.
const (
	SeverityGate       = "gate"
	SeverityAdvisory   = "advisory"
	OnUnknownUnknown   = "unknown"
	OnUnknownGap       = "gap"
	perTotal, perEach  = "total", "each"
	trendNonDecreasing = "non_decreasing"
	trendNonIncreasing = "non_increasing"
)

// Spec is a validated `trace-spec/1` document.
type Spec struct {
	Format       string
	ID           string
	Title        *string
	Expectations []Expectation
	// Digest is the sha256 of the canonical form (trace.md §5), 64 lowercase hex.
	Digest string
}

// Expectation is one row of a specification.
type Expectation struct {
	ID        string
	Statement *string
	// Severity is SeverityGate or SeverityAdvisory.
	Severity string
	// OnUnknown is OnUnknownUnknown or OnUnknownGap.
	OnUnknown string
	Kind      Kind
	// written is the kind name as the document spells it (for locations).
	written string
}

// Kind is an expectation's claim: its canonical name and the parameters that
// kind takes (the others stay zero).
type Kind struct {
	Name KindName

	Selector      *Selector // selector kinds
	First, Before *Selector // order
	// Count is the kind's count, ms or bytes bound.
	Count *CountBound
	// Range is the kind's rate, utilization, ratio, share or usd bound.
	Range        *RangeBound
	Equals       *string // string equals
	EqualsBool   *bool   // boolean equals
	Plugin       string
	Version      *string
	Source       *string
	Plugins      []string
	Skill, Agent string
	Model        *string
	Allowed      []string
	Per          string
	Field, Trend string
	Matcher      *Matcher            // text.matches
	Result       map[string]*Matcher // tool.result
	Availability *Availability
	Run          *RunResult
}

// Selector picks tool calls (trace.md §3.4).
type Selector struct {
	// Tool and Tools are as written; CanonicalTools merges them.
	Tool       *string
	Tools      []string
	Operations []string
	Subject    *Matcher
	Args       map[string]*Matcher

	// tools and argNames are what Matches reads, computed once (prepare).
	tools, argNames []string
	prepared        bool
}

// CountBound bounds a whole number (trace.md §3.3).
type CountBound struct{ AtLeast, AtMost, Exactly *uint64 }

// RangeBound bounds a fractional quantity (trace.md §3.3).
type RangeBound struct{ AtLeast, AtMost *float64 }

// Matcher is one of the five matchers (trace.md §3.5). Op is `exact`,
// `contains`, `glob`, `regex` or `equals`; Text holds the pattern of the
// first four, Value the scalar of `equals` (bool, int64, float64 or string).
type Matcher struct {
	Op    string
	Text  string
	Value any
	// re and glob are the compiled pattern of `regex` and `glob`, shared by
	// every matcher of a specification that writes the same pattern.
	re   *regexp.Regexp
	glob *glob
}

// Availability is the validated form of env.tool_available: Form is
// `offered`, `not_offered`, `offered_any` or `only`.
type Availability struct {
	Form       string
	Tool       string
	Tools      []string
	Operations []string
	// written keeps the raw parameters for validation.
	written rawAvailability
}

type rawAvailability struct {
	tool       *string
	tools, ops []string
	only       []string
	available  *bool
}

// RunResult is the parameters of the `result` kind; nil fields are not declared.
type RunResult struct {
	IsError                             *bool
	Subtype, StopReason, TerminalReason *string
	APIErrorStatus                      *APIErrorStatus
}

// APIErrorStatus is `absent` (Absent true) or `{equals: S}`.
type APIErrorStatus struct {
	Absent bool
	Equals string
}

// MaxSpecBytes is the largest specification ReadSpec reads, in bytes
// (1 MiB: the 43-expectation corpus specification is 20 KB). Callers
// reading a file refuse a larger one before reading it.
const MaxSpecBytes = 1 << 20

// ReadSpec reads, validates and digests a `trace-spec/1` document written in
// YAML or JSON. On refusal it returns a nil Spec and the refusals, each with
// Path set to its location (trace.md §3.8); TRACE-SPEC-002 is always alone.
// A document over MaxSpecBytes, or one that expands past MaxSpecExpansion
// or nests deeper than MaxSpecDepth, is a TRACE-SPEC-002.
func ReadSpec(data []byte) (*Spec, diag.List) {
	if len(data) > MaxSpecBytes {
		return nil, diag.List{refusal(CodeSpecShape, "document", "the document is %d bytes, over the limit of %d MiB", len(data), MaxSpecBytes>>20)}
	}
	spec, err := decodeSpec(data)
	if err != nil {
		return nil, diag.List{refusal(CodeSpecShape, "document", "%s", err.Error())}
	}
	if refusals := validateSpec(spec); len(refusals) > 0 {
		return nil, refusals
	}
	spec.Digest = sha256Hex(Compact(canonicalSpec(spec)))
	return spec, nil
}
