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
	var b strings.Builder
	for _, h := range header {
		if h == "" {
			b.WriteString("#\n")
		} else {
			b.WriteString("# " + h + "\n")
		}
	}
	b.WriteString("id: " + doc.ID + "\n")
	b.WriteString("root:\n")
	r := doc.Root
	b.WriteString("  id: " + r.ID + "\n")
	writeGroupFields(&b, "  ", r)
	_, err := io.WriteString(w, b.String())
	return err
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

// writeGroupFields writes a group's keys after `id`, with keys at indent p
// and children at p+2 (their `- ` dash at p+2).
func writeGroupFields(b *strings.Builder, p string, g *Node) {
	if len(g.Needs) > 0 {
		b.WriteString(p + "needs: " + flowList(g.Needs) + "\n")
	}
	if g.Repeat > 0 {
		b.WriteString(p + "repeat: {max: " + strconv.Itoa(g.Repeat) + "}\n")
	}
	if len(g.Gives) > 0 {
		b.WriteString(p + "gives: " + flowList(g.Gives) + "\n")
	}
	if len(g.Nodes) == 0 {
		b.WriteString(p + "nodes: []\n")
		return
	}
	b.WriteString(p + "nodes:\n")
	for _, c := range g.Nodes {
		writeNode(b, p+"  ", c)
	}
}

// writeNode writes one sequence item whose dash sits at indent p.
func writeNode(b *strings.Builder, p string, n *Node) {
	if n.IsGroup() {
		if n.Comment != "" {
			b.WriteString(p + "# " + n.Comment + "\n")
		}
		b.WriteString(p + "- id: " + n.ID + "\n")
		writeGroupFields(b, p+"  ", n)
		return
	}
	b.WriteString(p + "- id: " + n.ID + "\n")
	if len(n.Needs) > 0 {
		b.WriteString(p + "  needs: " + flowList(n.Needs) + "\n")
	}
	if writesRun(n.Run) {
		b.WriteString(p + "  run:\n")
		writeRun(b, p+"    ", n.Run)
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

// writeRun writes the payload keys at indent k in the order of §6.2.
func writeRun(b *strings.Builder, k string, r *Run) {
	if r.State != "" {
		b.WriteString(k + "state: " + r.State + "\n")
	}
	if r.Summary != "" {
		b.WriteString(k + "summary: " + q(r.Summary) + "\n")
	}
	if r.Kind != "" {
		b.WriteString(k + "kind: " + r.Kind + "\n")
	}
	for _, key := range runKeys(r) {
		switch key {
		case "prompt":
			b.WriteString(k + "prompt: " + q(r.Prompt) + "\n")
		case "context":
			writeBlockList(b, k, "context", r.Context)
		case "scope":
			writeBlockList(b, k, "scope", r.Scope)
		case "harness":
			h := r.Harness
			if h == "" {
				h = DefaultHarness
			}
			b.WriteString(k + "harness: " + q(h) + "\n")
		case "command":
			words := make([]string, len(r.Command))
			for i, w := range r.Command {
				words[i] = q(w)
			}
			b.WriteString(k + "command: [" + strings.Join(words, ", ") + "]\n")
		case "evidence":
			b.WriteString(k + "evidence:\n")
			b.WriteString(k + "  kind: " + r.Evidence.Kind + "\n")
			b.WriteString(k + "  verifier: " + r.Evidence.Verifier + "\n")
			if r.Evidence.Suite != "" {
				b.WriteString(k + "  suite: " + r.Evidence.Suite + "\n")
			}
		case "description":
			b.WriteString(k + "description: " + q(*r.Description) + "\n")
		}
	}
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

func writeBlockList(b *strings.Builder, k, key string, items []string) {
	b.WriteString(k + key + ":\n")
	for _, it := range items {
		b.WriteString(k + "  - " + q(it) + "\n")
	}
}

// flowList writes `[a, b]` with plain items.
func flowList(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

// qReplacer applies the escapes of projection.md §6.3. A strings.Replacer
// tries its pairs at each position in one pass, which gives the same result
// as applying them in order because no replacement produces another's input.
var qReplacer = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`, "\n", `\n`, "\t", `\t`)

// q is the projection's only quoting: a double-quoted YAML scalar escaping
// backslash, double quote, CR, LF and TAB and nothing else.
func q(s string) string { return `"` + qReplacer.Replace(s) + `"` }

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
