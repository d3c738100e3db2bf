package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteYAML writes doc in the exact byte form of projection.md §6: the header
// lines as `# ` comments (a blank line becomes a lone `#`), then the body with
// free text double-quoted by q (§6.3) and ids, needs, state, kind and the
// evidence words plain. Header lines are given without their `#`. It writes
// nothing and returns an error when doc has no root, a header line or group
// comment holds a line break, or a Run has an unknown Kind.
func WriteYAML(w io.Writer, header []string, doc *Document) error {
	if err := validateForWrite(header, doc); err != nil {
		return err
	}
	b := &yamlOut{buf: make([]byte, 0, estimateYAML(doc.Root))}
	for _, h := range header {
		if h == "" {
			b.str("#\n")
		} else {
			b.str("# ", h, "\n")
		}
	}
	b.str("id: ", doc.ID, "\n")
	b.str("root:\n")
	r := doc.Root
	b.str("  id: ", r.ID, "\n")
	b.groupFields(2, r)
	_, err := w.Write(b.buf)
	return err
}

// yamlOut accumulates the YAML bytes. Indents are counts of spaces, so no
// line builds a temporary string: a large document is written in one
// buffer sized up front.
type yamlOut struct{ buf []byte }

// str appends the parts.
func (b *yamlOut) str(parts ...string) {
	for _, p := range parts {
		b.buf = append(b.buf, p...)
	}
}

// indent appends n spaces.
func (b *yamlOut) indent(n int) {
	for range n {
		b.buf = append(b.buf, ' ')
	}
}

// line appends an indented line made of parts and a line feed.
func (b *yamlOut) line(n int, parts ...string) {
	b.indent(n)
	b.str(parts...)
	b.buf = append(b.buf, '\n')
}

// list appends `[a, b]` with plain items.
func (b *yamlOut) list(items []string) {
	b.buf = append(b.buf, '[')
	for i, it := range items {
		if i > 0 {
			b.buf = append(b.buf, ", "...)
		}
		b.buf = append(b.buf, it...)
	}
	b.buf = append(b.buf, ']')
}

// quoted appends s as q does.
func (b *yamlOut) quoted(s string) {
	b.buf = append(b.buf, '"')
	if strings.ContainsAny(s, "\\\"\r\n\t") {
		b.buf = append(b.buf, qReplacer.Replace(s)...)
	} else {
		b.buf = append(b.buf, s...)
	}
	b.buf = append(b.buf, '"')
}

// estimateYAML guesses the written size of the tree under n, so the buffer
// rarely grows: about 40 bytes per node plus its text.
func estimateYAML(n *Node) int {
	size := 40 + 2*len(n.ID)
	if n.Run != nil {
		size += len(n.Run.Summary) + len(n.Run.Prompt) + 16*len(n.Run.Command)
	}
	for _, c := range n.Nodes {
		size += estimateYAML(c)
	}
	return size
}

// validateForWrite refuses what the writer cannot put into valid bytes.
func validateForWrite(header []string, doc *Document) error {
	if doc == nil || doc.Root == nil {
		return errors.New("flow: document has no root")
	}
	if !doc.Root.IsGroup() {
		return errors.New("flow: the root is not a group")
	}
	for _, h := range header {
		if strings.ContainsAny(h, "\r\n") {
			return fmt.Errorf("flow: header line %q holds a line break", h)
		}
	}
	return validateNode(doc.Root)
}

func validateNode(n *Node) error {
	if n == nil {
		return errors.New("flow: nil node")
	}
	if strings.ContainsAny(n.Comment, "\r\n") {
		return fmt.Errorf("flow: comment of %q holds a line break", n.ID)
	}
	if n.Run != nil {
		switch n.Run.Kind {
		case "", KindLLM, KindCommand, KindOperator:
		default:
			return fmt.Errorf("flow: step %q has unknown kind %q", n.ID, n.Run.Kind)
		}
	}
	for _, c := range n.Nodes {
		if err := validateNode(c); err != nil {
			return err
		}
	}
	return nil
}

// groupFields writes a group's keys after `id`, with keys at indent p
// and children at p+2 (their `- ` dash at p+2).
func (b *yamlOut) groupFields(p int, g *Node) {
	if len(g.Needs) > 0 {
		b.indent(p)
		b.str("needs: ")
		b.list(g.Needs)
		b.str("\n")
	}
	if g.Repeat > 0 {
		b.line(p, "repeat: {max: ", strconv.Itoa(g.Repeat), "}")
	}
	if len(g.Gives) > 0 {
		b.indent(p)
		b.str("gives: ")
		b.list(g.Gives)
		b.str("\n")
	}
	if len(g.Nodes) == 0 {
		b.line(p, "nodes: []")
		return
	}
	b.line(p, "nodes:")
	for _, c := range g.Nodes {
		b.node(p+2, c)
	}
}

// node writes one sequence item whose dash sits at indent p.
func (b *yamlOut) node(p int, n *Node) {
	if n.IsGroup() {
		if n.Comment != "" {
			b.line(p, "# ", n.Comment)
		}
		b.line(p, "- id: ", n.ID)
		b.groupFields(p+2, n)
		return
	}
	b.line(p, "- id: ", n.ID)
	if len(n.Needs) > 0 {
		b.indent(p + 2)
		b.str("needs: ")
		b.list(n.Needs)
		b.str("\n")
	}
	if writesRun(n.Run) {
		b.line(p+2, "run:")
		b.run(p+4, n.Run)
	}
}

// writesRun reports whether a step's `run:` key is written: never for a nil
// Run, and for a slot with no step only when it carries a summary or other
// payload (projection.md §6.2).
func writesRun(r *Run) bool {
	if r == nil {
		return false
	}
	if r.Kind != "" {
		return true
	}
	return r.Summary != "" || r.Prompt != "" || len(r.Context) > 0 || len(r.Scope) > 0 ||
		len(r.Command) > 0 || r.Evidence != nil || r.Description != nil || r.Harness != ""
}

// run writes the payload keys at indent k in the order of §6.2.
func (b *yamlOut) run(k int, r *Run) {
	if r.State != "" {
		b.line(k, "state: ", r.State)
	}
	if r.Summary != "" {
		b.indent(k)
		b.str("summary: ")
		b.quoted(r.Summary)
		b.str("\n")
	}
	if r.Kind != "" {
		b.line(k, "kind: ", r.Kind)
	}
	for _, key := range runKeys(r) {
		switch key {
		case "prompt":
			b.quotedLine(k, "prompt: ", r.Prompt)
		case "context":
			b.blockList(k, "context", r.Context)
		case "scope":
			b.blockList(k, "scope", r.Scope)
		case "harness":
			h := r.Harness
			if h == "" {
				h = DefaultHarness
			}
			b.quotedLine(k, "harness: ", h)
		case "command":
			b.indent(k)
			b.str("command: [")
			for i, w := range r.Command {
				if i > 0 {
					b.str(", ")
				}
				b.quoted(w)
			}
			b.str("]\n")
		case "evidence":
			b.line(k, "evidence:")
			b.line(k+2, "kind: ", r.Evidence.Kind)
			b.line(k+2, "verifier: ", r.Evidence.Verifier)
			if r.Evidence.Suite != "" {
				b.line(k+2, "suite: ", r.Evidence.Suite)
			}
		case "description":
			b.quotedLine(k, "description: ", *r.Description)
		}
	}
}

// quotedLine writes `key: "value"` at indent k; key carries its `: `.
func (b *yamlOut) quotedLine(k int, key, value string) {
	b.indent(k)
	b.str(key)
	b.quoted(value)
	b.str("\n")
}

// runKeys lists the payload keys written after `kind`, in order, for r's
// kind; each key is listed only when it is written.
func runKeys(r *Run) []string {
	var keys []string
	add := func(key string, present bool) {
		if present {
			keys = append(keys, key)
		}
	}
	switch r.Kind {
	case KindLLM:
		add("prompt", true)
		add("context", len(r.Context) > 0)
		add("scope", len(r.Scope) > 0)
		add("harness", true)
	case KindCommand:
		add("command", true)
		add("evidence", r.Evidence != nil)
	case KindOperator:
		add("prompt", true)
	default: // a slot with no step: whatever a reader found, in llm order
		add("prompt", r.Prompt != "")
		add("context", len(r.Context) > 0)
		add("scope", len(r.Scope) > 0)
		add("harness", r.Harness != "")
		add("command", len(r.Command) > 0)
		add("evidence", r.Evidence != nil)
	}
	add("description", r.Description != nil)
	return keys
}

func (b *yamlOut) blockList(k int, key string, items []string) {
	b.line(k, key, ":")
	for _, it := range items {
		b.indent(k + 2)
		b.str("- ")
		b.quoted(it)
		b.str("\n")
	}
}

// qReplacer applies the escapes of projection.md §6.3. A strings.Replacer
// tries its pairs at each position in one pass, which gives the same result
// as applying them in order because no replacement produces another's input.
var qReplacer = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`, "\n", `\n`, "\t", `\t`)

// q is the projection's only quoting: a double-quoted YAML scalar escaping
// backslash, double quote, CR, LF and TAB and nothing else.
func q(s string) string {
	var b yamlOut
	b.quoted(s)
	return string(b.buf)
}

// WriteJSON writes doc as strict JSON with the keys in the order WriteYAML
// uses, indented by two spaces and ending with "\n". The header lines, joined
// by "\n", become a top-level `$comment` string (left out when there are
// none); group comments are dropped, JSON having no comments.
func WriteJSON(w io.Writer, header []string, doc *Document) error {
	if err := validateForWrite(header, doc); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("{\n")
	if len(header) > 0 {
		b.WriteString(`  "$comment": ` + jsonString(strings.Join(header, "\n")) + ",\n")
	}
	b.WriteString(`  "id": ` + jsonString(doc.ID) + ",\n")
	b.WriteString(`  "root": `)
	writeJSONNode(&b, "  ", doc.Root)
	b.WriteString("\n}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeJSONNode writes node n as an object whose closing brace sits at
// indent p; the caller has written the text before its opening brace.
func writeJSONNode(b *strings.Builder, p string, n *Node) {
	in := p + "  "
	var fields []string
	fields = append(fields, `"id": `+jsonString(n.ID))
	if len(n.Needs) > 0 {
		fields = append(fields, `"needs": `+jsonList(n.Needs))
	}
	if n.IsGroup() {
		if n.Repeat > 0 {
			fields = append(fields, `"repeat": {"max": `+strconv.Itoa(n.Repeat)+`}`)
		}
		if len(n.Gives) > 0 {
			fields = append(fields, `"gives": `+jsonList(n.Gives))
		}
		var nb strings.Builder
		if len(n.Nodes) == 0 {
			nb.WriteString("[]")
		} else {
			nb.WriteString("[\n")
			for i, c := range n.Nodes {
				nb.WriteString(in + "  ")
				writeJSONNode(&nb, in+"  ", c)
				if i < len(n.Nodes)-1 {
					nb.WriteString(",")
				}
				nb.WriteString("\n")
			}
			nb.WriteString(in + "]")
		}
		fields = append(fields, `"nodes": `+nb.String())
	} else if writesRun(n.Run) {
		fields = append(fields, `"run": `+jsonRun(in, n.Run))
	}
	b.WriteString("{\n")
	for i, f := range fields {
		b.WriteString(in + f)
		if i < len(fields)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(p + "}")
}

// jsonRun renders a payload object whose closing brace sits at indent p.
func jsonRun(p string, r *Run) string {
	in := p + "  "
	var fields []string
	if r.State != "" {
		fields = append(fields, `"state": `+jsonString(r.State))
	}
	if r.Summary != "" {
		fields = append(fields, `"summary": `+jsonString(r.Summary))
	}
	if r.Kind != "" {
		fields = append(fields, `"kind": `+jsonString(r.Kind))
	}
	for _, key := range runKeys(r) {
		var v string
		switch key {
		case "prompt":
			v = jsonString(r.Prompt)
		case "context":
			v = jsonList(r.Context)
		case "scope":
			v = jsonList(r.Scope)
		case "harness":
			h := r.Harness
			if h == "" {
				h = DefaultHarness
			}
			v = jsonString(h)
		case "command":
			v = jsonList(r.Command)
		case "evidence":
			v = `{"kind": ` + jsonString(r.Evidence.Kind) + `, "verifier": ` + jsonString(r.Evidence.Verifier)
			if r.Evidence.Suite != "" {
				v += `, "suite": ` + jsonString(r.Evidence.Suite)
			}
			v += "}"
		case "description":
			v = jsonString(*r.Description)
		}
		fields = append(fields, jsonString(key)+": "+v)
	}
	return "{\n" + in + strings.Join(fields, ",\n"+in) + "\n" + p + "}"
}

func jsonList(items []string) string {
	quoted := make([]string, len(items))
	for i, it := range items {
		quoted[i] = jsonString(it)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return strings.TrimSuffix(buf.String(), "\n")
}
