package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// commonTextProblem reports what breaks the rules every text output keeps
// (rendering.md §1): valid UTF-8, LF line ends, a final newline, no trailing
// whitespace, no control characters.
func commonTextProblem(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	if !strings.HasSuffix(out, "\n") {
		return "no final newline"
	}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.TrimRight(line, " \t") != line {
			return fmt.Sprintf("line %d ends in whitespace", i+1)
		}
		for _, r := range line {
			if r < 0x20 || r == 0x7f {
				return fmt.Sprintf("line %d holds control character %U", i+1, r)
			}
		}
	}
	return ""
}

// dotStringsOK reports whether every `"` in line opens or closes a string,
// whether strings are closed on the line, and whether strings use only the
// escapes dq writes.
func dotStringsOK(line string) bool {
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case !in && c == '"':
			in = true
		case in && c == '"':
			in = false
		case in && c == '\\':
			if i+1 == len(line) || !strings.ContainsRune(`\"n`, rune(line[i+1])) {
				return false
			}
			i++
		}
	}
	return !in
}

// dotProblem reports a structural problem of DOT text: one statement per
// line, balanced quotes, the frame of rendering.md §3.1.
func dotProblem(out string) string {
	if p := commonTextProblem(out); p != "" {
		return p
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[0], "// ") || !strings.HasPrefix(lines[1], "digraph \"") ||
		!strings.HasSuffix(lines[1], "\" {") || lines[len(lines)-1] != "}" {
		return "bad frame"
	}
	depth := 1
	for i, line := range lines[1:] {
		if !dotStringsOK(line) {
			return fmt.Sprintf("line %d: unbalanced quotes or a bad escape: %s", i+2, line)
		}
		if i == 0 {
			continue
		}
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		switch {
		case body == "}":
			depth--
			if indent != 2*depth {
				return fmt.Sprintf("line %d: `}` at indent %d", i+2, indent)
			}
		case strings.HasPrefix(body, "subgraph \"cluster_") && strings.HasSuffix(body, "\" {"):
			if depth != 1 {
				return fmt.Sprintf("line %d: nested subgraph", i+2)
			}
			depth++
		case strings.HasSuffix(body, ";"):
			if indent != 2*depth {
				return fmt.Sprintf("line %d: indent %d at depth %d", i+2, indent, depth)
			}
		default:
			return fmt.Sprintf("line %d: not a statement: %s", i+2, line)
		}
	}
	if depth != 0 {
		return "unbalanced braces"
	}
	return ""
}

func checkDOT(t *testing.T, dot []byte) {
	t.Helper()
	if p := dotProblem(string(dot)); p != "" {
		t.Errorf("DOT: %s\n%s", p, dot)
	}
}

var (
	mmIdent = `[A-Za-z0-9_]+`
	mmText  = `[^{}|<>\s](?:[^{}|<>]*[^{}|<>\s])?`
	mmLine  = regexp.MustCompile(`^    (?:` +
		mmIdent + `(?:: ` + mmText + `)?` + // state
		`|\[\*\] --> ` + mmIdent + // initial
		`|` + mmIdent + ` --> ` + mmIdent + `(?:: ` + mmText + `)?` + // transition
		`|` + mmIdent + ` --> \[\*\]` + // terminal
		`|note (?:right|left) of ` + mmIdent +
		`|end note` +
		`|classDef (?:visited|current) fill:#[0-9a-f]{6}` +
		`|class ` + mmIdent + `(?:, ` + mmIdent + `)* (?:visited|current)` +
		`)$`)
	mmNoteLine = regexp.MustCompile(`^        ` + mmText + `$`)
)

// mermaidProblem reports a structural problem of Mermaid text: each line is
// one statement of rendering.md §4.1, labels hold none of `{ } | < >` nor
// `--`, notes are closed and no note line reads as their end.
func mermaidProblem(out string) string {
	if p := commonTextProblem(out); p != "" {
		return p
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(lines[i], "%%") {
		i++
	}
	if i == 0 || len(lines) < i+2 || lines[i] != "stateDiagram-v2" || lines[i+1] != "    direction TB" {
		return "bad frame"
	}
	inNote := false
	for n, line := range lines[i+2:] {
		where := fmt.Sprintf("line %d: %q", n+i+3, line)
		if strings.Contains(line, "--") && !strings.Contains(line, " --> ") {
			return where + ": `--` outside an arrow"
		}
		if strings.Count(line, " --> ") > 1 {
			return where + ": two arrows"
		}
		if id := reservedIdent(line); !inNote && id != "" {
			return where + ": identifier `" + id + "` is a Mermaid keyword"
		}
		switch {
		case inNote && line == "    end note":
			inNote = false
		case inNote:
			if !mmNoteLine.MatchString(line) || strings.HasPrefix(strings.TrimSpace(line), "end note") {
				return where + ": bad note line"
			}
		case !mmLine.MatchString(line):
			return where + ": not a statement"
		case strings.HasPrefix(line, "    note "):
			inNote = true
		}
	}
	if inNote {
		return "unterminated note"
	}
	return ""
}

// reservedIdent returns the first identifier of a Mermaid statement line
// that Mermaid would not read as a plain state (mmReserved), or "".
func reservedIdent(line string) string {
	stmt := strings.TrimPrefix(line, "    ")
	var ids []string
	switch {
	case strings.HasPrefix(stmt, "note "):
		f := strings.Fields(stmt)
		ids = f[len(f)-1:]
	case strings.HasPrefix(stmt, "class "):
		f := strings.Fields(strings.ReplaceAll(stmt, ",", " "))
		ids = f[1 : len(f)-1]
	case strings.HasPrefix(stmt, "classDef ") || stmt == "end note":
	default:
		head, _, _ := strings.Cut(stmt, ": ")
		ids = strings.Split(head, " --> ")
	}
	for _, id := range ids {
		if mmReserved[strings.ToLower(id)] {
			return id
		}
	}
	return ""
}

func checkMermaid(t *testing.T, mmd []byte) {
	t.Helper()
	if p := mermaidProblem(string(mmd)); p != "" {
		t.Errorf("Mermaid: %s\n%s", p, mmd)
	}
}

// fuzzWorkflow builds a two-state workflow whose ids, titles, guard text and
// run task come from the fuzzer.
func fuzzWorkflow(id, title, guard string) (*workflow.Workflow, *Overlay) {
	other := id + "2"
	w := &workflow.Workflow{ID: id, Version: 1, Title: title, Initial: id, States: map[string]*workflow.State{
		id:    {ID: id, Title: title, Phases: []string{title}},
		other: {ID: other, Title: guard, Terminal: true},
	}}
	when := predicate.Compare{Left: predicate.Fact("f"), Op: predicate.Eq, Right: predicate.Lit(predicate.Text(guard))}
	w.Transitions = []*workflow.Transition{
		{Index: 0, From: id, To: other, When: when},
		{Index: 1, From: other, To: id, When: predicate.Always{}},
	}
	return w, &Overlay{Task: title, Current: other, Entered: []string{id, other}}
}

// FuzzEscaping checks that any id, title and guard give structurally sound
// DOT and Mermaid: balanced quotes, one statement per line.
func FuzzEscaping(f *testing.F) {
	for _, s := range []string{"", "a", `"`, `\`, `\N`, "#;:", "-->", "end note", "a\nb", "\r\n", "ü✓", "{|}<>", "\x00", "\xff", " x "} {
		f.Add(s, s, s)
	}
	f.Add("release/canary", "Say \"hi\" -- {x}", "a\"b#;:-->{x}|<y>\\z é")
	f.Fuzz(func(t *testing.T, id, title, guard string) {
		w, ov := fuzzWorkflow(id, title, guard)
		for _, opts := range []Options{{}, {ClusterPhases: true, Overlay: ov, Tooltips: true}} {
			if p := dotProblem(string(DOT(w, opts))); p != "" {
				t.Fatalf("DOT: %s\n%s", p, DOT(w, opts))
			}
			if p := mermaidProblem(string(Mermaid(w, opts))); p != "" {
				t.Fatalf("Mermaid: %s\n%s", p, Mermaid(w, opts))
			}
		}
	})
}

// TestMermaidProblemKeywords checks that the structural check itself rejects
// keyword identifiers, so the goldens' checks could fail.
func TestMermaidProblemKeywords(t *testing.T) {
	const head = "%% x\nstateDiagram-v2\n    direction TB\n"
	for _, line := range []string{"note: N", "a --> Note", "[*] --> click", "note right of state",
		"class a, style visited", "root_end --> [*]"} {
		if p := mermaidProblem(head + "    " + line + "\n"); !strings.Contains(p, "Mermaid keyword") {
			t.Errorf("%q: problem %q, want a keyword problem", line, p)
		}
	}
	if p := mermaidProblem(head + "    note_ --> end: g\n    note right of note_\n        needs state\n    end note\n"); p != "" {
		t.Errorf("safe diagram: %s", p)
	}
}
