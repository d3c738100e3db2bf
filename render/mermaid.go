package render

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/workflow"
)

// CodeMermaidIdentCollision is the warning code for two state ids that map
// to the same Mermaid identifier and would merge into one Mermaid state.
const CodeMermaidIdentCollision = "mermaid_ident_collision"

// Mermaid returns the workflow as a Mermaid `stateDiagram-v2` (rendering.md
// §4), byte-stable and ending with a newline.
func Mermaid(w *workflow.Workflow, opts Options) []byte {
	s := newScene(w, opts)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%%% %s/%d: generated from the workflow document; do not edit.\n", esc(w.ID), w.Version)
	b.WriteString("stateDiagram-v2\n")
	b.WriteString("    direction TB\n")
	for _, n := range s.nodes {
		writeLabelled(&b, mmIdentOf(n.id), escLabel(n.title))
	}
	fmt.Fprintf(&b, "    [*] --> %s\n", mmIdentOf(w.Initial))
	for _, e := range s.edges {
		writeLabelled(&b, mmIdentOf(e.from)+" --> "+mmIdentOf(e.to), escLabel(e.guard))
	}
	for _, n := range s.nodes {
		if n.terminal {
			fmt.Fprintf(&b, "    %s --> [*]\n", mmIdentOf(n.id))
		}
	}
	for _, n := range s.nodes {
		if len(n.lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "    note right of %s\n", mmIdentOf(n.id))
		for _, l := range n.lines {
			fmt.Fprintf(&b, "        %s\n", escNote("needs "+l))
		}
		b.WriteString("    end note\n")
	}
	if s.overlay != nil {
		writeMermaidOverlay(&b, s, w.Initial)
	}
	return b.Bytes()
}

// writeLabelled writes a statement with its `: label` part, leaving the part
// out when the label is empty, so that no line ends in whitespace.
func writeLabelled(b *bytes.Buffer, stmt, label string) {
	if label == "" {
		fmt.Fprintf(b, "    %s\n", stmt)
		return
	}
	fmt.Fprintf(b, "    %s: %s\n", stmt, label)
}

// writeMermaidOverlay writes the run note and the optional classes of
// rendering.md §5.3.
func writeMermaidOverlay(b *bytes.Buffer, s *scene, initial string) {
	fmt.Fprintf(b, "    note left of %s\n", mmIdentOf(initial))
	fmt.Fprintf(b, "        %s\n", escNote(s.overlay.Line()))
	b.WriteString("    end note\n")
	var seen, cur []string
	for _, n := range s.nodes {
		switch n.accent {
		case visited:
			seen = append(seen, mmIdentOf(n.id))
		case current, stopped, done:
			cur = append(cur, mmIdentOf(n.id))
		}
	}
	if len(seen) == 0 && len(cur) == 0 {
		return
	}
	fmt.Fprintf(b, "    classDef visited fill:%s\n", fillVisited)
	fmt.Fprintf(b, "    classDef current fill:%s\n", fillCurrent)
	if len(seen) > 0 {
		fmt.Fprintf(b, "    class %s visited\n", strings.Join(seen, ", "))
	}
	if len(cur) > 0 {
		fmt.Fprintf(b, "    class %s current\n", strings.Join(cur, ", "))
	}
}

// MermaidWarnings returns a mermaid_ident_collision warning for every group
// of state ids that share a Mermaid identifier (rendering.md §4.1), in
// identifier order.
func MermaidWarnings(w *workflow.Workflow) diag.List {
	groups := map[string][]string{}
	for _, id := range w.StateIDs() {
		groups[mmIdentOf(id)] = append(groups[mmIdentOf(id)], id)
	}
	keys := make([]string, 0, len(groups))
	for k, ids := range groups {
		if len(ids) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var list diag.List
	for _, k := range keys {
		ids := groups[k]
		d := diag.Warningf(CodeMermaidIdentCollision,
			"states `%s` all become Mermaid state `%s` and would be drawn as one",
			strings.Join(ids, "`, `"), k).InFile(w.File)
		if st := w.States[ids[len(ids)-1]]; st != nil && st.Pos.Line > 0 {
			d = d.At(w.File, st.Pos)
		}
		list.Add(d)
	}
	return list
}

// mmIdentOf maps a state id to a Mermaid identifier: every character that is not
// an ASCII letter or digit becomes `_` (rendering.md §4.1). An identifier
// that Mermaid would not read as a plain state (see mmReserved) gets a
// trailing `_`; a validated state id never ends in a separator, so its
// reference identifier never ends in `_` and cannot clash with a suffixed one.
// MermaidWarnings groups by this final mapping, so any clash left (between
// unvalidated ids) is still reported.
func mmIdentOf(id string) string {
	var b strings.Builder
	for _, r := range id {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	if mmReserved[strings.ToLower(b.String())] {
		b.WriteByte('_')
	}
	return b.String()
}

// mmReserved holds, lowercased, the identifiers that break Mermaid's
// stateDiagram-v2 (checked against mermaid 11.17.2, docs/decisions.md
// "Mermaid identifiers"). Its lexer matches keywords case-insensitively and
// before plain identifiers: `click`, `href` and `default` fail everywhere;
// `class`, `classdef`, `note`, `scale`, `state`, `statediagram` and `style`
// fail before a space (`note --> a`); `acctitle` and `accdescr` before a
// colon turn a state declaration into the diagram's accessible title or
// description. `root_start` and `root_end` are the names Mermaid gives the
// top-level `[*]` start and end, so a state so named merges with them.
var mmReserved = map[string]bool{
	"accdescr": true, "acctitle": true, "class": true, "classdef": true,
	"click": true, "default": true, "href": true, "note": true,
	"root_end": true, "root_start": true, "scale": true, "state": true,
	"statediagram": true, "style": true,
}

// esc makes text safe in a Mermaid label (rendering.md §4.1): CR and LF
// become spaces, so do `{ } |`; then every `--` becomes `—` (U+2014);
// then both ends are trimmed. Other control characters also become spaces
// (§4.1 is silent on them), and invalid UTF-8 becomes U+FFFD. `<` and `>`
// are kept, unlike §4.1 (which turned `failed > 0` into `failed   0`):
// entities writes them as Mermaid's entity codes once the label is
// otherwise final (docs/decisions.md).
func esc(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\n', '{', '}', '|':
			return ' '
		}
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, text)
	text = strings.ReplaceAll(text, "--", "—")
	return strings.TrimSpace(text)
}

// mmDirection matches what Mermaid's lexer reads as a direction statement
// anywhere in a line, in any case.
var mmDirection = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(direc)(tion\s+(?:tb|bt|lr|rl))`) })

// escLabel is esc for a state title or a guard: a statement's label.
func escLabel(text string) string { return entities(labelSafe(esc(text))) }

// mmEntityLike matches what Mermaid decodes as an entity code: `#` and a
// word ending in `;` (`#lt;`, `#35;`).
var mmEntityLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#(\w+;)`) })

// entities writes `<` and `>` as Mermaid's entity codes `#lt;` and `#gt;`,
// which Mermaid 11 shows as the characters (raw, they may read as HTML in
// its labels), and a `#` that would start an entity code as `#35;`, so
// that a title holding `#lt;` shows it as written. It runs last: the codes
// hold a `;`, which labelSafe would replace.
func entities(text string) string {
	if !strings.ContainsAny(text, "<>#") {
		return text
	}
	text = mmEntityLike().ReplaceAllString(text, "#35;$1")
	return mmAngles.Replace(text)
}

// mmAngles writes `<` and `>` as Mermaid's entity codes (see entities).
var mmAngles = strings.NewReplacer("<", "#lt;", ">", "#gt;")

// labelSafe keeps a title or guard from breaking Mermaid 11, which the
// reference's esc does not (docs/decisions.md, "Mermaid identifiers"): a
// `;` ends a label (it becomes U+037E GREEK QUESTION MARK, which looks the
// same), `::` and a trailing `:` are parse errors (they become U+2236
// RATIO), and
// `direction tb` and the like anywhere in a line turn the whole line into a
// direction statement (a zero-width space splits the word). Labels without
// these read exactly as the reference writes them. Note lines are
// not statements and need none of this.
func labelSafe(text string) string {
	if !strings.ContainsAny(text, ";:dD") {
		return text
	}
	text = strings.ReplaceAll(text, ";", "\u037e")
	text = strings.ReplaceAll(text, "::", "\u2236\u2236")
	if strings.HasSuffix(text, ":") {
		text = strings.TrimSuffix(text, ":") + "\u2236"
	}
	return mmDirection().ReplaceAllString(text, "${1}\u200b${2}")
}

// escNote is esc for a note line, which must not read as the note's end:
// a line starting with `end note` gets the prefix `· `.
func escNote(text string) string {
	t := esc(text)
	if strings.HasPrefix(t, "end note") {
		t = "· " + t
	}
	return entities(t)
}
