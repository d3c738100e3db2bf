package trace

import (
	"crypto/sha256"
	"encoding/json"
	"strconv"
	"strings"
)

// obj is one decoded JSON object of a transcript line. Its accessors apply
// the scalar rules of trace.md §1.9: a JSON null is absent, u64 fields take
// only non-negative integers, i64 only integers, f64 any number.
type obj map[string]any

func asObj(v any) (obj, bool) {
	m, ok := v.(map[string]any)
	return obj(m), ok
}

func (o obj) get(key string) any {
	if o == nil {
		return nil
	}
	return o[key]
}

func (o obj) sub(key string) obj {
	m, _ := asObj(o.get(key))
	return m
}

func (o obj) str(key string) *string {
	if s, ok := o.get(key).(string); ok {
		return &s
	}
	return nil
}

func (o obj) boolean(key string) *bool {
	if b, ok := o.get(key).(bool); ok {
		return &b
	}
	return nil
}

func isInteger(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }

func (o obj) u64(key string) *uint64 {
	n, ok := o.get(key).(json.Number)
	if !ok || !isInteger(n) {
		return nil
	}
	u, err := strconv.ParseUint(string(n), 10, 64)
	if err != nil {
		return nil
	}
	return &u
}

func (o obj) i64(key string) *int64 {
	n, ok := o.get(key).(json.Number)
	if !ok || !isInteger(n) {
		return nil
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return nil
	}
	return &i
}

func (o obj) f64(key string) *float64 {
	n, ok := o.get(key).(json.Number)
	if !ok {
		return nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !isRangeErr(err) {
		return nil
	}
	return &f
}

// names reads a name list: strings, or objects with a string `name`, else
// the entry's compact JSON. A value that is not an array is absent (nil).
func (o obj) names(key string) []string {
	arr, ok := o.get(key).([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		out = append(out, entryName(e))
	}
	return out
}

func entryName(e any) string {
	if s, ok := e.(string); ok {
		return s
	}
	if m, ok := asObj(e); ok {
		if s, ok := m.get("name").(string); ok {
			return s
		}
	}
	return Compact(e)
}

func (o obj) plugins(key string) []Plugin {
	arr, ok := o.get(key).([]any)
	if !ok {
		return nil
	}
	out := make([]Plugin, 0, len(arr))
	for _, e := range arr {
		p := Plugin{Name: entryName(e)}
		if m, ok := asObj(e); ok {
			p.Version, p.Source, p.Path = m.str("version"), m.str("source"), m.str("path")
		}
		out = append(out, p)
	}
	return out
}

func (o obj) mcpServers(key string) []MCPServer {
	arr, ok := o.get(key).([]any)
	if !ok {
		return nil
	}
	out := make([]MCPServer, 0, len(arr))
	for _, e := range arr {
		s := MCPServer{Name: entryName(e)}
		if m, ok := asObj(e); ok {
			s.Status = m.str("status")
		}
		out = append(out, s)
	}
	return out
}

// contentBytes is a result's content_bytes: the byte length of its
// content (a string as-is, an array or object as compact JSON), else the
// wire's own count, else 0.
func contentBytes(content any, wire *uint64) uint64 {
	switch x := content.(type) {
	case string:
		return uint64(len(x))
	case []any, map[string]any:
		return uint64(len(Compact(x)))
	}
	if wire != nil {
		return *wire
	}
	return 0
}

// resultFields records a result's structured fields: the object's
// top-level fields the IR keeps, or none when v is not an object.
func (b *builder) resultFields(v any) Fields {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return b.fields(m, b.keep.keepResult)
}

// fields records the top-level fields of m that keep admits, names interned.
func (b *builder) fields(m map[string]any, keep func(string) bool) Fields {
	f := objectFields(m, keep)
	for i := range f {
		f[i].Name = b.intern(f[i].Name)
	}
	return f
}

// newToolCall builds a tool_call from its wire parts; subjects come from the
// input unless the wire names its own. Size and repetition key are taken
// from the whole input before it is trimmed to the fields the IR keeps.
func (b *builder) newToolCall(callID *string, name string, input any, operations, subjects []string) *ToolCall {
	in, ok := input.(map[string]any)
	if !ok {
		in = map[string]any{}
	}
	if operations == nil {
		operations = []string{}
	}
	if len(subjects) == 0 {
		subjects = subjectsFromInput(in)
	}
	name = b.intern(name)
	compact := Compact(in)
	return &ToolCall{
		CallID:      callID,
		Name:        name,
		Operations:  operations,
		Subjects:    subjects,
		Input:       b.fields(in, b.keep.keepArg),
		InputBytes:  uint64(len(compact)),
		ResultEvent: -1,
		JoinedArgv:  joinedArgv(in),
		repKey:      sha256.Sum256([]byte(name + " " + compact)),
	}
}

func subjectsFromInput(in map[string]any) []string {
	var out []string
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s, ok := in[k].(string); ok {
			out = append(out, "file:"+s)
		}
	}
	return out
}

func joinedArgv(in map[string]any) *string {
	arr, ok := in["argv"].([]any)
	if !ok {
		if args, ok := asObj(in["arguments"]); ok {
			arr, ok = args["argv"].([]any)
			if !ok {
				return nil
			}
		} else {
			return nil
		}
	}
	var parts []string
	for _, e := range arr {
		if s, ok := e.(string); ok {
			parts = append(parts, s)
		}
	}
	s := strings.Join(parts, " ")
	return &s
}

func (o obj) usage(key string, iterationsAsArray bool) *Usage {
	u := o.sub(key)
	if u == nil {
		return nil
	}
	out := &Usage{
		InputTokens:              u.u64("input_tokens"),
		OutputTokens:             u.u64("output_tokens"),
		CacheReadInputTokens:     u.u64("cache_read_input_tokens"),
		CacheCreationInputTokens: u.u64("cache_creation_input_tokens"),
		Speed:                    u.str("speed"),
		ServiceTier:              u.str("service_tier"),
	}
	if iterationsAsArray {
		out.ThinkingTokens = u.sub("output_tokens_details").u64("thinking_tokens")
		if arr, ok := u.get("iterations").([]any); ok {
			n := uint64(len(arr))
			out.Iterations = &n
		}
	} else {
		out.ThinkingTokens = u.u64("thinking_tokens")
		out.Iterations = u.u64("iterations")
	}
	return out
}
