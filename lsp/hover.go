package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
	"github.com/tliron/glsp"
	lsp "github.com/tliron/glsp/protocol_3_16"
)

// subjectKind says what a name under the cursor refers to.
type subjectKind int

const (
	subjectNone subjectKind = iota
	subjectState
	subjectFact
	subjectWorkflow
	subjectPrinciple
	subjectProfile
	subjectProtocol
	subjectEvidenceKind
	subjectVerifier
)

// subject is the name under the cursor and what it refers to.
type subject struct {
	kind subjectKind
	name string
	// workflow holds the state, for subjectState.
	workflow *workflow.Workflow
	// ref is the parsed reference, for the document kinds.
	ref        ident.Ref
	start, end int // the name's byte range in the buffer
}

// subjectAt tells what the name at byte offset off refers to.
func (v *view) subjectAt(off int) subject {
	h := v.src.at(off)
	if h == nil {
		return subject{}
	}
	sub := subject{name: h.node.Value, start: h.start, end: h.end}
	p := h.path
	last := ""
	if len(p) > 0 {
		last = p[len(p)-1]
	}
	switch v.kind {
	case tree.KindWorkflow:
		switch {
		case !h.key && (pathIs(p, "initial") || pathIs(p, "transitions", "*", "from") || pathIs(p, "transitions", "*", "to")),
			h.key && pathIs(p, "states", "*"):
			sub.kind, sub.workflow = subjectState, v.workflow
		case slices.Contains(p, "when"):
			return v.factAt(h, off)
		}
	case tree.KindStepMap:
		switch {
		case !h.key && pathIs(p, "workflow"):
			sub.kind, sub.ref = subjectWorkflow, refOf(ident.Dotted, sub.name)
		case h.key && pathIs(p, "states", "*"):
			sub.kind, sub.workflow = subjectState, v.pinned()
		case !h.key && len(p) >= 2 && p[len(p)-2] == "evidence" && last == "kind":
			sub.kind = subjectEvidenceKind
		case !h.key && len(p) >= 2 && p[len(p)-2] == "evidence" && last == "verifier":
			sub.kind = subjectVerifier
		}
	case tree.KindProfile:
		switch {
		case !h.key && pathIs(p, "workflow"):
			sub.kind, sub.ref = subjectWorkflow, refOf(ident.Dotted, sub.name)
		case !h.key && pathIs(p, "protocol"):
			sub.kind, sub.ref = subjectProtocol, refOf(ident.Kebab, sub.name)
		case !h.key && pathIs(p, "extends"):
			sub.kind, sub.ref = subjectProfile, ident.Ref{ID: sub.name}
		case !h.key && len(p) == 2 && slices.Contains([]string{"principles", "without_principles", "remove_principles"}, p[0]):
			sub.kind, sub.ref = subjectPrinciple, refOf(ident.Kebab, sub.name)
		case slices.Contains(p, "completion"):
			return v.factAt(h, off)
		}
	}
	return sub
}

// pathIs matches a hit's path against keys, `*` matching any one step.
func pathIs(path []string, keys ...string) bool {
	if len(path) != len(keys) {
		return false
	}
	for i, k := range keys {
		if k != "*" && k != path[i] {
			return false
		}
	}
	return true
}

func refOf(c ident.Charset, s string) ident.Ref {
	r, err := ident.ParseRef(c, s)
	if err != nil {
		return ident.Ref{ID: s}
	}
	return r
}

// combinators are the keys of a structured predicate that are not fact
// paths (documents.md §5.1), and the operators of a fact constraint.
var combinators = []string{"all", "and", "all_of", "any", "or", "not", "none", "none_of_these",
	"eq", "equals", "==", "ne", "not_equals", "!=", "lt", "<", "le", "lte", "<=", "gt", ">", "ge", "gte", ">=",
	"any_of", "in", "one_of", "none_of", "not_in", "exists", "defined", "truthy"}

// factAt finds the fact path at off inside a guard: a structured
// predicate's key, or a fact of a compact string (as the predicate parser
// reads it, so a literal such as `passed` is not taken for a fact).
func (v *view) factAt(h *hit, off int) subject {
	if h.key {
		if slices.Contains(combinators, h.node.Value) || !predicate.ValidFactPath(h.node.Value) {
			return subject{}
		}
		return subject{kind: subjectFact, name: h.node.Value, start: h.start, end: h.end}
	}
	p, err := predicate.ParseCompact(h.node.Value)
	if err != nil {
		return subject{}
	}
	facts := predicate.FactPaths(p)
	s := v.src.tx.s
	start, end := off, off
	for start > h.start && isFactByte(s[start-1]) {
		start--
	}
	for end < h.end && isFactByte(s[end]) {
		end++
	}
	if word := s[start:end]; slices.Contains(facts, word) {
		return subject{kind: subjectFact, name: word, start: start, end: end}
	}
	return subject{}
}

func isFactByte(c byte) bool {
	return c == '.' || c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func (s *server) hover(_ *glsp.Context, p *lsp.HoverParams) (*lsp.Hover, error) {
	v := s.view(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	sub := v.subjectAt(v.src.tx.offsetAt(p.Position))
	text := v.describe(sub)
	if text == "" {
		return nil, nil
	}
	r := v.src.tx.rangeOf(sub.start, sub.end)
	return &lsp.Hover{Contents: lsp.MarkupContent{Kind: lsp.MarkupKindMarkdown, Value: text}, Range: &r}, nil
}

// describe writes the hover text of a subject, in Markdown.
func (v *view) describe(sub subject) string {
	switch sub.kind {
	case subjectState:
		return describeState(sub.workflow, sub.name)
	case subjectFact:
		return describeFact(sub.name)
	case subjectEvidenceKind:
		return describeEvidenceKind(sub.name)
	case subjectVerifier:
		return describeVerifier(sub.name)
	case subjectWorkflow:
		w := v.treeWorkflow(sub.ref)
		if w == nil {
			return fmt.Sprintf("workflow `%s`: not in the tree", sub.ref)
		}
		return fmt.Sprintf("**workflow `%s`** version %d — %s%s\n\n%d states, %d transitions · `%s`",
			w.ID, w.Version, w.Title, summary(w.Summary), len(w.States), len(w.Transitions), v.rel(w.File))
	case subjectPrinciple, subjectProfile, subjectProtocol:
		return v.describeGoverning(sub)
	}
	return ""
}

func summary(s *string) string {
	if s == nil || *s == "" {
		return ""
	}
	return "\n\n" + strings.TrimSpace(*s)
}

// describeState tells a state's title, summary, terminal flag, phases and
// its moves in and out, in document order.
func describeState(w *workflow.Workflow, id string) string {
	if w == nil {
		return fmt.Sprintf("state `%s`", id)
	}
	st := w.States[id]
	if st == nil {
		return fmt.Sprintf("state `%s`: not a state of workflow `%s` (its states: %s)", id, w.ID, strings.Join(w.StateIDs(), ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**state `%s`** — %s%s\n\n", id, st.Title, summary(st.Summary))
	var facts []string
	if st.Terminal {
		facts = append(facts, "terminal")
	}
	if id == w.Initial {
		facts = append(facts, "initial")
	}
	if st.Irreversible {
		facts = append(facts, "irreversible")
	}
	if len(st.Phases) > 0 {
		facts = append(facts, "phases: "+strings.Join(st.Phases, ", "))
	}
	if len(facts) > 0 {
		b.WriteString(strings.Join(facts, " · ") + "\n\n")
	}
	var out, in []string
	for _, t := range w.Transitions {
		guard := ""
		if t.Guarded() {
			guard = fmt.Sprintf(" when `%s`", t.When)
		}
		if t.From == id {
			out = append(out, fmt.Sprintf("- → `%s`%s", t.To, guard))
		}
		if t.To == id && t.From != id {
			in = append(in, fmt.Sprintf("- ← `%s`%s", t.From, guard))
		}
	}
	if len(out) > 0 {
		b.WriteString("moves out:\n" + strings.Join(out, "\n") + "\n\n")
	} else if !st.Terminal {
		b.WriteString("no move out\n\n")
	}
	if len(in) > 0 {
		b.WriteString("moves in:\n" + strings.Join(in, "\n") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// describeFact tells which evidence kinds produce a fact and which
// verifier classes produce those kinds (package vocab).
func describeFact(path string) string {
	kinds := vocab.KindsProducing(path)
	if len(kinds) == 0 {
		return fmt.Sprintf("**fact `%s`**\n\nno evidence kind produces it by name; a `metric_observation` binds its metric under the metric's own name, and a profile or task may set it", path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**fact `%s`**\n\nproduced by:\n", path)
	for _, k := range kinds {
		fmt.Fprintf(&b, "- `%s` evidence%s\n", k, verifiersOf(k))
	}
	return strings.TrimRight(b.String(), "\n")
}

func verifiersOf(kind string) string {
	vs := vocab.DefaultVerifiers(kind)
	if len(vs) == 0 {
		return ", which no verifier class produces by default"
	}
	return ", from " + codeList(vs)
}

func codeList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = "`" + s + "`"
	}
	return strings.Join(quoted, ", ")
}

func describeEvidenceKind(kind string) string {
	canon, known := vocab.CanonicalKind(kind)
	if !known {
		return fmt.Sprintf("`%s` is not an evidence kind (the kinds: %s)", kind, strings.Join(vocab.EvidenceKinds, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**evidence kind `%s`**", canon)
	if canon != kind {
		fmt.Fprintf(&b, " (`%s` is its legacy spelling)", kind)
	}
	b.WriteString("\n\n")
	if vs := vocab.DefaultVerifiers(canon); len(vs) > 0 {
		fmt.Fprintf(&b, "verifiers: %s\n\n", codeList(vs))
	}
	if vocab.IsMintable(canon) {
		b.WriteString("a command step may establish it from its exit status\n\n")
	} else {
		b.WriteString("a command step establishes it only through `record:`\n\n")
	}
	var facts []string
	for _, f := range vocab.FactPatterns {
		if f.Kind == canon {
			facts = append(facts, f.Pattern)
		}
	}
	if len(facts) > 0 {
		fmt.Fprintf(&b, "facts: %s", codeList(facts))
	}
	return strings.TrimRight(b.String(), "\n")
}

func describeVerifier(v string) string {
	if !vocab.IsNamedVerifier(v) {
		return fmt.Sprintf("**`%s`**: an external tool (not a named verifier class); what it establishes is the protocol's business", v)
	}
	kinds := vocab.KindsEstablishedBy(v)
	if len(kinds) == 0 {
		return fmt.Sprintf("**verifier `%s`**: establishes no evidence kind by default", v)
	}
	return fmt.Sprintf("**verifier `%s`**\n\nestablishes %s", v, codeList(kinds))
}

// describeGoverning tells a principle's, profile's or protocol's title,
// summary and file.
func (v *view) describeGoverning(sub subject) string {
	file, h, _ := v.governing(sub)
	if file == "" {
		return fmt.Sprintf("%s `%s`: not in the tree", kindWord(sub.kind), sub.ref)
	}
	return fmt.Sprintf("**%s `%s`** version %d — %s%s\n\n`%s`", kindWord(sub.kind), h.id, h.version, h.title, summary(h.summary), v.rel(file))
}

// header is what a hover tells of a governing document.
type header struct {
	id      string
	version uint32
	title   string
	summary *string
}

// governing finds the document a principle, profile or protocol reference
// names in the tree: its file, header and position.
func (v *view) governing(sub subject) (string, header, diag.Pos) {
	if v.tree == nil {
		return "", header{}, diag.Pos{}
	}
	switch sub.kind {
	case subjectPrinciple:
		if p := v.tree.Principles[sub.ref.ID]; p != nil && sub.ref.Accepts(p.Version) {
			return p.File, header{p.ID, p.Version, p.Title, p.Summary}, p.Pos
		}
	case subjectProfile:
		if p := v.tree.Profiles[sub.ref.ID]; p != nil {
			return p.File, header{p.ID, p.Version, p.Title, p.Summary}, p.Pos
		}
	case subjectProtocol:
		if p := v.tree.Protocols[sub.ref]; p != nil {
			return p.File, header{p.ID, p.Version, p.Title, p.Summary}, p.Pos
		}
	}
	return "", header{}, diag.Pos{}
}

func kindWord(k subjectKind) string {
	switch k {
	case subjectPrinciple:
		return "principle"
	case subjectProfile:
		return "profile"
	case subjectProtocol:
		return "protocol"
	}
	return "document"
}

func (s *server) definition(_ *glsp.Context, p *lsp.DefinitionParams) (any, error) {
	v := s.view(p.TextDocument.URI)
	if v == nil {
		return nil, nil
	}
	sub := v.subjectAt(v.src.tx.offsetAt(p.Position))
	switch sub.kind {
	case subjectState:
		if sub.workflow == nil || sub.workflow.States[sub.name] == nil {
			return nil, nil
		}
		file := sub.workflow.File
		if v.kind == tree.KindWorkflow {
			file = v.path // the buffer's own state key
		}
		return v.location(file, sub.workflow.States[sub.name].Pos), nil
	case subjectWorkflow:
		if w := v.treeWorkflow(sub.ref); w != nil {
			return v.location(w.File, w.Pos), nil
		}
	case subjectPrinciple, subjectProfile, subjectProtocol:
		if file, _, pos := v.governing(sub); file != "" {
			return v.location(file, pos), nil
		}
	}
	return nil, nil
}
