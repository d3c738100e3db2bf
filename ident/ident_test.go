package ident

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCharsets(t *testing.T) {
	tests := []struct {
		c   Charset
		s   string
		ok  bool
		why string
	}{
		{Kebab, "adp", true, ""},
		{Kebab, "test-driven", true, ""},
		{Kebab, "a1-b2", true, ""},
		{Kebab, "", false, "empty"},
		{Kebab, "Adp", false, "start with a lowercase"},
		{Kebab, "a--b", false, "repeat"},
		{Kebab, "a-", false, "trail"},
		{Kebab, "a_b", false, "character '_'"},
		{Kebab, "a.b", false, "character '.'"},
		{Dotted, "adp/default", true, ""},
		{Dotted, "development.standard", true, ""},
		{Dotted, "adp/2-x", true, ""},
		{Dotted, "a/2b", true, ""},
		{Dotted, "adp/2", false, "all digits"},
		{Dotted, "a.1", false, "all digits"},
		{Dotted, "a//b", false, "repeat"},
		{Dotted, "a/b_c", false, "character '_'"},
		{DottedSnake, "establish_verifiers", true, ""},
		{DottedSnake, "a_b.c_d", true, ""},
		{DottedSnake, "a__b", false, "repeat"},
		{DottedSnake, "_a", false, "start with"},
		{DottedSnake, "a/1", false, "all digits"},
		{DottedSnake, "a-to-b", true, ""},
		{Loose, "TASK-1.a_b/c", true, ""},
		{Loose, "1abc", true, ""},
		{Loose, "a..b", false, "repeat"},
		{Loose, "a b", false, "character ' '"},
		{Kebab, strings.Repeat("a", MaxLen), true, ""},
		{Kebab, strings.Repeat("a", MaxLen+1), false, "over the limit of 200"},
		{Kebab, "é", false, "start with"},
		// A character beyond ASCII is named whole, not by its first byte
		// (`démo` said "the character 'Ã'").
		{Dotted, "démo/x", false, "the character 'é' is not allowed"},
		{Kebab, "a\u2028b", false, "the character '\\u2028' is not allowed"},
		{Kebab, "a\xffb", false, "the byte '\\xff' is not allowed: it is not UTF-8"},
	}
	for _, tt := range tests {
		err := Check(tt.c, tt.s)
		if (err == nil) != tt.ok {
			t.Errorf("Check(%v, %q) = %v, want ok=%v", tt.c, tt.s, err, tt.ok)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), tt.why) {
			t.Errorf("Check(%v, %q) = %q, want it to say %q", tt.c, tt.s, err, tt.why)
		}
	}
}

func TestParseRef(t *testing.T) {
	tests := []struct {
		in      string
		id      string
		major   uint32
		wantErr string
	}{
		{"adp/default", "adp/default", 0, ""},
		{"adp/default/2", "adp/default", 2, ""},
		{"workflow:adp/default/2", "adp/default", 2, ""},
		{"profile:development.standard", "development.standard", 0, ""},
		{"adp/default/0", "", 0, "must be 1 or more"},
		{"adp/default/99999999999", "", 0, "out of range"},
		{"adp/", "", 0, "trail"},
		{"/2", "", 0, "invalid"},
		{"Adp/1", "", 0, "invalid"},
	}
	for _, tt := range tests {
		r, err := ParseRef(Dotted, tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseRef(%q) = %v, %v; want error containing %q", tt.in, r, err, tt.wantErr)
			}
			continue
		}
		if err != nil || r.ID != tt.id || r.Major != tt.major {
			t.Errorf("ParseRef(%q) = %+v, %v; want %s/%d", tt.in, r, err, tt.id, tt.major)
		}
	}
	if _, err := ParsePinnedRef(Dotted, "adp/default"); err == nil || !strings.Contains(err.Error(), "adp/default/1") {
		t.Errorf("an unpinned reference must be refused with a hint, got %v", err)
	}
	r, _ := ParseRef(Kebab, "aep/1")
	if !r.Accepts(1) || r.Accepts(2) || r.String() != "aep/1" {
		t.Errorf("pinned reference semantics wrong: %+v", r)
	}
	if u := (Ref{ID: "x"}); !u.Accepts(7) || u.String() != "x" {
		t.Errorf("unpinned reference semantics wrong")
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"adp/default", "a_b", "adp/2", "TASK-1", "", "a--b", "démo/x", "a\xffb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for c := Kebab; c <= Loose; c++ {
			err := Check(c, s)
			if err == nil && (s == "" || len(s) > MaxLen) {
				t.Fatalf("%v accepted %q", c, s)
			}
			if err != nil && !utf8.ValidString(err.Error()) {
				t.Fatalf("%v: the refusal of %q is not UTF-8: %q", c, s, err)
			}
		}
		if r, err := ParseRef(Dotted, s); err == nil {
			if back, err2 := ParseRef(Dotted, r.String()); err2 != nil || back != r {
				t.Fatalf("round trip of %q: %+v -> %+v, %v", s, r, back, err2)
			}
		}
	})
}
