package yamldoc

import (
	"fmt"
	"github.com/aepflow/aepflow/internal/decimal"
	"math"
	"math/big"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// MaxExactInteger is 2^53, the largest magnitude up to which a 64-bit float
// holds every whole number exactly. A number of the documents is a finite
// 64-bit float (engine.md §2.1), so an integer written beyond it would be
// read as a neighbour (9007199254740993 as …992): it is refused instead.
const MaxExactInteger = 1 << 53

// NumberClass says what a scalar is as a number of the documents.
type NumberClass int

const (
	// NotNumber: the scalar is not written as a number (a string, a
	// boolean, null, a quoted number).
	NotNumber NumberClass = iota
	// FiniteNumber: a finite number, and an integer held exactly.
	FiniteNumber
	// NonFiniteNumber: `.nan`, `.inf` or `-.inf`.
	NonFiniteNumber
	// NumberOutOfRange: an integer beyond ±MaxExactInteger, or a decimal
	// beyond the largest 64-bit float (`1e400`, which YAML leaves a string).
	NumberOutOfRange
)

// Number reads scalar n as a number, the one reading of every document
// value that is a number (payload fields, fact values): what YAML's core
// schema resolves as an integer or a float, and a plain decimal that YAML
// left a string because it overflows a float. It never rounds an integer:
// one beyond ±MaxExactInteger is NumberOutOfRange.
func Number(n *yaml.Node) (float64, NumberClass) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, NotNumber
	}
	s := n.Value
	switch n.Tag {
	case "!!int":
		v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil || v > MaxExactInteger || v < -MaxExactInteger {
			// YAML read it as an integer int64 cannot hold (a uint64),
			// or one a float cannot hold exactly.
			return 0, NumberOutOfRange
		}
		return float64(v), FiniteNumber
	case "!!float":
		return floatText(strings.ReplaceAll(s, "_", ""))
	case "!!str":
		if n.Style == 0 && decimal.Is(s) {
			return floatText(s)
		}
	}
	return 0, NotNumber
}

// floatText reads the text of a YAML float: `.nan` and the infinities are
// not finite; an integer spelt with digits alone (which YAML calls a float
// when int64 cannot hold it) is range-checked exactly; a decimal beyond the
// largest float is out of range (an underflow reads as 0, as a predicate
// literal does).
func floatText(s string) (float64, NumberClass) {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case ".nan", ".inf":
		return 0, NonFiniteNumber
	}
	if isInteger(s) {
		var b big.Int
		if _, ok := b.SetString(strings.TrimPrefix(s, "+"), 10); !ok || b.CmpAbs(big.NewInt(MaxExactInteger)) > 0 {
			return 0, NumberOutOfRange
		}
		return float64(b.Int64()), FiniteNumber
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case math.IsInf(f, 0):
		return 0, NumberOutOfRange
	case math.IsNaN(f) || (err != nil && !isRangeError(err)):
		return 0, NotNumber
	}
	return f, FiniteNumber
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isInteger matches [+-]?digits.
func isInteger(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NumberProblem words what is wrong with scalar n, of class NonFiniteNumber
// or NumberOutOfRange, as the value of what (“`failed`”, “fact
// `diff.exists`”): its value, its real type and the range numbers take.
func NumberProblem(what string, n *yaml.Node, class NumberClass) string {
	if class == NonFiniteNumber {
		return fmt.Sprintf("%s is `%s`, which is not a finite number", what, n.Value)
	}
	if f, _ := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); math.IsInf(f, 0) {
		return fmt.Sprintf("%s is `%s`, a number out of range: it is beyond the largest 64-bit float (about 1.8e308)", what, n.Value)
	}
	return fmt.Sprintf("%s is `%s`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -%d to %d", what, n.Value, MaxExactInteger, MaxExactInteger)
}
