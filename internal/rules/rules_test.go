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
		anchors := map[string]string{}
		for _, l := range strings.Split(string(data), "\n") {
			if m := heading().FindStringSubmatch(l); m != nil {
				headings++
				anchors[m[1]+m[2]+m[3]] = Anchor(strings.TrimLeft(l, "#"))
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
			if r.HelpURI != Repository+"/blob/main/docs/"+page+"#"+anchors[code] {
				t.Errorf("%s %s: help %s", page, code, r.HelpURI)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d code sections", n)
	}
}

// TestAnchor: the fragments GitHub gives the code pages' headings.
func TestAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		" `unknown_field`":                  "unknown_field",
		" flow_unreadable":                  "flow_unreadable",
		" TRACE-SPEC-001 — wrong format":    "trace-spec-001--wrong-format",
		" TRACE-ADAPT-002 — no events":      "trace-adapt-002--no-events",
		" Workflow rules (documents.md §7)": "workflow-rules-documentsmd-7",
	} {
		if got := Anchor(heading); got != want {
			t.Errorf("Anchor(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestTitledSection: a trace refusal's title is its short description and
// leads the full one.
func TestTitledSection(t *testing.T) {
	got := Parse("trace.md", "### TRACE-SPEC-003 — duplicate id\n\nReported at the later row.\n")
	r := got["TRACE-SPEC-003"]
	if r.Short != "Duplicate id." || r.Full != "Duplicate id. Reported at the later row." || r.HelpURI != DocsBase+"trace.md#trace-spec-003--duplicate-id" {
		t.Errorf("got %+v", r)
	}
	if r := Lookup("TRACE-SPEC-008"); !strings.HasSuffix(r.HelpURI, "trace.md#trace-spec-008--regex-does-not-compile") {
		t.Errorf("TRACE-SPEC-008: %+v", r)
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

// TestLookupOn: a code documented on two pages has a rule on each, and
// Lookup takes the first page's.
func TestLookupOn(t *testing.T) {
	w, ok := LookupOn("codes-workflow.md", "unknown_state")
	if !ok || w.HelpURI != DocsBase+"codes-workflow.md#unknown_state" {
		t.Errorf("workflow page: %+v, %v", w, ok)
	}
	if d, ok := LookupOn("codes-documents.md", "unknown_state"); !ok || d.HelpURI != Lookup("unknown_state").HelpURI || d.HelpURI == w.HelpURI {
		t.Errorf("documents page: %+v, %v (Lookup %+v)", d, ok, Lookup("unknown_state"))
	}
	if _, ok := LookupOn("codes-workflow.md", "nothing_to_run"); ok {
		t.Error("the workflow page does not document nothing_to_run (a projection code)")
	}
	if _, ok := LookupOn("no-such-page.md", "unknown_state"); ok {
		t.Error("a page that does not exist documents nothing")
	}
}
