package trace

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// ValueKind says what JSON value a recorded Value was.
type ValueKind uint8

// The kinds of a recorded JSON value.
const (
	ValueNull ValueKind = iota
	ValueBool
	ValueNumber
	ValueString
	// ValueCompound is an array or an object.
	ValueCompound
)

// Value is one recorded JSON value, kept compact: its kind and its text —
// the string itself for a string, the canonical compact JSON (Compact) for
// everything else. That is exactly what a matcher reads (trace.md §3.5:
// `text_of(v)`, and `equals` by kind), so the decoded tree need not be kept.
type Value struct {
	Kind ValueKind
	Text string
}

// newValue records a decoded JSON value (as decodeJSON produces it).
func newValue(v any) Value {
	switch x := v.(type) {
	case nil:
		return Value{Kind: ValueNull, Text: "null"}
	case bool:
		return Value{Kind: ValueBool, Text: strconv.FormatBool(x)}
	case json.Number:
		return Value{Kind: ValueNumber, Text: formatNumber(x)}
	case string:
		return Value{Kind: ValueString, Text: x}
	}
	return Value{Kind: ValueCompound, Text: Compact(v)}
}

// integer returns the value as an int64 when it is a JSON integer that
// fits one (a number written with a fraction or an exponent is not).
func (v Value) integer() (int64, bool) {
	if v.Kind != ValueNumber || strings.ContainsAny(v.Text, ".eE") {
		return 0, false
	}
	i, err := strconv.ParseInt(v.Text, 10, 64)
	return i, err == nil
}

// Field is one top-level field of a tool call's input or a result's
// structured fields.
type Field struct {
	Name  string
	Value Value
}

// Fields holds the top-level fields of an object, sorted by name. Only the
// top level is kept: `args` matchers and `tool.result` fields name
// top-level fields (trace.md §1.3, §3.4), and deeper values are matched as
// the compact text of their top-level field.
type Fields []Field

// Get returns the field named name.
func (f Fields) Get(name string) (Value, bool) {
	i := sort.Search(len(f), func(i int) bool { return f[i].Name >= name })
	if i < len(f) && f[i].Name == name {
		return f[i].Value, true
	}
	return Value{}, false
}

// Keep says which top-level fields of tool-call inputs and of results an
// IR keeps. Every other value is dropped as the transcript is read (its
// size and, for inputs, its repetition key are recorded first), which is
// what keeps the IR of a long transcript small: the bulk of a transcript is
// tool input and output that no expectation reads. A nil *Keep keeps
// everything.
type Keep struct {
	args, results map[string]bool
}

// KeepNothing keeps no input or result field (enough for a census).
var KeepNothing = &Keep{}

// keepArg reports whether input field name is kept.
func (k *Keep) keepArg(name string) bool { return k == nil || k.args[name] }

// keepResult reports whether result field name is kept.
func (k *Keep) keepResult(name string) bool { return k == nil || k.results[name] }

// Keep returns the fields the expectations of s read: the `args` of every
// selector, `skill` of skill calls, the `result` fields of `tool.result`,
// and `commandName` and `success` for `skill.completed`.
func (s *Spec) Keep() *Keep {
	k := &Keep{args: map[string]bool{}, results: map[string]bool{}}
	addSelector := func(sel *Selector) {
		if sel == nil {
			return
		}
		for f := range sel.Args {
			k.args[f] = true
		}
	}
	for i := range s.Expectations {
		kind := &s.Expectations[i].Kind
		addSelector(kind.Selector)
		addSelector(kind.First)
		addSelector(kind.Before)
		for f := range kind.Result {
			k.results[f] = true
		}
		switch kind.Name {
		case KindSkillInvoked, KindSkillCompleted:
			k.args["skill"] = true
			k.results["commandName"], k.results["success"] = true, true
		}
	}
	return k
}

// objectFields records the fields of a decoded object that keep admits.
func objectFields(m map[string]any, keep func(string) bool) Fields {
	var out Fields
	for name, v := range m {
		if keep(name) {
			out = append(out, Field{Name: name, Value: newValue(v)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
