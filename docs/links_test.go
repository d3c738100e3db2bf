package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/rules"
)

// linkPattern matches an inline Markdown link's target: `[text](target)`.
var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// urlPattern matches a target with a scheme (https:, mailto:…).
var urlPattern = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)

// headingPattern matches an ATX heading's text.
var headingPattern = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)

// TestRelativeLinks checks every relative link of the repository's Markdown
// (README, docs, examples, bench, editors…): the file it names exists, and
// a `#fragment` into a Markdown file names one of its headings as GitHub
// forms their anchors. Links inside code spans and fenced blocks are
// examples of output, not links, and are skipped.
func TestRelativeLinks(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, target := range links(string(data)) {
			checked++
			if msg := checkLink(path, target, anchors); msg != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s: link %q: %s", rel, target, msg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d relative links found: the walk missed the pages", checked)
	}
}

// links returns the relative link targets of a Markdown text outside code.
func links(text string) []string {
	var out []string
	var f fence
	for _, line := range strings.Split(text, "\n") {
		if f.skip(line) {
			continue
		}
		line = withoutCodeSpans(line)
		for _, m := range linkPattern.FindAllStringSubmatchIndex(line, -1) {
			target := line[m[2]:m[3]]
			if urlPattern.MatchString(target) {
				continue // a URL
			}
			out = append(out, target)
		}
	}
	return out
}

// checkLink says what is wrong with target as linked from the file from,
// or "" when it resolves. anchors caches each Markdown file's anchors.
func checkLink(from, target string, anchors map[string]map[string]bool) string {
	path, fragment, _ := strings.Cut(target, "#")
	file := from
	if path != "" {
		file = filepath.Join(filepath.Dir(from), filepath.FromSlash(path))
		if _, err := os.Stat(file); err != nil {
			return "no such file"
		}
	}
	if fragment == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	set, ok := anchors[file]
	if !ok {
		data, err := os.ReadFile(file)
		if err != nil {
			return err.Error()
		}
		set = headingAnchors(string(data))
		anchors[file] = set
	}
	if !set[fragment] {
		return "no heading with that anchor"
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives a Markdown text's
// headings: lowercased, punctuation but `-` and `_` dropped, spaces turned
// into `-`, a repeated anchor numbered `-1`, `-2`, ….
func headingAnchors(text string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	var f fence
	for _, line := range strings.Split(text, "\n") {
		if f.skip(line) {
			continue
		}
		m := headingPattern.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := rules.Anchor(m[1])
		if n := seen[slug]; n > 0 {
			set[slug+"-"+strconv.Itoa(n)] = true
		} else {
			set[slug] = true
		}
		seen[slug]++
	}
	return set
}

// fenceLine matches a line that opens or closes a fenced code block.
var fenceLine = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")

// fence follows CommonMark's fenced code blocks line by line.
type fence struct {
	open string // the opening run of the block the lines are in, or ""
}

// skip reports whether line is a fence line or inside a fenced block.
func (f *fence) skip(line string) bool {
	m := fenceLine.FindStringSubmatch(line)
	if f.open != "" {
		if m != nil && m[1][0] == f.open[0] && len(m[1]) >= len(f.open) && strings.TrimSpace(m[2]) == "" {
			f.open = ""
		}
		return true
	}
	if m == nil || (m[1][0] == '`' && strings.Contains(m[2], "`")) {
		return false // an info string with a backtick: a code span, not a fence
	}
	f.open = m[1]
	return true
}

// withoutCodeSpans blanks the code spans of line (a run of backticks up to
// the next run of the same length), keeping its length.
func withoutCodeSpans(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 1
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := closingRun(b, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		for j := i; j < end+n; j++ {
			b[j] = ' '
		}
		i = end + n
	}
	return string(b)
}

// closingRun returns where a run of exactly n backticks starts in b at or
// after from, or -1.
func closingRun(b []byte, from, n int) int {
	for i := from; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		m := 1
		for i+m < len(b) && b[i+m] == '`' {
			m++
		}
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// TestLinkReading holds what TestRelativeLinks relies on: which links are
// read (not those in code spans or fences) and the anchors of headings.
func TestLinkReading(t *testing.T) {
	text := "see [a](a.md) and `[b](b.md)` and `` [`c`](c.md) ``\n" +
		"```` ```mermaid ```` [d](d.md#x)\n" +
		"```sh\n[e](e.md)\n```\n" +
		"~~~\n```\n[f](f.md)\n~~~\n" +
		"[g](https://example.com) [h](#h)\n"
	if got, want := strings.Join(links(text), " "), "a.md d.md#x #h"; got != want {
		t.Errorf("links: got %q, want %q", got, want)
	}
	anchors := headingAnchors("# `aepflow diff`\n## Exit codes\n```\n# not a heading\n```\n## Exit codes\n### Cost (issue 13): ×10\n")
	for _, want := range []string{"aepflow-diff", "exit-codes", "exit-codes-1", "cost-issue-13-10"} {
		if !anchors[want] {
			t.Errorf("anchor %q missing from %v", want, anchors)
		}
	}
	if anchors["not-a-heading"] {
		t.Errorf("a fenced line counted as a heading: %v", anchors)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "p.md")
	if err := os.WriteFile(page, []byte("# Title\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := map[string]map[string]bool{}
	for target, want := range map[string]string{"p.md": "", "p.md#title": "", "p.md#nope": "no heading with that anchor", "q.md": "no such file", "#title": ""} {
		if got := checkLink(page, target, cache); got != want {
			t.Errorf("checkLink(%q) = %q, want %q", target, got, want)
		}
	}
}
