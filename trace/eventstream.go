package trace

import (
	"maps"
	"slices"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// seamLedger is the first pass over an event stream: whether any
// `tool.decided` exists and which calls were denied at the seam.
type seamLedger struct {
	decided bool
	denied  map[string]bool
}

// readEventStream reads metaharness.event/1 lines (trace.md §2.4).
func readEventStream(b *builder, lines []line) {
	objs := make([]obj, len(lines))
	ledger := seamLedger{denied: map[string]bool{}}
	for i, ln := range lines {
		v, err := decodeJSON([]byte(ln.text))
		if err != nil {
			b.refusals.Add(refusal(CodeAdaptUnreadable, lineLoc(ln), "line %d is not JSON: %v", ln.number, err))
			continue
		}
		o, _ := asObj(v)
		switch f := o.get("format").(type) {
		case string:
			if f != eventStreamFormat {
				b.refusals.Add(refusal(CodeAdaptUnreadable, lineLoc(ln), "line %d has format `%s`, expected `%s`", ln.number, f, eventStreamFormat))
				continue
			}
		default:
			b.refusals.Add(refusal(CodeAdaptUnreadable, lineLoc(ln), "line %d has no `format: %s`", ln.number, eventStreamFormat))
			continue
		}
		objs[i] = o
		if deref(o.str("event")) == "tool.decided" {
			ledger.decided = true
			if deref(o.sub("decision").str("decision")) == "deny" {
				if id := o.str("call_id"); id != nil {
					ledger.denied[*id] = true
				}
			}
		}
	}
	if len(b.refusals) > 0 {
		return
	}
	pending := []int{} // text, thinking and tool_call events since the last `usage`
	for i, ln := range lines {
		for _, idx := range eventStreamLine(b, ln, objs[i], &ledger, &pending) {
			pending = append(pending, idx)
		}
	}
	b.markers = []string{"stream.closed", "hermetic.stream_complete"}
	b.close = eventStreamClosure(lines, objs)
}

// eventStreamLine maps one line and returns the indices that belong to the
// next request (text, thinking and tool_call events).
func eventStreamLine(b *builder, ln line, o obj, ledger *seamLedger, pending *[]int) []int {
	ts := o.str("at")
	name := o.str("event")
	digest := func() string {
		if d := o.str("digest"); d != nil {
			return *d
		}
		return sha256Hex(Compact(map[string]any(o)))
	}
	switch deref(name) {
	case "session.started":
		b.push(ln, ts, Event{Family: FamilySessionStart, Session: &SessionStart{
			AvailableOperations: o.names("available_operations"), Model: o.str("model"),
			PermissionMode: o.str("permission_mode"), APIKeySource: o.str("credential_source"),
			HarnessVersion: o.str("harness_version"), OutputStyle: o.str("output_style"), Cwd: o.str("cwd"),
			Tools: o.names("offered_tools"), SlashCommands: o.names("slash_commands"), Skills: o.names("skills"),
			Agents: o.names("agents"), Plugins: o.plugins("plugins"), MCPServers: o.mcpServers("mcp_servers"),
		}})
	case "session.ended":
		b.push(ln, ts, Event{Family: FamilyRunOutcome, Outcome: eventStreamOutcome(o, ledger)})
	case "text":
		return []int{b.push(ln, ts, Event{Family: FamilyAssistantText, Text: &AssistantText{Text: deref(o.str("text")), RequestID: o.str("request_id")}})}
	case "thinking":
		return []int{b.push(ln, ts, Event{Family: FamilyAssistantThinking, Thinking: &AssistantThinking{Text: deref(o.str("text"))}})}
	case "thinking.estimate":
		b.push(ln, ts, Event{Family: FamilyThinkingEstimate, Estimate: &ThinkingEstimate{EstimatedTokens: o.u64("estimate"), EstimatedTokensDelta: o.i64("delta")}})
	case "injection":
		b.push(ln, ts, Event{Family: FamilySyntheticInjection, Injection: &SyntheticInjection{Text: deref(o.str("text"))}})
	case "tool.requested":
		n := o.str("name")
		if n == nil {
			b.push(ln, ts, opaqueEvent(name, nil, sha256Hex(Compact(map[string]any(o)))))
			return nil
		}
		ops := o.names("operations")
		subjects := o.names("subjects")
		return []int{b.push(ln, ts, Event{Family: FamilyToolCall, Call: newToolCall(o.str("call_id"), *n, o.get("input"), ops, subjects)})}
	case "tool.result":
		b.push(ln, ts, Event{Family: FamilyToolResult, Result: eventStreamResult(o)})
	case "rate_limit":
		info := o.sub("info")
		b.push(ln, ts, Event{Family: FamilyRateLimit, RateLimit: &RateLimit{
			Status: info.str("status"), LimitType: info.str("window"), Utilization: info.f64("utilization"),
			IsUsingOverage: info.boolean("using_overage"), ResetsAt: info.i64("resets_at"),
		}})
	case "opaque":
		b.push(ln, ts, opaqueEvent(o.str("vendor_type"), o.str("vendor_subtype"), digest()))
	case "usage":
		u := o.sub("usage")
		b.requests = append(b.requests, Request{
			SourceLine: ln.number, RequestID: o.str("request_id"), Model: o.str("model"),
			InputTokens: u.u64("input_tokens"), OutputTokens: u.u64("output_tokens"),
			CacheReadInputTokens: u.u64("cache_read_input_tokens"), CacheCreationInputTokens: u.u64("cache_creation_input_tokens"),
			Events: append([]int{}, *pending...),
		})
		*pending = (*pending)[:0]
	case "stream.closed", "step.entered", "step.left", "turn.started", "turn.ended", "tool.decided",
		"command.result", "warning", "auth.expired":
		// Control plane: understood, carries no event, not unread.
	default:
		b.push(ln, ts, opaqueEvent(name, nil, sha256Hex(Compact(map[string]any(o)))))
	}
	return nil
}

func eventStreamResult(o obj) *ToolResult {
	c := content(o.get("content"))
	fields := map[string]any{}
	if m, ok := asObj(o.get("tool_use_result")); ok && len(m) > 0 {
		fields = m
	} else if m, ok := asObj(o.get("content")); ok {
		fields = m
	}
	return &ToolResult{
		CallID: o.str("call_id"), IsError: o.boolean("is_error"), Content: c,
		ContentBytes: contentBytes(c, o.u64("bytes")), Fields: fields,
	}
}

func eventStreamOutcome(o obj, ledger *seamLedger) *RunOutcome {
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
	r.PermissionDenials = denialJoin(o, ledger)
	return r
}

// denialJoin counts permission denials across the seam ledger and the
// vendor's own list (trace.md §2.4).
func denialJoin(o obj, ledger *seamLedger) *uint64 {
	censusDenied := o.sub("census").u64("denied")
	vendor, hasVendor := o.get("permission_denials").([]any)
	if censusDenied == nil && !hasVendor && !ledger.decided {
		return nil
	}
	n := uint64(len(ledger.denied))
	if censusDenied != nil && *censusDenied > n {
		n = *censusDenied
	}
	for _, e := range vendor {
		m, _ := asObj(e)
		if id := m.str("tool_use_id"); id != nil && ledger.denied[*id] {
			continue
		}
		n++
	}
	return &n
}

func eventStreamClosure(lines []line, objs []obj) *StreamClose {
	if n := len(lines); n > 0 {
		last := objs[n-1]
		if deref(last.str("event")) == "stream.closed" {
			return &StreamClose{Witness: "closing_event", Events: last.u64("events"), Reason: last.str("reason")}
		}
	}
	for _, o := range objs {
		if deref(o.str("event")) != "session.started" {
			continue
		}
		h := o.sub("hermetic")
		if c := h.boolean("stream_complete"); c != nil && *c {
			return &StreamClose{Witness: "attestation", Events: h.u64("stream_events"), Reason: h.str("stream_reason")}
		}
	}
	return nil
}
