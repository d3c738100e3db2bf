package flow

import (
	"strconv"

	"github.com/aepflow/aepflow/diag"
)

// ValueKind is the JSON type of a Value.
type ValueKind int

// The kinds of Value. A YAML scalar takes the kind of its resolved tag;
// tags other than null, bool, int and float read as strings.
const (
	NullValue ValueKind = iota
	BoolValue
	IntValue
	FloatValue
	StringValue
	ArrayValue
	ObjectValue
)

// Value is one node of the generic decode of a flow document: exact keys in
// source order, exact integer literals and the source position.
type Value struct {
	// Kind is the value's JSON type.
	Kind ValueKind
	// Text is a string's content, or a number's literal (an integer in
	// canonical decimal when it fits 64 bits).
	Text string
	// Bool is a boolean's value.
	Bool bool
	// Items are an array's elements.
	Items []*Value
	// Members are an object's entries in source order; keys are unique.
	Members []Member
	// Pos is where the value starts (1-based line and column in code points).
	Pos diag.Pos
}

// Member is one key of an object with its value.
type Member struct {
	Key    string
	KeyPos diag.Pos
	Value  *Value
}

// Get returns the value of key in an object, and whether the key is present.
func (v *Value) Get(key string) (*Value, bool) {
	if v == nil || v.Kind != ObjectValue {
		return nil, false
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Has reports whether an object has key.
func (v *Value) Has(key string) bool {
	_, ok := v.Get(key)
	return ok
}

// TypeName returns the value's JSON type name: null, boolean, number,
// string, array or object.
func (v *Value) TypeName() string {
	switch v.Kind {
	case NullValue:
		return "null"
	case BoolValue:
		return "boolean"
	case IntValue, FloatValue:
		return "number"
	case StringValue:
		return "string"
	case ArrayValue:
		return "array"
	default:
		return "object"
	}
}

// aType returns the type name with its article: "an array", "a string".
func (v *Value) aType() string {
	name := v.TypeName()
	if name == "array" || name == "object" {
		return "an " + name
	}
	return "a " + name
}

// uint32Value returns an integer literal's value when it lies in
// 0..4294967295, the range of the harness's u32.
func (v *Value) uint32Value() (int, bool) {
	if v == nil || v.Kind != IntValue {
		return 0, false
	}
	n, err := strconv.ParseUint(v.Text, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// stringList returns the items of an array of strings, and false when v is
// not an array or holds a non-string.
func (v *Value) stringList() ([]string, bool) {
	if v == nil || v.Kind != ArrayValue {
		return nil, false
	}
	out := make([]string, 0, len(v.Items))
	for _, it := range v.Items {
		if it.Kind != StringValue {
			return nil, false
		}
		out = append(out, it.Text)
	}
	return out, true
}
