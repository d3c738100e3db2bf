package flow

import (
	"math"
	"strconv"
	"strings"

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
	// canonical decimal when it fits 64 bits and is written in decimal;
	// as written when NonDecimal).
	Text string
	// Bool is a boolean's value.
	Bool bool
	// NonDecimal marks a YAML integer written other than in decimal as JSON
	// writes it (`07`, `010`, `0x10`, `0o17`, `0b11`, `3_0`, `+3`): yaml.v3
	// reads each as a number, YAML 1.1 and 1.2 readers read several of
	// them otherwise (`010` is 8 or 10, `3_0` is 30 or text), so the strict
	// check refuses them (docs/decisions.md).
	NonDecimal bool
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

// describe names the value in a message, with its type unless it is an
// integer: the string "2", the number `2.5`, the boolean `true`, null, an
// array, an object; an integer is its literal (`-1`), the type a count
// wants, the value not.
func (v *Value) describe() string {
	switch v.Kind {
	case IntValue:
		return "`" + v.Text + "`"
	case FloatValue:
		return "the number `" + v.Text + "`"
	case StringValue:
		return "the string " + strconv.Quote(v.Text)
	case BoolValue:
		return "the boolean `" + strconv.FormatBool(v.Bool) + "`"
	case NullValue:
		return "null"
	}
	return v.aType()
}

// uint32Value returns an integer literal's value when it lies in
// 0..4294967295, the range of the harness's u32.
func (v *Value) uint32Value() (int, bool) {
	if v == nil || v.Kind != IntValue {
		return 0, false
	}
	if v.NonDecimal {
		// yaml.v3's reading: `_` dropped, the base from the prefix (a
		// leading 0 is octal).
		n, err := strconv.ParseInt(strings.ReplaceAll(v.Text, "_", ""), 0, 64)
		if err != nil || n < 0 || n > math.MaxUint32 {
			return 0, false
		}
		return int(n), true
	}
	n, err := strconv.ParseUint(v.Text, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// isDecimal reports whether lit is an integer as JSON writes it: an
// optional `-`, then `0` or digits that do not start with 0.
func isDecimal(lit string) bool {
	digits := strings.TrimPrefix(lit, "-")
	if digits == "" || (len(digits) > 1 && digits[0] == '0') {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
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
