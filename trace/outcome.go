package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Outcome results, as the report's JSON spells them.
const (
	ResultOK          = "ok"
	ResultGap         = "gap"
	ResultUndecidable = "undecidable"
)

// Outcome is what one expectation found (trace.md §4): ok or gap with the
// events it cites and a note, or undecidable with a Reason.
type Outcome struct {
	Result string
	Events []int
	Note   string
	Reason *Reason
}

// Reason says why an expectation is undecidable. Code is one of the reason
// codes of trace.md §4; Payload holds its fields by JSON name.
type Reason struct {
	Code    string
	Payload map[string]any
}

func okOutcome(events []int, format string, args ...any) Outcome {
	return Outcome{Result: ResultOK, Events: nonNil(events), Note: fmt.Sprintf(format, args...)}
}

func gapOutcome(events []int, format string, args ...any) Outcome {
	return Outcome{Result: ResultGap, Events: nonNil(events), Note: fmt.Sprintf(format, args...)}
}

func unkOutcome(code string, payload map[string]any) Outcome {
	if payload == nil {
		payload = map[string]any{}
	}
	return Outcome{Result: ResultUndecidable, Reason: &Reason{Code: code, Payload: payload}}
}

func fieldAbsent(field string) Outcome {
	return unkOutcome("field_absent", map[string]any{"field": field})
}

func nonNil(e []int) []int {
	if e == nil {
		return []int{}
	}
	return e
}

// MarshalJSON writes `{"outcome": …, "events": …, "note": …}` or
// `{"outcome": "undecidable", "reason": …, …payload}`.
func (o Outcome) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"outcome":`)
	b.Write(marshalNoHTML(o.Result))
	if o.Result == ResultUndecidable && o.Reason != nil {
		b.WriteString(`,"reason":`)
		b.Write(marshalNoHTML(o.Reason.Code))
		for _, k := range slices.Sorted(maps.Keys(o.Reason.Payload)) {
			b.WriteByte(',')
			b.Write(marshalNoHTML(k))
			b.WriteByte(':')
			b.Write(marshalNoHTML(o.Reason.Payload[k]))
		}
	} else {
		b.WriteString(`,"events":`)
		b.Write(marshalNoHTML(nonNil(o.Events)))
		b.WriteString(`,"note":`)
		b.Write(marshalNoHTML(o.Note))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshalNoHTML(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// transcriptKeys are the payload keys whose values a transcript writes (an
// opaque event's type, a rate limit's window); every other payload value
// is an index, a count, a fixed name or the specification's own text.
var transcriptKeys = []string{"types", "window"}

// Redacted returns the reason as a redacted report prints it: each value a
// transcript wrote (transcriptKeys) replaced by its digest, as a redacted
// note is (redactText); the code and every other value as they are. The
// JSON report keeps the payload unchanged (trace.md §6.2); the text and
// JUnit reports print this one.
func (r *Reason) Redacted() *Reason {
	out := &Reason{Code: r.Code, Payload: maps.Clone(r.Payload)}
	for _, k := range transcriptKeys {
		switch v := out.Payload[k].(type) {
		case string:
			out.Payload[k] = redactText(v)
		case []string:
			digests := make([]string, len(v))
			for i, s := range v {
				digests[i] = redactText(s)
			}
			out.Payload[k] = digests
		}
	}
	return out
}

// redactText is what a redacted report prints for a text the transcript
// wrote: `sha256:` and the first 12 hex of its digest (trace.md §6.2).
func redactText(s string) string { return "sha256:" + sha256Hex(s)[:12] }

// Sentence renders the reason as one sentence stating the fact with its payload.
func (r *Reason) Sentence() string {
	p := r.Payload
	str := func(k string) string { s, _ := p[k].(string); return s }
	num := func(k string) string { return fmt.Sprint(p[k]) }
	switch r.Code {
	case "no_session_start":
		return "the transcript records no session start"
	case "no_run_outcome":
		return "the transcript records no terminal record (run outcome)"
	case "no_rate_limit_event":
		return "the transcript records no rate-limit event"
	case "no_thinking_estimate":
		return "the transcript records no thinking estimate"
	case "no_final_text":
		return "the transcript records no assistant text"
	case "no_requests":
		return "the transcript records no API requests"
	case "field_absent":
		return fmt.Sprintf("the transcript does not record `%s`", str("field"))
	case "nothing_in_scope":
		return fmt.Sprintf("no call matches %s", str("selector"))
	case "never_occurred":
		return fmt.Sprintf("no call matches %s, so the order is not observed", str("selector"))
	case "no_result_correlated":
		return fmt.Sprintf("the call at event %s has no correlated result", num("call_event"))
	case "result_field_absent":
		return fmt.Sprintf("the result at event %s of the call at event %s does not record `%s`", num("result_event"), num("call_event"), str("field"))
	case "timestamp_absent":
		return fmt.Sprintf("the interval of the call at event %s cannot be measured from its timestamps", num("event"))
	case "opaque_events":
		return opaqueSentence(p)
	case "stream_not_closed":
		markers, _ := p["markers"].([]string)
		if len(markers) == 0 {
			return "this transcript format records no closure, so an absence cannot be proven"
		}
		return fmt.Sprintf("the stream was never closed (no %s), so an absence cannot be proven", backtickJoin(markers, " or "))
	case "model_not_used":
		return fmt.Sprintf("the run records no usage for model `%s`", str("model"))
	case "run_cut_by_rate_limit":
		s := fmt.Sprintf("the run outcome at event %s follows a rejected rate limit at event %s", num("outcome_event"), num("limit_event"))
		if w, ok := p["window"].(string); ok {
			s += fmt.Sprintf(" (window `%s`)", w)
		}
		return s
	case "series_did_not_move":
		return fmt.Sprintf("`%s` did not move across %s request(s)", str("field"), num("requests"))
	case "ratio_undefined":
		return fmt.Sprintf("the ratio is undefined: %s is zero", str("denominator"))
	}
	return r.Code
}

func opaqueSentence(p map[string]any) string {
	events, _ := p["events"].([]int)
	types, _ := p["types"].([]string)
	what := "untyped"
	if len(types) > 0 {
		what = "of type " + backtickJoin(sortedSet(types), ", ")
	}
	return fmt.Sprintf("%d unread event(s) %s at %s may hold more, so the count is a lower bound",
		len(events), what, citeList(events))
}

func backtickJoin(list []string, sep string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = "`" + s + "`"
	}
	return strings.Join(parts, sep)
}

// citeList renders `event I` or `events I, J`.
func citeList(events []int) string {
	if len(events) == 1 {
		return fmt.Sprintf("event %d", events[0])
	}
	parts := make([]string, len(events))
	for i, e := range events {
		parts[i] = fmt.Sprint(e)
	}
	return "events " + strings.Join(parts, ", ")
}
