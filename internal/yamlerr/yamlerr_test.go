package yamlerr

import (
	"io"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestSplit: a scanner error's line is yaml.v3's own (none printed is 0),
// a parser error's is one more than it prints (none printed is line 1).
func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		src, msg string
		line     int
	}{
		{"a: b: c\n", "mapping values are not allowed in this context", 0},
		{"a: 1\nb: c: d\n", "mapping values are not allowed in this context", 2},
		{"a: 1\nb: [1, 2\nc: 3\n", "did not find expected ',' or ']'", 2},
		{"[1] x\n", Trailing, 1},
		{"[1]\n  ]\n", Trailing, 2},
	} {
		dec := yaml.NewDecoder(strings.NewReader(tc.src))
		var n yaml.Node
		err := dec.Decode(&n)
		if err == nil {
			err = dec.Decode(&n)
		}
		if err == nil || err == io.EOF {
			t.Fatalf("%q: no error", tc.src)
		}
		if line, msg := Split(err); line != tc.line || msg != tc.msg {
			t.Errorf("%q: Split = %d, %q; want %d, %q", tc.src, line, msg, tc.line, tc.msg)
		}
	}
}

func TestTrailingOffset(t *testing.T) {
	for _, tc := range []struct {
		src       string
		lineStart int
		want      int
	}{
		{`{"a": "}"}  x`, 0, 12},
		{"['#]', \"\\\"\"] # ]\n  ]", 17, 19},
		{"  a: 1\nb: 2\n", 7, 7},
		{"\ufeff--- [1]\n ]", 11, 12},
	} {
		if got, ok := TrailingOffset([]byte(tc.src), tc.lineStart); !ok || got != tc.want {
			t.Errorf("%q: TrailingOffset = %d, %v; want %d", tc.src, got, ok, tc.want)
		}
	}
}
