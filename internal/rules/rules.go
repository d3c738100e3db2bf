// Package rules describes aepflow's diagnostic codes for tools that list
// them, such as SARIF readers (GitHub code scanning): a short and a full
// description and a link to the code's section of its documentation page.
//
// The descriptions are read from the code pages themselves (package docs),
// so a page and a rule never disagree: the short description is the first
// sentence of the section's first paragraph, the full one the whole
// paragraph. It is not for printing diagnostics (package diag does that).
package rules

import (
	"io/fs"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/aepflow/aepflow/diag/sarif"
	"github.com/aepflow/aepflow/docs"
)

// Repository is the one place the project's home is written: the SARIF
// tool's informationUri, and the base of every rule's help link.
const Repository = "https://github.com/aepflow/aepflow"

// DocsBase is where the documentation pages are browsed.
const DocsBase = Repository + "/blob/main/docs/"

// fallbackPage documents the codes without a section of their own.
const fallbackPage = "validate.md"

// heading matches a code's section heading: "## `unknown_field`",
// "### `unknown_state`", "## flow_unreadable" (a bare heading must be
// snake_case, so that "## Shape" is not a code), or a trace refusal's
// "### TRACE-SPEC-001 — wrong format" with its title.
var heading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^#{2,3} (?:`([A-Za-z][A-Za-z0-9_-]*)`|([a-z][a-z0-9]*_[a-z0-9_]+)|(TRACE-[A-Z]+-[0-9]{3}) — (.+))$")
})

var (
	once    sync.Once
	catalog map[string]sarif.Rule            // each code's first section, pages in docs.CodePageOrder
	byPage  map[string]map[string]sarif.Rule // every page's own sections
)

// Lookup returns the rule of code: from its section when a code page has
// one, else a description made from the code's name linking to the
// validate page.
func Lookup(code string) sarif.Rule {
	once.Do(load)
	if r, ok := catalog[code]; ok {
		return r
	}
	words := strings.ReplaceAll(code, "_", " ")
	return sarif.Rule{Short: words, Full: words + ".", HelpURI: DocsBase + fallbackPage}
}

// LookupOn returns the rule of code from its section on page, and whether
// that page documents it: a code such as unknown_state has a section for
// workflows and another for step maps, and an editor links the one of the
// document at hand.
func LookupOn(page, code string) (sarif.Rule, bool) {
	once.Do(load)
	r, ok := byPage[page][code]
	return r, ok
}

// Documented reports whether code has a section on a code page.
func Documented(code string) bool {
	once.Do(load)
	_, ok := catalog[code]
	return ok
}

func load() {
	catalog = map[string]sarif.Rule{}
	byPage = map[string]map[string]sarif.Rule{}
	for _, page := range docs.CodePageOrder {
		data, err := fs.ReadFile(docs.CodePages, page)
		if err != nil {
			panic("rules: the embedded page " + page + " is missing: " + err.Error())
		}
		byPage[page] = Parse(page, string(data))
		for code, r := range byPage[page] {
			if _, dup := catalog[code]; !dup {
				catalog[code] = r
			}
		}
	}
}

// Parse reads the code sections of one page: for each heading naming a
// code, the first paragraph after it (text lines up to a blank line, a
// fence or the next heading).
func Parse(page, text string) map[string]sarif.Rule {
	out := map[string]sarif.Rule{}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		m := heading().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		code := m[1] + m[2] + m[3]
		para := paragraph(lines[i+1:])
		short := firstSentence(para)
		if title := m[4]; title != "" {
			// A titled heading: the title is the short description, and
			// leads the full one.
			short = strings.ToUpper(title[:1]) + title[1:] + "."
			para = strings.TrimSpace(short + " " + para)
		}
		if para == "" {
			continue
		}
		anchor := Anchor(strings.TrimLeft(lines[i], "#"))
		out[code] = sarif.Rule{Short: short, Full: para, HelpURI: DocsBase + page + "#" + anchor}
	}
	return out
}

// Anchor returns the fragment GitHub gives a heading of text, as it
// renders Markdown: lower case, every character but letters, digits,
// spaces, `-` and `_` dropped, spaces made `-` ("`unknown_field`" →
// "unknown_field", "TRACE-SPEC-001 — wrong format" →
// "trace-spec-001--wrong-format").
func Anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// paragraph returns the first paragraph of lines, skipping leading blank
// lines, joined into one line.
func paragraph(lines []string) string {
	var words []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "" && len(words) == 0:
			continue
		case t == "", strings.HasPrefix(t, "```"), strings.HasPrefix(t, "#"):
			return strings.Join(words, " ")
		}
		words = append(words, t)
	}
	return strings.Join(words, " ")
}

// firstSentence returns s up to its first full stop followed by a space or
// the end, or s itself.
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' {
			return s[:i+1]
		}
	}
	return s
}
