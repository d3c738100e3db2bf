package rules

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/docs"
)

// TestEveryCodeSectionIsARule reads every code page: each section heading
// gives a rule with both descriptions and a help link to that heading's
// anchor on GitHub.
func TestEveryCodeSectionIsARule(t *testing.T) {
	n := 0
	for _, page := range docs.CodePageOrder {
		data, err := fs.ReadFile(docs.CodePages, page)
		if err != nil {
			t.Fatal(err)
		}
		got := Parse(page, string(data))
		headings := 0
		for _, l := range strings.Split(string(data), "\n") {
			if heading.MatchString(l) {
				headings++
			}
		}
		if len(got) != headings || headings == 0 {
			t.Errorf("%s: %d rules from %d code headings", page, len(got), headings)
		}
		for code, r := range got {
			n++
			if r.Short == "" || r.Full == "" || !strings.HasPrefix(r.Full, strings.TrimSuffix(r.Short, ".")) {
				t.Errorf("%s %s: short %q, full %q", page, code, r.Short, r.Full)
			}
			if r.HelpURI != Repository+"/blob/main/docs/"+page+"#"+strings.ToLower(code) {
				t.Errorf("%s %s: help %s", page, code, r.HelpURI)
			}
		}
	}
	if n < 60 {
		t.Errorf("only %d code sections", n)
	}
}

// TestLookup: a documented code links to its first page; an undocumented
// one still gets descriptions and a link.
func TestLookup(t *testing.T) {
	r := Lookup("unknown_field")
	if r.HelpURI != DocsBase+"codes-documents.md#unknown_field" || r.Short != "A key the kind does not declare; the hint lists the allowed keys." {
		t.Errorf("unknown_field: %+v", r)
	}
	if r := Lookup("flow_unreadable"); !strings.HasSuffix(r.HelpURI, "flow-codes.md#flow_unreadable") {
		t.Errorf("flow_unreadable: %+v", r)
	}
	if r := Lookup("no_such_code"); r.Short != "no such code" || r.HelpURI != DocsBase+"validate.md" {
		t.Errorf("fallback: %+v", r)
	}
	if !Documented("unreachable_state") || Documented("no_such_code") {
		t.Error("Documented is wrong")
	}
	if !regexp.MustCompile(`^https://github\.com/[^/]+/[^/]+$`).MatchString(Repository) {
		t.Errorf("Repository %q", Repository)
	}
}
