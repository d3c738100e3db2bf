package trace

import "sync"

// Family names an event family of the IR (trace.md §1.2).
type Family string

// The event families, spelled as the IR's `event` field spells them.
const (
	FamilySessionStart       Family = "session_start"
	FamilyAssistantText      Family = "assistant_text"
	FamilyAssistantThinking  Family = "assistant_thinking"
	FamilyToolCall           Family = "tool_call"
	FamilyToolResult         Family = "tool_result"
	FamilySyntheticInjection Family = "synthetic_injection"
	FamilyThinkingEstimate   Family = "thinking_estimate"
	FamilyRateLimit          Family = "rate_limit"
	FamilyRunOutcome         Family = "run_outcome"
	FamilyOpaque             Family = "opaque"
)

// IRFormat is the format tag of the IR.
const IRFormat = "trace-ir/1"

// IR is a transcript normalised into typed, indexed events (`trace-ir/1`).
// Build one with Read or ReadStream; the derived fields are filled in as it
// is read and must not be edited afterwards.
//
// The IR is compact on purpose: it keeps what the census and the
// expectation kinds read and nothing of the raw lines or decoded trees. A
// tool call keeps its name, ids, subjects, input size, repetition key and
// the input fields ReadOptions.Keep admits; a result its size, error flag
// and admitted fields; text and thinking their byte lengths, except the
// final assistant text (FinalText), which `text.matches` reads.
type IR struct {
	// TranscriptDigest is the sha256 of the raw transcript bytes, 64 lowercase hex.
	TranscriptDigest string
	// Adapter names the reader that produced the events.
	Adapter Adapter
	// Events holds every event; an event's Index is its position here.
	Events []Event
	// Requests holds one entry per API-bearing record (trace.md §1.4).
	Requests []Request
	// StreamClose is the producer's statement that the record is whole, or nil.
	StreamClose *StreamClose
	// ClosureMarkers names the witnesses this wire can carry.
	ClosureMarkers []string
	// FinalText is the text of the last assistant_text event ("" when none).
	FinalText string

	derived
}

// derived holds the indices the checks read, computed once as the IR is read.
type derived struct {
	sessionStart int   // first session_start, -1 if none
	outcomes     []int // every run_outcome
	rateLimits   []int // every rate_limit
	lastEstimate int   // last thinking_estimate with estimated_tokens, -1 if none
	finalText    int   // last assistant_text, -1 if none
	opaque       []int // every opaque event
	calls        []int // every tool_call
	steps        []Step
	// textsByRequest maps a request id to its assistant_text events, for
	// the citations of requests (trace.md §1.4); built once, on first use.
	textsByRequest map[string][]int
	textsOnce      *sync.Once
	// series is the request series (requestSeries), built once, on first
	// use: every usage expectation of a spec reads it.
	series     []Request
	seriesOnce *sync.Once
	// requestsUnrecorded is set when the wire records no API requests at
	// all (a Codex rollout): counting them would read an absence as zero.
	requestsUnrecorded bool
}

// Adapter names a transcript reader and the wire versions it was written against.
type Adapter struct {
	Name           string   `json:"name" yaml:"name"`
	WrittenAgainst []string `json:"written_against" yaml:"written_against"`
}

// The adapters of trace.md §2.
var (
	AdapterStreamJSON  = Adapter{Name: "claude-code/stream-json", WrittenAgainst: []string{"2.1.238"}}
	AdapterEventStream = Adapter{Name: "metaharness/event-stream", WrittenAgainst: []string{"metaharness.event/1"}}
	AdapterCodex       = Adapter{Name: "codex/rollout-jsonl", WrittenAgainst: []string{"0.145.0"}}
)

// StreamClose records how the producer said the record is the whole run.
// Witness is `terminal_record`, `closing_event` or `attestation`.
type StreamClose struct {
	Witness string  `json:"witness"`
	Events  *uint64 `json:"events"`
	Reason  *string `json:"reason"`
}

// Event is one IR event: its place, its time and one family payload, the
// one Family names (read it with the accessor of that name: Call, Result, …).
type Event struct {
	// Index is the position in IR.Events, 0-based.
	Index int
	// SourceLine is the 1-based transcript line the event came from (blank lines count).
	SourceLine int
	// TimestampMs is the line's timestamp in epoch milliseconds, valid when
	// HasTimestamp (absent or malformed timestamps are not, trace.md §1.8).
	TimestampMs  int64
	HasTimestamp bool
	// Family names the payload.
	Family Family

	payload any
}

// Session returns the session_start payload, or nil.
func (e *Event) Session() *SessionStart { p, _ := e.payload.(*SessionStart); return p }

// Text returns the assistant_text payload, or nil.
func (e *Event) Text() *AssistantText { p, _ := e.payload.(*AssistantText); return p }

// Thinking returns the assistant_thinking payload, or nil.
func (e *Event) Thinking() *AssistantThinking { p, _ := e.payload.(*AssistantThinking); return p }

// Call returns the tool_call payload, or nil.
func (e *Event) Call() *ToolCall { p, _ := e.payload.(*ToolCall); return p }

// Result returns the tool_result payload, or nil.
func (e *Event) Result() *ToolResult { p, _ := e.payload.(*ToolResult); return p }

// Injection returns the synthetic_injection payload, or nil.
func (e *Event) Injection() *SyntheticInjection { p, _ := e.payload.(*SyntheticInjection); return p }

// Estimate returns the thinking_estimate payload, or nil.
func (e *Event) Estimate() *ThinkingEstimate { p, _ := e.payload.(*ThinkingEstimate); return p }

// RateLimit returns the rate_limit payload, or nil.
func (e *Event) RateLimit() *RateLimit { p, _ := e.payload.(*RateLimit); return p }

// Outcome returns the run_outcome payload, or nil.
func (e *Event) Outcome() *RunOutcome { p, _ := e.payload.(*RunOutcome); return p }

// Opaque returns the opaque payload, or nil.
func (e *Event) Opaque() *Opaque { p, _ := e.payload.(*Opaque); return p }

// SessionStart is the harness's statement of the session's environment. A nil
// list is absent, which is not the same as empty.
type SessionStart struct {
	Model, PermissionMode, APIKeySource, HarnessVersion, OutputStyle, Cwd *string
	Tools, AvailableOperations, SlashCommands, Skills, Agents             []string
	Plugins                                                               []Plugin
	MCPServers                                                            []MCPServer
}

// Plugin is one plugin a session loaded.
type Plugin struct {
	Name                  string
	Version, Source, Path *string
}

// MCPServer is one MCP server attached to a session.
type MCPServer struct {
	Name   string
	Status *string
}

// AssistantText is text the model wrote; Bytes is its length (the text
// itself is kept for the final one only, IR.FinalText).
type AssistantText struct {
	RequestID *string
	Bytes     int
}

// AssistantThinking is the model's recorded thinking; no kind reads its
// text, so only its length is kept.
type AssistantThinking struct{ Bytes int }

// ToolCall is one tool invocation. InputBytes is the byte length of the
// compact form of its whole input; Input holds the top-level input fields
// the IR keeps (ReadOptions.Keep).
type ToolCall struct {
	CallID     *string
	Name       string
	Operations []string
	Subjects   []string
	Input      Fields
	InputBytes uint64
	// ResultEvent is the index of the correlated tool_result, or -1.
	ResultEvent int
	// JoinedArgv is input.argv (or input.arguments.argv) joined by spaces, if recorded.
	JoinedArgv *string
	// repKey is the sha256 of the call's repetition key, `name + " " +
	// compact(input)` (trace.md §1.3), taken from the whole input.
	repKey [32]byte
}

// ToolResult is what came back for a call: its size, error flag and the
// structured result fields the IR keeps.
type ToolResult struct {
	CallID       *string
	IsError      *bool
	ContentBytes uint64
	Fields       Fields
}

// SyntheticInjection is text the harness injected; no kind reads it, so
// only its length is kept.
type SyntheticInjection struct{ Bytes int }

// ThinkingEstimate is the harness's live thinking-token estimate.
type ThinkingEstimate struct {
	EstimatedTokens      *uint64
	EstimatedTokensDelta *int64
}

// RateLimit is a rate-limit window report.
type RateLimit struct {
	Status, LimitType *string
	Utilization       *float64
	IsUsingOverage    *bool
	ResetsAt          *int64
}

// RunOutcome is a terminal record of one session of a run.
type RunOutcome struct {
	IsError                                                  *bool
	Subtype, StopReason, TerminalReason, APIErrorStatus      *string
	NumTurns, DurationMs, DurationAPIMs, TTFTMs, TimeToReqMs *uint64
	TotalCostUSD                                             *float64
	PermissionDenials, SubagentsSpawned                      *uint64
	Usage                                                    *Usage
	ModelUsage                                               map[string]ModelUsage

	// denials holds what the event stream's denial join reads from this
	// record, joined with the seam ledger once the whole stream is read.
	denials *denialInputs
}

// Usage is the token usage of a run.
type Usage struct {
	InputTokens, OutputTokens, CacheReadInputTokens, CacheCreationInputTokens *uint64
	ThinkingTokens, Iterations                                                *uint64
	Speed, ServiceTier                                                        *string
}

// ModelUsage is the usage attributed to one model.
type ModelUsage struct {
	InputTokens, OutputTokens, CacheReadInputTokens, CacheCreationInputTokens *uint64
	CostUSD                                                                   *float64
}

// Opaque is an event the adapter could not read; it counts as unread.
type Opaque struct {
	EventType, Subtype *string
	Digest             string
}

// Request is one API-bearing record (trace.md §1.4).
type Request struct {
	SourceLine                                                                int
	RequestID, Model                                                          *string
	InputTokens, OutputTokens, CacheReadInputTokens, CacheCreationInputTokens *uint64
	Events                                                                    []int
}

// Step is one tool call's timing (trace.md §1.7). Negative intervals are kept.
type Step struct {
	CallEvent int    `json:"call_event"`
	Tool      string `json:"tool"`
	GenMs     *int64 `json:"gen_ms"`
	ExecMs    *int64 `json:"exec_ms"`
}

// RecordsRequests reports whether the transcript's wire records API
// requests (stream-json and the event stream do; a Codex rollout does not).
func (ir *IR) RecordsRequests() bool { return !ir.requestsUnrecorded }

// Unread returns the number of events the adapter could not read.
func (ir *IR) Unread() int { return len(ir.opaque) }

// Steps returns one Step per tool call, in order.
func (ir *IR) Steps() []Step { return ir.steps }
