package trace

import (
	"maps"
	"slices"
)

// streamJSONReader reads Claude Code stream-json lines (trace.md §2.3).
type streamJSONReader struct{}

// check accepts every JSON line: stream-json refuses only what is not JSON.
func (*streamJSONReader) check(*builder, line, any) bool { return true }

// line maps one line; a recognised line that yields no event becomes one
// opaque event.
func (*streamJSONReader) line(b *builder, ln line, v any) {
	o, _ := asObj(v)
	before := len(b.events)
	streamJSONLine(b, ln, o)
	if len(b.events) == before {
		b.opaqueEvent(ln, o.str("timestamp"), o.str("type"), o.str("subtype"), sha256HexBytes(ln.text))
	}
}

// finish records the closure: the last event is a run_outcome.
func (*streamJSONReader) finish(b *builder) {
	b.markers = []string{"result"}
	if n := len(b.events); n > 0 && b.events[n-1].Family == FamilyRunOutcome {
		b.close = &StreamClose{Witness: "terminal_record", Reason: b.events[n-1].Outcome().Subtype}
	}
}

// streamJSONLine maps one line by its type.
func streamJSONLine(b *builder, ln line, o obj) {
	ts := o.str("timestamp")
	typ, subtype := o.str("type"), o.str("subtype")
	t, st := deref(typ), deref(subtype)
	switch {
	case t == "system" && st == "init":
		b.push(ln, ts, FamilySessionStart, &SessionStart{
			Model: o.str("model"), PermissionMode: o.str("permissionMode"), APIKeySource: o.str("apiKeySource"),
			HarnessVersion: o.str("claude_code_version"), OutputStyle: o.str("output_style"), Cwd: o.str("cwd"),
			Tools: o.names("tools"), SlashCommands: o.names("slash_commands"), Skills: o.names("skills"),
			Agents: o.names("agents"), Plugins: o.plugins("plugins"), MCPServers: o.mcpServers("mcp_servers"),
		})
	case t == "system" && st == "thinking_tokens":
		b.push(ln, ts, FamilyThinkingEstimate, &ThinkingEstimate{
			EstimatedTokens: o.u64("estimated_tokens"), EstimatedTokensDelta: o.i64("estimated_tokens_delta"),
		})
	case t == "rate_limit_event":
		info := o.sub("rate_limit_info")
		b.push(ln, ts, FamilyRateLimit, &RateLimit{
			Status: info.str("status"), LimitType: info.str("rateLimitType"), Utilization: info.f64("utilization"),
			IsUsingOverage: info.boolean("isUsingOverage"), ResetsAt: info.i64("resetsAt"),
		})
	case t == "assistant":
		streamJSONAssistant(b, ln, o, ts)
	case t == "user":
		streamJSONUser(b, ln, o, ts)
	case t == "result":
		b.push(ln, ts, FamilyRunOutcome, streamJSONOutcome(o))
	default:
		b.opaqueEvent(ln, ts, typ, subtype, sha256HexBytes(ln.text))
	}
}

func streamJSONAssistant(b *builder, ln line, o obj, ts *string) {
	msg := o.sub("message")
	reqID := b.requestID(o.str("request_id"))
	u := msg.sub("usage")
	b.requests = append(b.requests, Request{
		SourceLine: ln.number, RequestID: reqID, Model: b.internPtr(msg.str("model")),
		InputTokens: u.u64("input_tokens"), OutputTokens: u.u64("output_tokens"),
		CacheReadInputTokens: u.u64("cache_read_input_tokens"), CacheCreationInputTokens: u.u64("cache_creation_input_tokens"),
		Events: []int{},
	})
	blocks, _ := msg.get("content").([]any)
	for _, raw := range blocks {
		blk, _ := asObj(raw)
		bt := blk.str("type")
		switch deref(bt) {
		case "text":
			if s := blk.str("text"); s != nil {
				b.text(ln, ts, *s, reqID)
				continue
			}
		case "thinking":
			if s := blk.str("thinking"); s != nil {
				b.push(ln, ts, FamilyAssistantThinking, &AssistantThinking{Bytes: len(*s)})
				continue
			}
		case "tool_use":
			if name := blk.str("name"); name != nil {
				b.push(ln, ts, FamilyToolCall, b.newToolCall(blk.str("id"), *name, blk.get("input"), nil, nil))
				continue
			}
		}
		b.opaqueEvent(ln, ts, bt, blk.str("subtype"), sha256HexBytes(ln.text))
	}
}

func streamJSONUser(b *builder, ln line, o obj, ts *string) {
	msg := o.sub("message")
	synthetic := false
	if s := o.boolean("isSynthetic"); s != nil && *s {
		synthetic = true
	}
	if s, ok := msg.get("content").(string); ok {
		if synthetic {
			b.push(ln, ts, FamilySyntheticInjection, &SyntheticInjection{Bytes: len(s)})
		}
		return
	}
	blocks, _ := msg.get("content").([]any)
	var fields Fields
	fieldsRead := false
	for _, raw := range blocks {
		blk, _ := asObj(raw)
		bt := blk.str("type")
		switch deref(bt) {
		case "tool_result":
			isErr := blk.boolean("is_error")
			if isErr == nil {
				f := false
				isErr = &f
			}
			if !fieldsRead { // the line's tool_use_result, shared by its result blocks
				fields, fieldsRead = b.resultFields(o.get("tool_use_result")), true
			}
			b.push(ln, ts, FamilyToolResult, &ToolResult{
				CallID: blk.str("tool_use_id"), IsError: isErr, ContentBytes: contentBytes(blk.get("content"), nil),
				Fields: fields,
			})
			continue
		case "text":
			if s := blk.str("text"); s != nil && synthetic {
				b.push(ln, ts, FamilySyntheticInjection, &SyntheticInjection{Bytes: len(*s)})
				continue
			}
		}
		b.opaqueEvent(ln, ts, bt, blk.str("subtype"), sha256HexBytes(ln.text))
	}
}

func streamJSONOutcome(o obj) *RunOutcome {
	r := outcomeScalars(o)
	if arr, ok := o.get("permission_denials").([]any); ok {
		n := uint64(len(arr))
		r.PermissionDenials = &n
	}
	r.SubagentsSpawned = o.sub("subagent_stats").u64("spawned")
	r.Usage = o.usage("usage", true)
	if mu := o.sub("modelUsage"); mu != nil {
		r.ModelUsage = map[string]ModelUsage{}
		for _, k := range slices.Sorted(maps.Keys(mu)) {
			m, _ := asObj(mu[k])
			r.ModelUsage[k] = ModelUsage{
				InputTokens: m.u64("inputTokens"), OutputTokens: m.u64("outputTokens"),
				CacheReadInputTokens: m.u64("cacheReadInputTokens"), CacheCreationInputTokens: m.u64("cacheCreationInputTokens"),
				CostUSD: m.f64("costUSD"),
			}
		}
	}
	return r
}

// outcomeScalars reads the run_outcome scalars both wires spell alike.
func outcomeScalars(o obj) *RunOutcome {
	return &RunOutcome{
		IsError: o.boolean("is_error"), Subtype: o.str("subtype"), StopReason: o.str("stop_reason"),
		TerminalReason: o.str("terminal_reason"), APIErrorStatus: o.str("api_error_status"),
		NumTurns: o.u64("num_turns"), DurationMs: o.u64("duration_ms"), DurationAPIMs: o.u64("duration_api_ms"),
		TTFTMs: o.u64("ttft_ms"), TimeToReqMs: o.u64("time_to_request_ms"), TotalCostUSD: o.f64("total_cost_usd"),
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
