package serdejson

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"\x0b\x1b", `"\u000b\u001b"`},
		{"<>&", `"<>&"`},
		{"\u2028\u2029é✓—", "\"\u2028\u2029é✓—\""},
		{"/", `"/"`},
		{"bad \xff utf-8", "\"bad \xff utf-8\""},
	}
	for _, tt := range tests {
		if got := string(AppendString([]byte("x"), tt.in)); got != "x"+tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got[1:], tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(tt.want), &back); err != nil || (utf8.ValidString(tt.in) && back != tt.in) {
			t.Errorf("%s does not decode back to %q: %q, %v", tt.want, tt.in, back, err)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"b\\c\n\x01✓")
	f.Fuzz(func(t *testing.T, s string) {
		var back string
		if err := json.Unmarshal(AppendString(nil, s), &back); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		if utf8.ValidString(s) && back != s {
			t.Fatalf("round trip of %q gave %q", s, back)
		}
	})
}
