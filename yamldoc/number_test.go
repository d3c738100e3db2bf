package yamldoc

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// valueNode parses `v: <text>` and returns the value's node, as a
// document's reader meets it.
func valueNode(t *testing.T, text string) *yaml.Node {
	t.Helper()
	doc, ds := Parse("n.yaml", []byte("v: "+text+"\n"))
	if doc == nil || ds.HasErrors() {
		t.Fatalf("%s: %v", text, ds)
	}
	return doc.Root.Content[1]
}

// TestNumber: integers are exact or refused (never rounded past 2^53),
// non-finite and overflowing numbers are named as what they are, and
// anything not written as a number is not one.
func TestNumber(t *testing.T) {
	for _, c := range []struct {
		text  string
		class NumberClass
		value float64
		shape string
	}{
		{"0", FiniteNumber, 0, "an integer"},
		{"-3", FiniteNumber, -3, "an integer"},
		{"9007199254740992", FiniteNumber, 9007199254740992, "an integer"},
		{"-9007199254740992", FiniteNumber, -9007199254740992, "an integer"},
		{"9007199254740993", NumberOutOfRange, 0, "a number out of range"},
		{"-9007199254740993", NumberOutOfRange, 0, "a number out of range"},
		{"9223372036854775807", NumberOutOfRange, 0, "a number out of range"},
		{"18446744073709551615", NumberOutOfRange, 0, "a number out of range"},
		{"123456789012345678901234567890", NumberOutOfRange, 0, "a number out of range"},
		{"0x10", FiniteNumber, 16, "an integer"},
		{"2.5", FiniteNumber, 2.5, "a number"},
		{"1e3", FiniteNumber, 1000, "a number"},
		{"1e400", NumberOutOfRange, 0, "a number out of range"},
		{"-1e400", NumberOutOfRange, 0, "a number out of range"},
		{"1e-400", FiniteNumber, 0, "a number"},
		{".nan", NonFiniteNumber, 0, "a non-finite number"},
		{".NaN", NonFiniteNumber, 0, "a non-finite number"},
		{"-.inf", NonFiniteNumber, 0, "a non-finite number"},
		{"'1e400'", NotNumber, 0, "a string"},
		{"\"12\"", NotNumber, 0, "a string"},
		{"NaN", NotNumber, 0, "a string"},
		{"true", NotNumber, 0, "a boolean"},
		{"null", NotNumber, 0, "null"},
		{"text", NotNumber, 0, "a string"},
	} {
		n := valueNode(t, c.text)
		v, class := Number(n)
		if class != c.class || (class == FiniteNumber && v != c.value) {
			t.Errorf("Number(%s) = %v, %v; want %v, %v", c.text, v, class, c.value, c.class)
		}
		if got := ShapeOf(n); got != c.shape {
			t.Errorf("ShapeOf(%s) = %q, want %q", c.text, got, c.shape)
		}
	}
}

// TestNumberProblem: the message names the value, its real type and the
// range numbers take.
func TestNumberProblem(t *testing.T) {
	for text, want := range map[string]string{
		"9007199254740993": "the fact `a.b` is `9007199254740993`, a number out of range: numbers are 64-bit floats, which hold whole numbers exactly only from -9007199254740992 to 9007199254740992",
		"1e400":            "the fact `a.b` is `1e400`, a number out of range: it is beyond the largest 64-bit float (about 1.8e308)",
		".nan":             "the fact `a.b` is `.nan`, which is not a finite number",
	} {
		n := valueNode(t, text)
		_, class := Number(n)
		if got := NumberProblem("the fact `a.b`", n, class); got != want {
			t.Errorf("%s:\n got %s\nwant %s", text, got, want)
		}
	}
}
