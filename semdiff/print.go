package semdiff

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/aepflow/aepflow/diag"
)

// WriteJSON writes the report as JSON: for two files the change set of
// the document, for two trees an object with the revision, the changed
// documents and the documents added, removed and unchanged.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if !r.Trees && len(r.Documents) == 1 {
		return enc.Encode(r.Documents[0])
	}
	return enc.Encode(struct {
		Against   string     `json:"against"`
		Documents []Document `json:"documents"`
		Added     []Ref      `json:"added"`
		Removed   []Ref      `json:"removed"`
		Unchanged []Ref      `json:"unchanged"`
	}{r.Against, nonNil(r.Documents), nonNil(r.Added), nonNil(r.Removed), nonNil(r.Unchanged)})
}

// seg is a piece of a printed line: plain words, or a value or name shown
// as code (backticks in text, a code span in Markdown).
type seg struct {
	text   string
	code   bool
	strong bool
}

func words(s string) seg { return seg{text: s} }

// ticks splits a line that marks names with backticks (the impact lines;
// the names are state and group ids, which hold no backtick) into words
// and code.
func ticks(s string) []seg {
	var out []seg
	for i, part := range strings.Split(s, "`") {
		if part != "" {
			out = append(out, seg{text: part, code: i%2 == 1})
		}
	}
	return out
}
func code(s string) seg { return seg{text: s, code: true} }

// strong is words a Markdown reader must not miss (bold there, plain in
// text).
func strong(s string) seg { return seg{text: s, strong: true} }

// entry is one printed item and the items under it.
type entry struct {
	segs []seg
	sub  []entry
}

func line(segs ...seg) entry { return entry{segs: segs} }

// WriteText writes the report for a terminal: a heading per document, then
// one line per change, indented, with every name and value in backticks and
// every character that would not show (control, format, bidirectional
// override) escaped.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	if r.Trees {
		fmt.Fprintf(&b, "against %s: %s\n", visible(r.Against), treeSummary(r))
		for _, ref := range r.Added {
			fmt.Fprintf(&b, "  added %s `%s` (%s)\n", kindName(ref.Kind), visible(ref.ID), visible(ref.File))
		}
		for _, ref := range r.Removed {
			fmt.Fprintf(&b, "  removed %s `%s` (%s)\n", kindName(ref.Kind), visible(ref.ID), visible(ref.File))
		}
	}
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "%s `%s`: %s\n", kindName(d.DocKind()), visible(d.DocID()), d.Summary())
		for _, e := range documentEntries(d) {
			writeTextEntry(&b, e, "  ")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTextEntry(b *strings.Builder, e entry, indent string) {
	b.WriteString(indent)
	for _, s := range e.segs {
		if s.code {
			b.WriteString("`" + visible(s.text) + "`")
		} else {
			b.WriteString(visible(s.text))
		}
	}
	b.WriteByte('\n')
	for _, sub := range e.sub {
		writeTextEntry(b, sub, indent+"    ")
	}
}

// WriteMarkdown writes the report for a pull-request comment: a summary
// table, then a section per changed document. Every name and value is a
// code span (so nothing in a document is read as Markdown or HTML), with
// invisible characters, line breaks among them, escaped.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	if r.Trees {
		fmt.Fprintf(&b, "## aepflow diff against %s\n\n%s.\n\n", codeSpan(r.Against), treeSummary(r))
	} else {
		b.WriteString("## aepflow diff\n\n")
	}
	if r.Trees && !r.Changed() {
		b.WriteString("No workflow or step map changed.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("| document | kind | change | behaviour |\n|---|---|---|---|\n")
	for _, ref := range r.Added {
		fmt.Fprintf(&b, "| %s | %s | added | |\n", cell(codeSpan(ref.ID)), kindName(ref.Kind))
	}
	for _, ref := range r.Removed {
		fmt.Fprintf(&b, "| %s | %s | removed | |\n", cell(codeSpan(ref.ID)), kindName(ref.Kind))
	}
	for _, d := range r.Documents {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(codeSpan(d.DocID())), kindName(d.DocKind()), cell(d.Summary()), behaviourCell(d))
	}
	for _, d := range r.Documents {
		if !d.Changed() {
			continue
		}
		fmt.Fprintf(&b, "\n### %s %s\n\n", kindName(d.DocKind()), codeSpan(d.DocID()))
		for _, e := range documentEntries(d) {
			writeMarkdownEntry(&b, e, "")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeMarkdownEntry(b *strings.Builder, e entry, indent string) {
	b.WriteString(indent + "- ")
	for _, s := range e.segs {
		switch {
		case s.code:
			b.WriteString(codeSpan(s.text))
		case s.strong:
			b.WriteString("**" + escapeMarkdown(s.text) + "**")
		default:
			b.WriteString(escapeMarkdown(s.text))
		}
	}
	b.WriteByte('\n')
	for _, sub := range e.sub {
		writeMarkdownEntry(b, sub, indent+"  ")
	}
}

func behaviourCell(d Document) string {
	wc, ok := d.(*WorkflowChange)
	switch {
	case !ok:
		return ""
	case wc.UnversionedBehaviourChange:
		return "**changed, version unchanged**"
	case wc.BehaviourChanged:
		return "changed"
	}
	return "unchanged"
}

func treeSummary(r *Report) string {
	return fmt.Sprintf("%s changed, %d added, %d removed, %d unchanged",
		count(len(r.Documents), "document"), len(r.Added), len(r.Removed), len(r.Unchanged))
}

func kindName(k Kind) string {
	if k == KindStepMap {
		return "step map"
	}
	return string(k)
}

// documentEntries lists a document's changes in printing order.
func documentEntries(d Document) []entry {
	switch d := d.(type) {
	case *WorkflowChange:
		return workflowEntries(d)
	case *StepMapChange:
		return stepMapEntries(d)
	}
	return nil
}

func workflowEntries(c *WorkflowChange) []entry {
	var out []entry
	if c.UnversionedBehaviourChange {
		ref := fmt.Sprintf("%s/%d", c.ID, c.versionNow())
		out = append(out, line(strong("warning:"), words(" the behaviour changed but "), code("version"),
			words(fmt.Sprintf(" is still %d: every reference ", c.versionNow())), code(ref),
			words(" (a step map's pin, a profile's workflow) now reaches the new behaviour")))
	}
	if c.Version != nil {
		out = append(out, line(words("version: "), code(show(c.Version.Old)), words(" → "), code(show(c.Version.New))))
	}
	if c.Initial != nil {
		out = append(out, line(words("initial: "), code(c.Initial.Old), words(" → "), code(c.Initial.New)))
	}
	out = append(out, fieldEntries(c.Fields)...)
	for _, s := range c.States.Added {
		out = append(out, stateEntry("state added ", s))
	}
	for _, s := range c.States.Removed {
		out = append(out, stateEntry("state removed ", s))
	}
	for _, s := range c.States.Changed {
		out = append(out, entry{segs: []seg{words("state changed "), code(s.ID)}, sub: fieldEntries(s.Fields)})
	}
	t := c.Transitions
	for _, tr := range t.Added {
		out = append(out, transitionEntry("transition added ", tr))
	}
	for _, tr := range t.Removed {
		out = append(out, transitionEntry("transition removed ", tr))
	}
	for _, tr := range t.Changed {
		e := entry{segs: []seg{words("transition changed "), code(arrow(tr.From, tr.To, tr.Occurrence))}}
		if tr.Guard != nil {
			e.sub = append(e.sub, line(words("guard: "), code(tr.Guard.Old), words(" → "), code(tr.Guard.New)))
		}
		e.sub = append(e.sub, fieldEntries(tr.Fields)...)
		out = append(out, e)
	}
	for _, ro := range t.Reordered {
		out = append(out, line(words("transitions out of "), code(ro.From), words(" tried in another order: "),
			code(strings.Join(ro.Old, ", ")), words(" → "), code(strings.Join(ro.New, ", "))))
	}
	if c.Impact != nil {
		out = append(out, line(ticks("impact on the "+c.Impact.Flow.Line)...), line(ticks("impact on the "+c.Impact.Diagram.Line)...))
	}
	return out
}

// versionNow is the version both sides share when it did not change.
func (c *WorkflowChange) versionNow() uint32 {
	if c.Version != nil {
		return c.Version.New
	}
	return c.version
}

func stateEntry(verb string, s StateInfo) entry {
	segs := []seg{words(verb), code(s.ID), words(" titled "), code(s.Title)}
	if s.Terminal {
		segs = append(segs, words(" (terminal)"))
	}
	return line(segs...)
}

func transitionEntry(verb string, t TransitionInfo) entry {
	segs := []seg{words(verb), code(arrow(t.From, t.To, t.Occurrence))}
	if t.Guard != "always" {
		segs = append(segs, words(" when "), code(t.Guard))
	} else {
		segs = append(segs, words(" unguarded"))
	}
	segs = append(segs, words(fmt.Sprintf(", tried %s out of ", ordinal(t.Position))), code(t.From))
	return line(segs...)
}

// arrow spells a transition key: `a -> b`, `a -> b #2`.
func arrow(from, to string, occurrence int) string {
	s := from + " -> " + to
	if occurrence > 1 {
		s += " #" + strconv.Itoa(occurrence)
	}
	return s
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

func stepMapEntries(c *StepMapChange) []entry {
	var out []entry
	if c.Pin != nil {
		out = append(out, line(words("pin: "), code(c.Pin.Old), words(" → "), code(c.Pin.New)))
	}
	out = append(out, fieldEntries(c.Fields)...)
	for _, s := range c.States.Added {
		out = append(out, line(words("state added "), code(s.ID), words(" with "+count(len(s.Steps), "step"))))
	}
	for _, s := range c.States.Removed {
		out = append(out, line(words("state removed "), code(s.ID), words(" with "+count(len(s.Steps), "step"))))
	}
	for _, s := range c.States.Changed {
		e := entry{segs: []seg{words("state changed "), code(s.ID)}, sub: fieldEntries(s.Fields)}
		for _, st := range s.Steps.Added {
			e.sub = append(e.sub, line(words(fmt.Sprintf("step added, %s: %s ", ordinal(st.Position), st.Kind)), code(st.Label)))
		}
		for _, st := range s.Steps.Removed {
			e.sub = append(e.sub, line(words(fmt.Sprintf("step removed, was %s: %s ", ordinal(st.Position), st.Kind)), code(st.Label)))
		}
		for _, st := range s.Steps.Changed {
			e.sub = append(e.sub, entry{segs: []seg{words("step changed, " + st.Kind + " "), code(st.Label)}, sub: fieldEntries(st.Fields)})
		}
		if ro := s.Steps.Reordered; ro != nil {
			e.sub = append(e.sub, line(words("steps run in another order: "), code(strings.Join(ro.Old, "; ")), words(" → "), code(strings.Join(ro.New, "; "))))
		}
		out = append(out, e)
	}
	return out
}

func fieldEntries(fields []Field) []entry {
	out := make([]entry, 0, len(fields))
	for _, f := range fields {
		out = append(out, line(code(f.Field), words(": "), code(show(f.Old)), words(" → "), code(show(f.New))))
	}
	return out
}

// show displays a field value: text as it is, lists in brackets
// (requirement lines joined by "; ", since they hold commas), nothing as
// `(none)`.
func show(v any) string {
	switch v := v.(type) {
	case nil:
		return "(none)"
	case string:
		return v
	case []string:
		sep := ", "
		for _, s := range v {
			if strings.Contains(s, ", ") {
				sep = "; "
			}
		}
		return "[" + strings.Join(v, sep) + "]"
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// visible escapes every rune that would not show as itself on a terminal
// or a web page. It is diag.EscapeText (the one escaping of aepflow's
// printers: control characters, line and paragraph separators,
// bidirectional controls, invalid UTF-8, in its forms `\x0a`, `\u202e`,
// `\xff`) and, for what a diff needs beyond a line's safety, every other
// rune that shows nothing though it changes a value: format characters
// (U+200B, U+00AD, U+FEFF), spaces but U+0020 (U+00A0, U+3000), private-use
// and unassigned code points, as `\u200b` or `\U000e0080`. A diag message
// leaves those as they are (a title may join an emoji with U+200D); a
// reviewer comparing `a` with `a\u200b` must see that they differ.
func visible(s string) string {
	s = diag.EscapeText(s)
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !hidden(r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// hidden reports whether r shows nothing where it stands (after
// diag.EscapeText, which leaves no control character or invalid byte).
func hidden(r rune) bool { return r != ' ' && !unicode.IsPrint(r) }

// codeSpan makes a Markdown code span of s: invisible characters (line
// breaks among them) escaped as visible does, and a fence one backtick longer
// than the longest run of backticks inside (CommonMark §6.1).
func codeSpan(s string) string {
	s = visible(s)
	if s == "" {
		return "` `"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// cell makes text safe inside a table cell: GitHub ends a cell at any `|`
// not escaped, inside code spans too.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// escapeMarkdown escapes the characters Markdown would read as markup
// inside plain words (the words never start a line: every entry is a list
// item).
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range visible(s) {
		if strings.ContainsRune("\\`*_[]<>|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
