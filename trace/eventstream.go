package trace

import (
	"maps"
	"slices"
)

// eventStreamReader reads metaharness.event/1 lines (trace.md §2.4) in one
// pass. What the reference reads in a first pass — the seam ledger (whether
// any `tool.decided` exists, and the denied call ids) — is collected along
// the way, and the denial join of each `session.ended` waits for it in
// finish.
type eventStreamReader struct {
	decided  bool
	denied   map[string]bool
	outcomes []*RunOutcome // session.ended records whose denial join waits for the ledger
	// pending holds the text, thinking and tool_call events since the
	// last `usage`: the events of the next request.
	pending []int
	// lastClose is the closure of the last line read when it was
	// `stream.closed`, else nil; attested is the first hermetic
	// attestation of a `session.started`.
	lastClose, attested *StreamClose
}

func newEventStreamReader() *eventStreamReader {
	return &eventStreamReader{denied: map[string]bool{}}
}

// denialInputs is what the denial join reads from a `session.ended`.
type denialInputs struct {
	censusDenied *uint64
	hasVendor    bool
	vendorIDs    []*string // tool_use_id of each vendor entry, nil when it has none
}

// check refuses a line without `format: metaharness.event/1`.
func (*eventStreamReader) check(b *builder, ln line, v any) bool {
	o, _ := asObj(v)
	switch f := o.get("format").(type) {
	case string:
		if f == eventStreamFormat {
			return true
		}
		b.refuse(refusal(CodeAdaptUnreadable, lineLoc(ln.number), "line %d has format %s, expected `%s`", ln.number, b.quote(f), eventStreamFormat))
	default:
		b.refuse(refusal(CodeAdaptUnreadable, lineLoc(ln.number), "line %d has no `format: %s`", ln.number, eventStreamFormat))
	}
	return false
}

func (r *eventStreamReader) line(b *builder, ln line, v any) {
	o, _ := asObj(v)
	name := deref(o.str("event"))
	if name == "tool.decided" && deref(o.sub("decision").str("decision")) == "deny" {
		if id := o.str("call_id"); id != nil {
			r.denied[*id] = true
		}
	}
	r.decided = r.decided || name == "tool.decided"
	r.lastClose = nil
	if name == "stream.closed" {
		r.lastClose = &StreamClose{Witness: "closing_event", Events: o.u64("events"), Reason: o.str("reason")}
	}
	if name == "session.started" && r.attested == nil {
		h := o.sub("hermetic")
		if c := h.boolean("stream_complete"); c != nil && *c {
			r.attested = &StreamClose{Witness: "attestation", Events: h.u64("stream_events"), Reason: h.str("stream_reason")}
		}
	}
	if i, ok := r.event(b, ln, o); ok {
		r.pending = append(r.pending, i)
	}
}

// event maps one line; it reports the index of an event that belongs to
// the next request (text, thinking and tool_call events).
func (r *eventStreamReader) event(b *builder, ln line, o obj) (int, bool) {
	ts := o.str("at")
	name := o.str("event")
	lineDigest := func() string { return sha256Hex(Compact(map[string]any(o))) }
	switch deref(name) {
	case "session.started":
		b.push(ln, ts, FamilySessionStart, &SessionStart{
			AvailableOperations: o.names("available_operations"), Model: o.str("model"),
			PermissionMode: o.str("permission_mode"), APIKeySource: o.str("credential_source"),
			HarnessVersion: o.str("harness_version"), OutputStyle: o.str("output_style"), Cwd: o.str("cwd"),
			Tools: o.names("offered_tools"), SlashCommands: o.names("slash_commands"), Skills: o.names("skills"),
			Agents: o.names("agents"), Plugins: o.plugins("plugins"), MCPServers: o.mcpServers("mcp_servers"),
		})
	case "session.ended":
		out := eventStreamOutcome(o)
		r.outcomes = append(r.outcomes, out)
		b.push(ln, ts, FamilyRunOutcome, out)
	case "text":
		return b.text(ln, ts, deref(o.str("text")), b.requestID(o.str("request_id"))), true
	case "thinking":
		return b.push(ln, ts, FamilyAssistantThinking, &AssistantThinking{Bytes: len(deref(o.str("text")))}), true
	case "thinking.estimate":
		b.push(ln, ts, FamilyThinkingEstimate, &ThinkingEstimate{EstimatedTokens: o.u64("estimate"), EstimatedTokensDelta: o.i64("delta")})
	case "injection":
		b.push(ln, ts, FamilySyntheticInjection, &SyntheticInjection{Bytes: len(deref(o.str("text")))})
	case "tool.requested":
		n := o.str("name")
		if n == nil {
			b.opaqueEvent(ln, ts, name, nil, lineDigest())
			return 0, false
		}
		call := b.newToolCall(o.str("call_id"), *n, o.get("input"), o.names("operations"), o.names("subjects"))
		return b.push(ln, ts, FamilyToolCall, call), true
	case "tool.result":
		b.push(ln, ts, FamilyToolResult, eventStreamResult(b, o))
	case "rate_limit":
		info := o.sub("info")
		b.push(ln, ts, FamilyRateLimit, &RateLimit{
			Status: info.str("status"), LimitType: info.str("window"), Utilization: info.f64("utilization"),
			IsUsingOverage: info.boolean("using_overage"), ResetsAt: info.i64("resets_at"),
		})
	case "opaque":
		digest := o.str("digest")
		if digest == nil {
			d := lineDigest()
			digest = &d
		}
		b.opaqueEvent(ln, ts, o.str("vendor_type"), o.str("vendor_subtype"), *digest)
	case "usage":
		u := o.sub("usage")
		b.requests = append(b.requests, Request{
			SourceLine: ln.number, RequestID: b.requestID(o.str("request_id")), Model: b.internPtr(o.str("model")),
			InputTokens: u.u64("input_tokens"), OutputTokens: u.u64("output_tokens"),
			CacheReadInputTokens: u.u64("cache_read_input_tokens"), CacheCreationInputTokens: u.u64("cache_creation_input_tokens"),
			Events: append([]int{}, r.pending...),
		})
		r.pending = r.pending[:0]
	case "stream.closed", "step.entered", "step.left", "turn.started", "turn.ended", "tool.decided",
		"command.result", "warning", "auth.expired":
		// Control plane: understood, carries no event, not unread.
	default:
		b.opaqueEvent(ln, ts, name, nil, lineDigest())
	}
	return 0, false
}

// finish joins the permission denials of every session.ended with the
// whole stream's seam ledger and records the closure: the last non-blank
// line is `stream.closed`, else the first hermetic attestation.
func (r *eventStreamReader) finish(b *builder) {
	for _, o := range r.outcomes {
		o.PermissionDenials = r.denialJoin(o.denials)
		o.denials = nil
	}
	b.markers = []string{"stream.closed", "hermetic.stream_complete"}
	b.close = r.lastClose
	if b.close == nil {
		b.close = r.attested
	}
}

func eventStreamResult(b *builder, o obj) *ToolResult {
	fields := Fields{}
	if m, ok := asObj(o.get("tool_use_result")); ok && len(m) > 0 {
		fields = b.resultFields(map[string]any(m))
	} else if m, ok := asObj(o.get("content")); ok {
		fields = b.resultFields(map[string]any(m))
	}
	return &ToolResult{
		CallID: o.str("call_id"), IsError: o.boolean("is_error"),
		ContentBytes: contentBytes(o.get("content"), o.u64("bytes")), Fields: fields,
	}
}

func eventStreamOutcome(o obj) *RunOutcome {
	r := outcomeScalars(o)
	r.SubagentsSpawned = o.u64("subagents_spawned")
	r.Usage = o.usage("usage", false)
	if mu := o.sub("model_usage"); mu != nil {
		r.ModelUsage = map[string]ModelUsage{}
		for _, k := range slices.Sorted(maps.Keys(mu)) {
			m, _ := asObj(mu[k])
			r.ModelUsage[k] = ModelUsage{
				InputTokens: m.u64("input_tokens"), OutputTokens: m.u64("output_tokens"),
				CacheReadInputTokens: m.u64("cache_read_input_tokens"), CacheCreationInputTokens: m.u64("cache_creation_input_tokens"),
				CostUSD: m.f64("cost_usd"),
			}
		}
	}
	in := &denialInputs{censusDenied: o.sub("census").u64("denied")}
	if vendor, ok := o.get("permission_denials").([]any); ok {
		in.hasVendor = true
		for _, e := range vendor {
			m, _ := asObj(e)
			in.vendorIDs = append(in.vendorIDs, m.str("tool_use_id"))
		}
	}
	r.denials = in
	return r
}

// denialJoin counts permission denials across the seam ledger and the
// vendor's own list (trace.md §2.4).
func (r *eventStreamReader) denialJoin(in *denialInputs) *uint64 {
	if in.censusDenied == nil && !in.hasVendor && !r.decided {
		return nil
	}
	n := uint64(len(r.denied))
	if in.censusDenied != nil && *in.censusDenied > n {
		n = *in.censusDenied
	}
	for _, id := range in.vendorIDs {
		if id != nil && r.denied[*id] {
			continue
		}
		// Capped: a `census.denied` of 2^64 - 1 and one more vendor
		// entry wrapped round to 0 denials.
		n = addCapped(n, 1)
	}
	return &n
}
