package semdiff

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/aepflow/aepflow/workflow"
)

// TestVisible: diff escapes what diag.EscapeText escapes, in its forms
// (`\x0a`, not `\n`: one escaping for every printer of aepflow), and also
// the runes that show nothing though they change a value (format
// characters, spaces but U+0020, unassigned and private-use code points):
// a reviewer must see that `a\u200b` is not `a`.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é ü 漢字":   "plain text, é ü 漢字",
		"esc\x1b[31mred":       `esc\x1b[31mred`,
		"nul\x00":              `nul\x00`,
		"tab\tnl\n":            `tab\tnl\x0a`,
		"cr\rlf\n\a\b\f\v":     `cr\x0dlf\x0a\x07\x08\x0c\x0b`,
		"del\x7f":              `del\x7f`,
		"ls\u2028ps\u2029":     `ls\u2028ps\u2029`,
		"bom\ufeff soft\u00ad": `bom\ufeff soft\u00ad`,
		"joiner\u200d":         `joiner\u200d`,
		"ideographic\u3000":    `ideographic\u3000`,
		"private\ue000":        `private\ue000`,
		"unassigned\U000e0080": `unassigned\U000e0080`,
		"rtl\u202eevil":        `rtl\u202eevil`,
		"isolate\u2066x\u2069": `isolate\u2066x\u2069`,
		"nbsp\u00a0":           `nbsp\u00a0`,
		"zero\u200bwidth":      `zero\u200bwidth`,
		"bad\xffutf8":          `bad\xffutf8`,
		"c1\u0085":             `c1\u0085`,
		"emoji 🙂 and U+FFFD �": "emoji 🙂 and U+FFFD �",
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
		if got := visible(want); got != want {
			t.Errorf("visible is not idempotent: visible(%q) = %q", want, got)
		}
	}
}

func TestCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"x":         "`x`",
		"a`b":       "`` a`b ``",
		"``x":       "``` ``x ```",
		" lead":     "`  lead `",
		"":          "` `",
		"two\nline": "`two\\x0aline`",
		"cr\r\nlf":  "`cr\\x0d\\x0alf`",
		"\x1b":      "`\\x1b`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cell("`a|b`"); got != "`a\\|b`" {
		t.Errorf("cell = %q", got)
	}
}

// hostileTitle is what a document can smuggle into a title: Markdown,
// HTML, a table cell end, a terminal escape, a bidirectional override and
// a line break.
const hostileTitle = "a`b``|c <script>alert(1)</script> **bold** \x1b[31mred\u202eevil\nnext"

func hostileWorkflows(t *testing.T) (*workflow.Workflow, *workflow.Workflow) {
	t.Helper()
	src := func(title string) []byte {
		return []byte(`id: x/y
title: T
initial: a
states:
  a: {title: ` + title + `}
  b: {title: B, terminal: true}
transitions:
  - {from: a, to: b, when: "k == '<b>|` + "`" + `'"}
`)
	}
	old, ds := workflow.Check("old.yaml", src("A"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x1b", `\e`, "\u202e", `\u202e`, "\n", `\n`).Replace(hostileTitle)
	new, ds := workflow.Check("new.yaml", src(`"`+quoted+`"`))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if new.States["a"].Title != hostileTitle {
		t.Fatalf("title = %q", new.States["a"].Title)
	}
	return old, new
}

func TestTextShowsNothingInvisible(t *testing.T) {
	old, new := hostileWorkflows(t)
	var b bytes.Buffer
	if err := WriteText(&b, Single(Workflows(old, new))); err != nil {
		t.Fatal(err)
	}
	for i, r := range b.String() {
		if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
			t.Fatalf("text output holds %U at byte %d:\n%s", r, i, b.String())
		}
	}
	if !strings.Contains(b.String(), `\x1b[31mred\u202eevil\x0anext`) {
		t.Errorf("the escapes are not shown:\n%s", b.String())
	}
}

// codeSpans matches a code span: a run of backticks, then anything up to
// a run of the same length (CommonMark §6.1).
var codeSpans = regexp.MustCompile("(`+)")

// stripCodeSpans removes the code spans of a Markdown line.
func stripCodeSpans(t *testing.T, s string) string {
	var out strings.Builder
	for {
		loc := codeSpans.FindStringIndex(s)
		if loc == nil {
			out.WriteString(s)
			return out.String()
		}
		fence := s[loc[0]:loc[1]]
		out.WriteString(s[:loc[0]])
		rest := s[loc[1]:]
		end := -1
		for i := 0; i < len(rest); {
			j := strings.Index(rest[i:], fence)
			if j < 0 {
				break
			}
			j += i
			if (j == 0 || rest[j-1] != '`') && (j+len(fence) == len(rest) || rest[j+len(fence)] != '`') {
				end = j
				break
			}
			i = j + 1
		}
		if end < 0 {
			t.Fatalf("an unclosed code span in %q", s)
		}
		s = rest[end+len(fence):]
	}
}

func TestMarkdownKeepsDocumentTextInCodeSpans(t *testing.T) {
	old, new := hostileWorkflows(t)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, Single(Workflows(old, new))); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, ln := range strings.Split(strings.TrimSuffix(md, "\n"), "\n") {
		plain := stripCodeSpans(t, ln)
		for _, bad := range []string{"<script", "**bold**", "\x1b", "\u202e"} {
			if strings.Contains(plain, bad) {
				t.Errorf("%q outside a code span in line %q", bad, ln)
			}
		}
		if strings.HasPrefix(ln, "| ") {
			if n := strings.Count(strings.ReplaceAll(ln, `\|`, ""), "|"); n != 5 {
				t.Errorf("a table line with %d cell borders: %q", n, ln)
			}
		}
	}
	if strings.Contains(md, "\nnext") {
		t.Errorf("a line break of the title reached the output:\n%s", md)
	}
}

func TestMarkdownOfAnUnchangedTree(t *testing.T) {
	var b bytes.Buffer
	r := &Report{Trees: true, Against: "main", Unchanged: []Ref{{"w", KindWorkflow, "w.yaml"}}}
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "## aepflow diff against `main`\n\n0 documents changed, 0 added, 0 removed, 1 unchanged.\n\nNo workflow or step map changed.\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
