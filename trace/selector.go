package trace

import (
	"maps"
	"slices"
	"strings"
)

// CanonicalTools merges `tool` and `tools` into a sorted, deduplicated set.
func (s *Selector) CanonicalTools() []string {
	var out []string
	if s.Tool != nil {
		out = append(out, *s.Tool)
	}
	out = append(out, s.Tools...)
	return sortedSet(out)
}

func sortedSet(in []string) []string {
	out := append([]string{}, in...)
	slices.Sort(out)
	return slices.Compact(out)
}

// scoped reports whether the selector names anything at all.
func (s *Selector) scoped() bool {
	return s.Tool != nil || len(s.Tools) > 0 || len(s.Operations) > 0 || s.Subject != nil || len(s.Args) > 0
}

// argument is `argument(call, f)` of trace.md §1.3.
func argument(c *ToolCall, field string) (Value, bool) {
	if v, ok := c.Input.Get(field); ok {
		return v, true
	}
	if field == "command" && c.JoinedArgv != nil {
		return Value{Kind: ValueString, Text: *c.JoinedArgv}, true
	}
	return Value{}, false
}

// prepare computes once what Matches reads for every call: the merged
// tool set and the sorted argument names. Validation calls it.
func (s *Selector) prepare() {
	s.tools = s.CanonicalTools()
	s.argNames = slices.Sorted(maps.Keys(s.Args))
	s.prepared = true
}

// Matches reports whether a call is selected (trace.md §3.4).
func (s *Selector) Matches(c *ToolCall) bool {
	tools, argNames := s.tools, s.argNames
	if !s.prepared { // built without ReadSpec: compute, never write (a spec is shared across goroutines)
		tools, argNames = s.CanonicalTools(), slices.Sorted(maps.Keys(s.Args))
	}
	if len(tools) > 0 || len(s.Operations) > 0 {
		in := slices.Contains(tools, c.Name)
		if !in {
			for _, op := range c.Operations {
				if slices.Contains(s.Operations, op) {
					in = true
					break
				}
			}
		}
		if !in {
			return false
		}
	}
	if s.Subject != nil && !slices.ContainsFunc(c.Subjects, s.Subject.MatchText) {
		return false
	}
	for _, f := range argNames {
		v, ok := argument(c, f)
		if !ok || !s.Args[f].MatchValue(v) {
			return false
		}
	}
	return true
}

// Display renders the selector for reasons and notes: `any tool`, `Bash`,
// `A|B`, `op1|op2` or `<ops> or <tools>`, then `(field matcher, …)`.
func (s *Selector) Display() string {
	tools := s.CanonicalTools()
	ops := sortedSet(s.Operations)
	var scope string
	switch {
	case len(tools) > 0 && len(ops) > 0:
		scope = strings.Join(ops, "|") + " or " + strings.Join(tools, "|")
	case len(ops) > 0:
		scope = strings.Join(ops, "|")
	case len(tools) > 0:
		scope = strings.Join(tools, "|")
	default:
		scope = "any tool"
	}
	if len(s.Args) == 0 {
		return scope
	}
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(s.Args)) {
		parts = append(parts, f+" "+s.Args[f].Display())
	}
	return scope + " (" + strings.Join(parts, ", ") + ")"
}

// canonical is the selector's canonical form (trace.md §5).
func (s *Selector) canonical() map[string]any {
	args := map[string]any{}
	for f, m := range s.Args {
		args[f] = m.canonical()
	}
	out := map[string]any{"tools": s.CanonicalTools(), "args": args}
	if ops := sortedSet(s.Operations); len(ops) > 0 {
		out["operations"] = ops
	}
	if s.Subject != nil {
		out["subject"] = s.Subject.canonical()
	}
	return out
}
