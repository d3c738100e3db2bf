package trace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
)

// Refusal codes of the transcript readers (trace.md §2.2).
const (
	CodeAdaptUnreadable = "TRACE-ADAPT-001"
	CodeAdaptEmpty      = "TRACE-ADAPT-002"
)

// Bounds on what a transcript read holds.
const (
	// MaxTranscriptBytes is the largest transcript aepflow reads, in bytes
	// (512 MiB: long agent sessions reach hundreds of megabytes). Callers
	// reading a file or standard input refuse a larger one, a file before
	// reading it.
	MaxTranscriptBytes = 512 << 20
	// MaxLineBytes is the longest line ReadStream reads, in bytes (16 MiB;
	// harnesses truncate tool output far below that). A longer line is a
	// TRACE-ADAPT-001 refusal; it is skipped, never held.
	MaxLineBytes = 16 << 20
	// MaxListedRefusals is how many line refusals a read lists; the rest
	// are counted in one more refusal, so a file of a million bad lines
	// does not print a million lines.
	MaxListedRefusals = 100
)

// utf8BOM is the byte order mark U+FEFF in UTF-8, which some editors write
// at the start of a file; JSON does not allow it (RFC 8259 §8.1).
var utf8BOM = []byte("\xef\xbb\xbf")

// eventStreamFormat is the per-line format tag of the metaharness event stream.
const eventStreamFormat = "metaharness.event/1"

// line is one non-blank transcript line.
type line struct {
	number int // 1-based, blank lines counted
	text   []byte
}

// ReadOptions bounds and trims one transcript read.
type ReadOptions struct {
	// MaxLineBytes is the longest line read; zero means MaxLineBytes.
	MaxLineBytes int
	// Keep says which input and result fields the IR keeps; nil keeps all.
	Keep *Keep
	// Redact keeps the transcript's text out of the refusals: a format tag
	// is named by its digest, a JSON syntax error by no more than that.
	// CheckSuite sets it for a redacted check (CheckOptions.Redact).
	Redact bool
}

// adapterFor is trace.md §2.1's rule (as docs/trace.md extends it) applied
// to the decoded first non-blank line (nil when it is not JSON), in its
// order: the event stream when it is a JSON object whose `format` is
// `metaharness.event/1`, the Codex rollout when it is one whose `type` is
// `session_meta`, stream-json for everything else.
func adapterFor(first any) Adapter {
	if o, ok := asObj(first); ok {
		if f, ok := o.get("format").(string); ok && f == eventStreamFormat {
			return AdapterEventStream
		}
		if t, ok := o.get("type").(string); ok && t == codexSessionMeta {
			return AdapterCodex
		}
	}
	return AdapterStreamJSON
}

// Read normalises a transcript held in memory; see ReadStream.
func Read(data []byte) (*IR, Adapter, diag.List) {
	ir, adapter, refusals, _ := ReadStream(bytes.NewReader(data), ReadOptions{})
	return ir, adapter, refusals
}

// ReadStream reads a transcript from r line by line into the IR, with the
// adapter §2.1 selects from the first non-blank line. Nothing of a line is
// kept once it is read but what the IR holds, and the digest is taken as
// the bytes go by, so the memory a read needs is the IR's plus one line.
//
// On refusal it returns a nil IR and the refusals (TRACE-ADAPT-001,
// TRACE-ADAPT-002), each with Path set to its location (`transcript` or
// `line[N]`); the adapter is returned either way, so a caller can name the
// wire it tried — except when the first non-blank line is over the line
// bound: it was never read, so no reader was chosen from it, and the
// adapter is zero (the later lines are still read, for what any reader
// refuses: lines that are not JSON or too long). err is an error of r (a read error, or a bound r enforces),
// in which case the transcript was not read to its end and nothing else is
// returned.
func ReadStream(r io.Reader, opts ReadOptions) (ir *IR, adapter Adapter, refusals diag.List, err error) {
	maxLine := opts.MaxLineBytes
	if maxLine <= 0 {
		maxLine = MaxLineBytes
	}
	digest := sha256.New()
	lines := newLineReader(io.TeeReader(r, digest), maxLine)
	var b *builder
	invalidUTF8, undetected := false, false
	for {
		ln, oversized, err := lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, Adapter{}, nil, err
		}
		if b == nil { // the first non-blank line chooses the reader
			var first any
			if oversized {
				undetected = true
			} else {
				first, _ = decodeJSON(ln.text)
			}
			b = newBuilder(adapterFor(first), opts.Keep)
			b.redact = opts.Redact
		}
		switch {
		case oversized:
			b.refuse(refusal(CodeAdaptUnreadable, lineLoc(ln.number), "line %d is longer than the limit of %s", ln.number, fsio.FormatSize(int64(maxLine))))
		case !utf8.Valid(ln.text):
			invalidUTF8 = true
		case !invalidUTF8:
			b.line(ln)
		}
	}
	if b == nil {
		b = newBuilder(AdapterStreamJSON, opts.Keep)
	}
	if invalidUTF8 {
		return nil, AdapterStreamJSON, diag.List{refusal(CodeAdaptUnreadable, "transcript", "the transcript is not valid UTF-8")}, nil
	}
	if refusals := b.refusalList(); len(refusals) > 0 {
		if undetected {
			return nil, Adapter{}, refusals, nil
		}
		return nil, b.adapter, refusals, nil
	}
	if len(b.events) == 0 {
		return nil, b.adapter, diag.List{refusal(CodeAdaptEmpty, "transcript", "the transcript holds no events")}, nil
	}
	return b.finish(hex.EncodeToString(digest.Sum(nil))), b.adapter, nil, nil
}

// lineReader splits a stream into lines (trace.md §1.9): on `\n`, one
// trailing `\r` stripped, whitespace-only lines skipped but counted, a
// final newline adding no line. A line longer than max is skipped without
// being held and reported as oversized.
type lineReader struct {
	r      *bufio.Reader
	max    int
	number int
	buf    []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next non-blank line, io.EOF at the end, or a read error.
// The line's text is valid until the next call.
func (l *lineReader) next() (line, bool, error) {
	for {
		text, oversized, err := l.raw()
		if err != nil {
			return line{}, false, err
		}
		l.number++
		if oversized {
			return line{number: l.number}, true, nil
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		if len(bytes.TrimSpace(text)) > 0 {
			return line{number: l.number, text: text}, false, nil
		}
	}
}

// raw reads one line without its `\n`. At the end of the stream it returns
// the unterminated rest, if any, then io.EOF.
func (l *lineReader) raw() ([]byte, bool, error) {
	l.buf = l.buf[:0]
	oversized := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !oversized {
			if len(l.buf)+len(chunk) > l.max+1 { // +1: the `\n` is not the line's
				oversized, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if !oversized {
				l.buf = l.buf[:len(l.buf)-1]
				if len(l.buf) > l.max {
					oversized = true
				}
			}
			return l.buf, oversized, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			if len(l.buf) == 0 && !oversized {
				return nil, false, io.EOF
			}
			if len(l.buf) > l.max {
				oversized = true
			}
			return l.buf, oversized, nil
		default:
			return nil, false, err
		}
	}
}

// refusal builds a refusal diagnostic located by its logical location.
func refusal(code, location, format string, args ...any) diag.Diagnostic {
	return diag.Errorf(code, format, args...).WithPath(location)
}

// FormatRefusal renders a refusal as `CODE at LOCATION: message`.
func FormatRefusal(d diag.Diagnostic) string {
	return fmt.Sprintf("%s at %s: %s", d.Code, d.Path, d.Message)
}

func lineLoc(n int) string { return fmt.Sprintf("line[%d]", n) }

// builder accumulates what an adapter reads, one line at a time.
type builder struct {
	adapter  Adapter
	keep     *Keep
	redact   bool // refusals quote no transcript text (ReadOptions.Redact)
	wire     wireReader
	events   []Event
	requests []Request
	refusals diag.List
	unlisted int // line refusals past MaxListedRefusals
	close    *StreamClose
	markers  []string
	names    map[string]*string // interned strings: tool names, field names, types, models
	dec      lineDecoder        // one JSON decoder for every line

	finalText string
	// requestsUnrecorded is set by a wire that records no API requests.
	requestsUnrecorded bool
	// The timestamped line list of trace.md §1.7, as far as a step needs
	// it: the last timestamped line and the timestamp of the one before.
	tsLine           int
	tsMs, prevTsMs   int64
	hasTs, hasPrevTs bool
	steps            []Step
	// firstResult maps a call id to its first tool_result (trace.md §1.3).
	firstResult map[string]int
	// The derived indices (see derived).
	sessionStart, lastEstimate, finalTextAt int
	opaque, calls, outcomes, limits         []int
	// lastRequestID is the request id last read: consecutive lines of one
	// request share it, so they share one copy (ids are mostly unique,
	// too many to intern).
	lastRequestID *string
}

// wireReader maps the lines of one wire into events.
type wireReader interface {
	// check refuses a decoded line that does not belong to the wire and
	// reports whether it does.
	check(b *builder, ln line, v any) bool
	// line maps one decoded non-blank line of the wire.
	line(b *builder, ln line, v any)
	// finish completes what needs the whole stream (closure, joins).
	finish(b *builder)
}

func newBuilder(adapter Adapter, keep *Keep) *builder {
	b := &builder{
		adapter: adapter, keep: keep, names: map[string]*string{},
		sessionStart: -1, lastEstimate: -1, finalTextAt: -1,
		firstResult: map[string]int{},
	}
	switch adapter.Name {
	case AdapterEventStream.Name:
		b.wire = newEventStreamReader()
	case AdapterCodex.Name:
		b.wire = &codexReader{}
	default:
		b.wire = &streamJSONReader{}
	}
	return b
}

// line decodes one non-blank line and hands it to the wire's reader; a
// line that is not JSON is refused. Once a refusal is recorded no more
// events are built (the transcript is refused), but every line is still
// decoded so that all refusals are reported.
func (b *builder) line(ln line) {
	v, err := b.dec.decode(ln.text)
	if err != nil {
		why := err.Error()
		_, syntax := errors.AsType[*json.SyntaxError](err)
		switch {
		case bytes.HasPrefix(ln.text, utf8BOM):
			// The decoder's message names the BOM's first byte as a
			// character ("invalid character 'ï'"): say what it is.
			why = "it begins with a byte order mark (U+FEFF, bytes EF BB BF); save the transcript without one"
		case syntax && b.redact:
			why = "a syntax error" // the decoder's message quotes the line's characters
		}
		b.refuse(refusal(CodeAdaptUnreadable, lineLoc(ln.number), "line %d is not JSON: %s", ln.number, why))
		return
	}
	if b.wire.check(b, ln, v) && !b.refused() {
		b.wire.line(b, ln, v)
	}
}

// refuse records a line refusal, listing at most MaxListedRefusals.
func (b *builder) refuse(d diag.Diagnostic) {
	if len(b.refusals) < MaxListedRefusals {
		b.refusals.Add(d)
		return
	}
	b.unlisted++
}

// quote names a text the transcript wrote in a refusal: in backticks, cut
// to 80 characters, or by its digest when the read is redacted.
func (b *builder) quote(s string) string {
	if b.redact {
		return redactText(s)
	}
	return "`" + cutText(s, 80) + "`"
}

// refused reports whether the transcript is already refused.
func (b *builder) refused() bool { return len(b.refusals) > 0 }

func (b *builder) refusalList() diag.List {
	if b.unlisted > 0 {
		return append(b.refusals, refusal(CodeAdaptUnreadable, "transcript",
			"%d more line(s) are refused; only the first %d are listed", b.unlisted, MaxListedRefusals))
	}
	return b.refusals
}

// intern returns one shared copy of s: tool, field and type names repeat
// across a transcript, and each decoded copy would be kept.
func (b *builder) intern(s string) string {
	if t, ok := b.names[s]; ok {
		return *t
	}
	p := new(string)
	*p = s
	b.names[s] = p
	return s
}

// requestID returns s, or the previous request id when it is the same.
func (b *builder) requestID(s *string) *string {
	if s == nil {
		return nil
	}
	if b.lastRequestID != nil && *b.lastRequestID == *s {
		return b.lastRequestID
	}
	b.lastRequestID = s
	return s
}

// internPtr is intern for an optional string: one shared pointer per
// text. It never keeps s itself, so a caller's pointer need not escape.
func (b *builder) internPtr(s *string) *string {
	if s == nil {
		return nil
	}
	b.intern(*s)
	return b.names[*s]
}

// push appends an event of line ln with timestamp ts (nil when the line
// has none) and returns its index. It keeps the derived indices and the
// steps up to date, so nothing needs a second pass over the events.
func (b *builder) push(ln line, ts *string, family Family, payload any) int {
	i := len(b.events)
	ev := Event{Index: i, SourceLine: ln.number, Family: family, payload: payload}
	if ts != nil {
		ev.TimestampMs, ev.HasTimestamp = ParseTimestamp(*ts)
	}
	if ev.HasTimestamp && !(b.hasTs && b.tsLine == ln.number) {
		b.prevTsMs, b.hasPrevTs = b.tsMs, b.hasTs
		b.tsLine, b.tsMs, b.hasTs = ln.number, ev.TimestampMs, true
	}
	b.events = append(b.events, ev)
	b.index(&b.events[i])
	return i
}

// index updates the derived indices with event e.
func (b *builder) index(e *Event) {
	i := e.Index
	switch e.Family {
	case FamilySessionStart:
		if b.sessionStart < 0 {
			b.sessionStart = i
		}
	case FamilyRunOutcome:
		b.outcomes = append(b.outcomes, i)
	case FamilyRateLimit:
		b.limits = append(b.limits, i)
	case FamilyThinkingEstimate:
		if e.Estimate().EstimatedTokens != nil {
			b.lastEstimate = i
		}
	case FamilyAssistantText:
		b.finalTextAt = i
	case FamilyOpaque:
		b.opaque = append(b.opaque, i)
	case FamilyToolCall:
		b.calls = append(b.calls, i)
		b.steps = append(b.steps, b.step(e))
	case FamilyToolResult:
		if id := e.Result().CallID; id != nil {
			if _, seen := b.firstResult[*id]; !seen {
				b.firstResult[*id] = i
			}
		}
	case FamilyAssistantThinking, FamilySyntheticInjection:
	}
}

// step is the call's Step as far as it is known when the call is read:
// gen_ms is the call's timestamp minus the one of the timestamped line
// before its own (trace.md §1.7); exec_ms waits for the correlation.
func (b *builder) step(e *Event) Step {
	s := Step{CallEvent: e.Index, Tool: e.Call().Name}
	if e.HasTimestamp && b.hasPrevTs {
		g := e.TimestampMs - b.prevTsMs
		s.GenMs = &g
	}
	return s
}

// text records an assistant_text event: its length, and its text as the
// final text so far.
func (b *builder) text(ln line, ts *string, text string, requestID *string) int {
	b.finalText = text
	return b.push(ln, ts, FamilyAssistantText, &AssistantText{RequestID: requestID, Bytes: len(text)})
}

func (b *builder) opaqueEvent(ln line, ts *string, eventType, subtype *string, digest string) int {
	return b.push(ln, ts, FamilyOpaque, &Opaque{EventType: b.internPtr(eventType), Subtype: b.internPtr(subtype), Digest: digest})
}

// finish correlates calls with results (trace.md §1.3: the first result
// with the call's id, wherever it lies), completes the steps and builds
// the IR.
func (b *builder) finish(digest string) *IR {
	b.wire.finish(b)
	for k, ci := range b.calls {
		call := b.events[ci].Call()
		call.ResultEvent = -1
		if id := call.CallID; id != nil {
			if r, ok := b.firstResult[*id]; ok {
				call.ResultEvent = r
			}
		}
		if e := &b.events[ci]; e.HasTimestamp && call.ResultEvent >= 0 {
			if r := &b.events[call.ResultEvent]; r.HasTimestamp {
				x := r.TimestampMs - e.TimestampMs
				b.steps[k].ExecMs = &x
			}
		}
	}
	if b.steps == nil {
		b.steps = []Step{} // the census lists no step as [], not null
	}
	return &IR{
		TranscriptDigest: digest,
		Adapter:          b.adapter,
		Events:           slices.Clip(b.events),
		Requests:         b.requests,
		StreamClose:      b.close,
		ClosureMarkers:   b.markers,
		FinalText:        b.finalText,
		derived: derived{
			sessionStart: b.sessionStart, outcomes: b.outcomes, rateLimits: b.limits,
			lastEstimate: b.lastEstimate, finalText: b.finalTextAt, opaque: b.opaque, calls: b.calls,
			steps: b.steps, requestsUnrecorded: b.requestsUnrecorded, textsOnce: &sync.Once{}, seriesOnce: &sync.Once{},
		},
	}
}

// textsOf returns the assistant_text events with request id id. The index
// is built on first use, once, from the events: only a request with no
// event on its own line (an event stream's `usage`) cites through it.
func (ir *IR) textsOf(id string) []int {
	if ir.textsOnce == nil { // an IR not built by ReadStream
		ir.textsOnce = &sync.Once{}
	}
	ir.textsOnce.Do(func() {
		// Texts cite the requests: as many ids as requests, about.
		ir.textsByRequest = make(map[string][]int, len(ir.Requests))
		for i := range ir.Events {
			if t := ir.Events[i].Text(); t != nil && t.RequestID != nil {
				ir.textsByRequest[*t.RequestID] = append(ir.textsByRequest[*t.RequestID], i)
			}
		}
	})
	return ir.textsByRequest[id]
}

// eventsOnLine returns the indices of the events of source line n: events
// are in line order, so they are one run, found by binary search.
func (ir *IR) eventsOnLine(n int) []int {
	lo := sort.Search(len(ir.Events), func(i int) bool { return ir.Events[i].SourceLine >= n })
	var out []int
	for i := lo; i < len(ir.Events) && ir.Events[i].SourceLine == n; i++ {
		out = append(out, i)
	}
	return out
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func sha256HexBytes(p []byte) string {
	sum := sha256.Sum256(p)
	return hex.EncodeToString(sum[:])
}
