package trace

import "strings"

// codexSessionMeta is the envelope type of a Codex rollout's first line,
// which selects the Codex reader (trace.md §2.1 as docs/trace.md extends it).
const codexSessionMeta = "session_meta"

// codexReader reads Codex rollout JSONL (trace.md §2.5). Every line is an
// envelope `{timestamp, type, payload}`; the reader maps the session
// metadata, tool calls and their outputs, assistant messages, reasoning
// summaries and user messages, and keeps everything else as opaque. The
// format records no API requests and no closure: the kinds that read them
// are undecidable on a rollout, never false.
type codexReader struct{}

// check accepts every JSON line: like stream-json, a rollout refuses only
// what is not JSON.
func (*codexReader) check(*builder, line, any) bool { return true }

func (*codexReader) line(b *builder, ln line, v any) {
	o, _ := asObj(v)
	ts := o.str("timestamp")
	envelope := o.str("type")
	p := o.sub("payload")
	ptype := p.str("type")
	if !codexEvent(b, ln, ts, deref(envelope), deref(ptype), p) {
		b.opaqueEvent(ln, ts, envelope, ptype, sha256HexBytes(ln.text))
	}
}

// codexEvent maps one envelope and reports whether it produced an event.
func codexEvent(b *builder, ln line, ts *string, envelope, ptype string, p obj) bool {
	switch {
	case envelope == codexSessionMeta:
		b.push(ln, ts, FamilySessionStart, &SessionStart{Model: p.str("model"), Cwd: p.str("cwd"), HarnessVersion: p.str("cli_version")})
	case envelope == "response_item" && (ptype == "function_call" || ptype == "custom_tool_call"):
		name := p.str("name")
		if name == nil {
			return false
		}
		arguments := "arguments"
		if ptype == "custom_tool_call" {
			arguments = "input"
		}
		b.push(ln, ts, FamilyToolCall, b.newCodexCall(p.str("call_id"), *name, p.get(arguments)))
	case envelope == "response_item" && (ptype == "function_call_output" || ptype == "custom_tool_call_output"):
		b.push(ln, ts, FamilyToolResult, &ToolResult{CallID: p.str("call_id"), ContentBytes: contentBytes(p.get("output"), nil)})
	case envelope == "response_item" && ptype == "message" && deref(p.str("role")) == "assistant":
		b.text(ln, ts, codexTexts(p.get("content")), nil)
	case envelope == "response_item" && ptype == "reasoning":
		b.push(ln, ts, FamilyAssistantThinking, &AssistantThinking{Bytes: len(codexTexts(p.get("summary")))})
	case envelope == "event_msg" && ptype == "user_message":
		b.push(ln, ts, FamilySyntheticInjection, &SyntheticInjection{Bytes: len(deref(p.str("message")))})
	default:
		return false
	}
	return true
}

// newCodexCall builds a tool_call whose input is `{"arguments": <raw>}`:
// the call's arguments as the rollout writes them (a string of JSON for a
// function call, free text for a custom tool such as apply_patch), not
// decoded. input_bytes is the raw text's length (trace.md §2.5).
func (b *builder) newCodexCall(callID *string, name string, raw any) *ToolCall {
	input := map[string]any{}
	text := ""
	switch x := raw.(type) {
	case nil:
	case string:
		text = x
		input["arguments"] = x
	default:
		text = Compact(x)
		input["arguments"] = text
	}
	call := b.newToolCall(callID, name, input, nil, nil)
	call.InputBytes = uint64(len(text))
	return call
}

// codexTexts joins the `text` of every content or summary item by `\n`.
func codexTexts(items any) string {
	arr, _ := items.([]any)
	var parts []string
	for _, it := range arr {
		if m, ok := asObj(it); ok {
			if s := m.str("text"); s != nil {
				parts = append(parts, *s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// finish records what the format cannot carry: no closure marker, no
// requests.
func (*codexReader) finish(b *builder) {
	b.markers = []string{}
	b.requestsUnrecorded = true
}
