package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
)

// Refusal codes of the transcript readers (trace.md §2.2).
const (
	CodeAdaptUnreadable = "TRACE-ADAPT-001"
	CodeAdaptEmpty      = "TRACE-ADAPT-002"
)

// MaxTranscriptBytes is the largest transcript aepflow reads, in bytes
// (512 MiB: long agent sessions reach hundreds of megabytes). Callers
// reading a file or standard input refuse a larger one, a file before
// reading it.
const MaxTranscriptBytes = 512 << 20

// eventStreamFormat is the per-line format tag of the metaharness event stream.
const eventStreamFormat = "metaharness.event/1"

// line is one non-blank transcript line.
type line struct {
	number int // 1-based, blank lines counted
	text   string
}

// splitLines splits data on `\n`, strips one trailing `\r` and drops
// whitespace-only lines (which still count). A final newline adds no line.
func splitLines(data []byte) []line {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	var out []line
	for i, t := range strings.Split(s, "\n") {
		t = strings.TrimSuffix(t, "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, line{number: i + 1, text: t})
	}
	return out
}

// SelectAdapter returns the adapter trace.md §2.1 selects for data: the event
// stream when the first non-blank line is a JSON object whose `format` is
// `metaharness.event/1`, stream-json for everything else.
func SelectAdapter(data []byte) Adapter {
	if !utf8.Valid(data) {
		return AdapterStreamJSON
	}
	lines := splitLines(data)
	if len(lines) == 0 {
		return AdapterStreamJSON
	}
	v, err := decodeJSON([]byte(lines[0].text))
	if err != nil {
		return AdapterStreamJSON
	}
	if o, ok := asObj(v); ok {
		if f, ok := o.get("format").(string); ok && f == eventStreamFormat {
			return AdapterEventStream
		}
	}
	return AdapterStreamJSON
}

// Read normalises a transcript into the IR with the adapter SelectAdapter
// picks. On refusal it returns a nil IR and the refusals (TRACE-ADAPT-001,
// TRACE-ADAPT-002), each with Path set to its location (`transcript` or
// `line[N]`); the adapter is returned either way, so a caller can name the
// wire it tried.
func Read(data []byte) (*IR, Adapter, diag.List) {
	adapter := SelectAdapter(data)
	if !utf8.Valid(data) {
		return nil, adapter, diag.List{refusal(CodeAdaptUnreadable, "transcript", "the transcript is not valid UTF-8")}
	}
	b := &builder{}
	lines := splitLines(data)
	if adapter.Name == AdapterEventStream.Name {
		readEventStream(b, lines)
	} else {
		readStreamJSON(b, lines)
	}
	if len(b.refusals) > 0 {
		return nil, adapter, b.refusals
	}
	if len(b.events) == 0 {
		return nil, adapter, diag.List{refusal(CodeAdaptEmpty, "transcript", "the transcript holds no events")}
	}
	sum := sha256.Sum256(data)
	ir := &IR{
		TranscriptDigest: hex.EncodeToString(sum[:]),
		Adapter:          adapter,
		Events:           b.events,
		Requests:         b.requests,
		StreamClose:      b.close,
		ClosureMarkers:   b.markers,
	}
	ir.finish()
	return ir, adapter, nil
}

// refusal builds a refusal diagnostic located by its logical location.
func refusal(code, location, format string, args ...any) diag.Diagnostic {
	return diag.Errorf(code, format, args...).WithPath(location)
}

// FormatRefusal renders a refusal as `CODE at LOCATION: message`.
func FormatRefusal(d diag.Diagnostic) string {
	return fmt.Sprintf("%s at %s: %s", d.Code, d.Path, d.Message)
}

// builder accumulates what an adapter reads.
type builder struct {
	events   []Event
	requests []Request
	refusals diag.List
	close    *StreamClose
	markers  []string
}

// push appends an event of the given line; ev carries the family payload.
func (b *builder) push(ln line, ts *string, ev Event) int {
	ev.Index = len(b.events)
	ev.SourceLine = ln.number
	ev.Timestamp = ts
	if ts != nil {
		if ms, ok := ParseTimestamp(*ts); ok {
			ev.TimestampMs = &ms
		}
	}
	b.events = append(b.events, ev)
	return ev.Index
}

func opaqueEvent(eventType, subtype *string, digest string) Event {
	return Event{Family: FamilyOpaque, Opaque: &Opaque{EventType: eventType, Subtype: subtype, Digest: digest}}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// finish correlates calls with results and computes the derived indices.
func (ir *IR) finish() {
	d := derived{sessionStart: -1, lastEstimate: -1, finalText: -1, resultOfFirst: map[string]int{}}
	for i := range ir.Events {
		e := &ir.Events[i]
		if e.Family == FamilyToolResult && e.Result.CallID != nil {
			if _, seen := d.resultOfFirst[*e.Result.CallID]; !seen {
				d.resultOfFirst[*e.Result.CallID] = i
			}
		}
	}
	for i := range ir.Events {
		e := &ir.Events[i]
		switch e.Family {
		case FamilySessionStart:
			if d.sessionStart < 0 {
				d.sessionStart = i
			}
		case FamilyRunOutcome:
			d.outcomes = append(d.outcomes, i)
		case FamilyRateLimit:
			d.rateLimits = append(d.rateLimits, i)
		case FamilyThinkingEstimate:
			if e.Estimate.EstimatedTokens != nil {
				d.lastEstimate = i
			}
		case FamilyAssistantText:
			d.finalText = i
		case FamilyOpaque:
			d.opaque = append(d.opaque, i)
		case FamilyToolCall:
			d.calls = append(d.calls, i)
			if id := e.Call.CallID; id != nil {
				if r, ok := d.resultOfFirst[*id]; ok {
					r := r
					e.Call.ResultEvent = &r
				}
			}
		case FamilyAssistantThinking, FamilyToolResult, FamilySyntheticInjection:
		}
	}
	ir.derived = d
	ir.steps = computeSteps(ir.Events, d.calls)
}

// computeSteps derives one Step per call (trace.md §1.7).
func computeSteps(events []Event, calls []int) []Step {
	type entry struct {
		line int
		ms   int64
	}
	var list []entry
	for _, e := range events {
		if e.TimestampMs == nil {
			continue
		}
		if n := len(list); n > 0 && list[n-1].line == e.SourceLine {
			continue
		}
		list = append(list, entry{e.SourceLine, *e.TimestampMs})
	}
	steps := make([]Step, 0, len(calls))
	for _, ci := range calls {
		call := events[ci]
		s := Step{CallEvent: ci, Tool: call.Call.Name}
		if call.TimestampMs != nil {
			for k, en := range list {
				if en.line == call.SourceLine {
					if k > 0 {
						g := *call.TimestampMs - list[k-1].ms
						s.GenMs = &g
					}
					break
				}
			}
			if r := call.Call.ResultEvent; r != nil && events[*r].TimestampMs != nil {
				x := *events[*r].TimestampMs - *call.TimestampMs
				s.ExecMs = &x
			}
		}
		steps = append(steps, s)
	}
	return steps
}
