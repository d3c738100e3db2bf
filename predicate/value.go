package predicate

import (
	"github.com/aepflow/aepflow/internal/decimal"
	"math"
	"strconv"
	"strings"
)

// Kind names the type of a Value.
type Kind int

const (
	// KindText is a string value. The zero Value is the empty text.
	KindText Kind = iota
	// KindNumber is a finite 64-bit floating-point value.
	KindNumber
	// KindBool is true or false.
	KindBool
)

// String returns "text", "number" or "bool".
func (k Kind) String() string {
	switch k {
	case KindNumber:
		return "number"
	case KindBool:
		return "bool"
	default:
		return "text"
	}
}

// Value is a fact value or a literal (engine.md §2.1): text, a finite number
// or a bool. Values are immutable and comparable with ==, although Equal is
// the type-strict equality the language uses (it also treats -0 and 0 as one
// number).
type Value struct {
	kind Kind
	text string
	num  float64
	b    bool
}

// Text returns the text value s.
func Text(s string) Value { return Value{kind: KindText, text: s} }

// Number returns the number value f. f must be finite: the language never
// holds NaN or an infinity (use ParseNumber or Literal on untrusted text).
// A non-finite f is kept as given and never equals or orders against anything.
func Number(f float64) Value { return Value{kind: KindNumber, num: f} }

// Bool returns the bool value b.
func Bool(b bool) Value { return Value{kind: KindBool, b: b} }

// Kind reports the type of v.
func (v Value) Kind() Kind { return v.kind }

// Text returns the text of a text value ("" for other kinds).
func (v Value) Text() string { return v.text }

// Number returns the number of a number value (0 for other kinds).
func (v Value) Number() float64 { return v.num }

// Bool returns the bool of a bool value (false for other kinds).
func (v Value) Bool() bool { return v.b }

// Truthy reports the value's truthiness (engine.md §2.1): a bool as is, a
// number when it is not zero, a text when it is non-empty and not "false".
func (v Value) Truthy() bool {
	switch v.kind {
	case KindBool:
		return v.b
	case KindNumber:
		return v.num != 0 && !math.IsNaN(v.num)
	default:
		return v.text != "" && v.text != "false"
	}
}

// Equal reports type-strict equality: the number 1 never equals the text "1".
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case KindBool:
		return v.b == w.b
	case KindNumber:
		return v.num == w.num
	default:
		return v.text == w.text
	}
}

// String returns the display form (documents.md §5.6): bools as true/false,
// integral numbers below 2^53 in magnitude as integer digits, other numbers as
// the shortest round-trip decimal without exponent, text raw.
func (v Value) String() string {
	switch v.kind {
	case KindBool:
		return strconv.FormatBool(v.b)
	case KindNumber:
		return FormatNumber(v.num)
	default:
		return v.text
	}
}

// FormatNumber formats f as the language displays numbers: integral values
// below 2^53 in magnitude as integer digits (so -0 prints as 0), everything
// else as strconv.FormatFloat(f, 'f', -1, 64).
func FormatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// ParseNumber parses s with the reference's decimal grammar
// [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)? and reports whether it names a finite
// number. Hexadecimal floats, `_` separators, inf, nan and values that
// overflow to infinity are not numbers.
func ParseNumber(s string) (float64, bool) {
	if !decimal.Is(s) {
		return 0, false
	}
	// The grammar is a subset of ParseFloat's; a range error still yields
	// the rounded value (±Inf on overflow, 0 on underflow), as Rust does.
	f, _ := strconv.ParseFloat(s, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// Literal reads a literal with the rules of documents.md §5.3: matching
// surrounding single or double quotes are stripped and the rest is text
// verbatim; `true`/`false` are bools; a finite decimal is a number;
// everything else is text. Literal does not trim s.
func Literal(s string) Value {
	if isQuoted(s) {
		return Text(s[1 : len(s)-1])
	}
	switch s {
	case "true":
		return Bool(true)
	case "false":
		return Bool(false)
	}
	if f, ok := ParseNumber(s); ok {
		return Number(f)
	}
	return Text(s)
}

// isQuoted reports whether s is wrapped in a matching pair of ' or ".
func isQuoted(s string) bool {
	return len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0]
}

// quote returns s double-quoted with `\`, `"` and control characters escaped.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == 0:
			b.WriteString(`\0`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
