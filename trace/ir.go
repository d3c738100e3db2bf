package trace

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
// Build one with Read; the derived fields are filled in by Read and must not
// be edited afterwards.
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

	derived
}

// derived holds the indices the checks read, computed once by finish.
type derived struct {
	sessionStart  int   // first session_start, -1 if none
	outcomes      []int // every run_outcome
	rateLimits    []int // every rate_limit
	lastEstimate  int   // last thinking_estimate with estimated_tokens, -1 if none
	finalText     int   // last assistant_text, -1 if none
	opaque        []int // every opaque event
	calls         []int // every tool_call
	steps         []Step
	resultOfFirst map[string]int
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
)

// StreamClose records how the producer said the record is the whole run.
// Witness is `terminal_record`, `closing_event` or `attestation`.
type StreamClose struct {
	Witness string  `json:"witness"`
	Events  *uint64 `json:"events"`
	Reason  *string `json:"reason"`
}

// Event is one IR event. Exactly one of the family pointers is set, the one
// Family names.
type Event struct {
	// Index is the position in IR.Events, 0-based.
	Index int
	// SourceLine is the 1-based transcript line the event came from (blank lines count).
	SourceLine int
	// Timestamp is the line's timestamp verbatim, or nil.
	Timestamp *string
	// TimestampMs is Timestamp in epoch milliseconds, nil when absent or malformed.
	TimestampMs *int64
	// Family names the set pointer below.
	Family Family

	Session   *SessionStart
	Text      *AssistantText
	Thinking  *AssistantThinking
	Call      *ToolCall
	Result    *ToolResult
	Injection *SyntheticInjection
	Estimate  *ThinkingEstimate
	RateLimit *RateLimit
	Outcome   *RunOutcome
	Opaque    *Opaque
}

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

// AssistantText is text the model wrote.
type AssistantText struct {
	Text      string
	RequestID *string
}

// AssistantThinking is the model's recorded thinking.
type AssistantThinking struct{ Text string }

// ToolCall is one tool invocation. Input is the call's input object as
// decoded JSON; InputBytes is the byte length of its compact form.
type ToolCall struct {
	CallID      *string
	Name        string
	Operations  []string
	Subjects    []string
	Input       map[string]any
	InputBytes  uint64
	ResultEvent *int
	// JoinedArgv is input.argv (or input.arguments.argv) joined by spaces, if recorded.
	JoinedArgv *string
}

// ToolResult is what came back for a call. Fields is the structured result
// object (never nil); Content is the textual content, nil when none.
type ToolResult struct {
	CallID       *string
	IsError      *bool
	Content      *string
	ContentBytes uint64
	Fields       map[string]any
}

// SyntheticInjection is text the harness injected; no kind reads it.
type SyntheticInjection struct{ Text string }

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

// Unread returns the number of events the adapter could not read.
func (ir *IR) Unread() int { return len(ir.opaque) }

// Steps returns one Step per tool call, in order.
func (ir *IR) Steps() []Step { return ir.steps }
