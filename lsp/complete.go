package lsp

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/schemas"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/vocab"
	"github.com/tliron/glsp"
	lsp "github.com/tliron/glsp/protocol_3_16"
	yaml "go.yaml.in/yaml/v3"
)

var (
	// valueAfter matches a line that ends in `key: partial` (block or
	// flow style), capturing the key and the partial value.
	valueAfter = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[\s{,\-])([A-Za-z_][A-Za-z0-9_-]*):\s+(?:\[\s*)?([^\s:,\[\]{}]*)$`)
	})
	// keyStart matches a line on which a key is being typed.
	keyStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(-\s+)?([A-Za-z_][A-Za-z0-9_-]*)?$`) })
	// factTail matches the fact path being typed at the end of a guard.
	factTail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_.\-]*$`) })
)

// completion offers, at the cursor: state ids after `initial:`, `from:`,
// `to:` and as a step map's state keys; fact paths in `when:`; evidence
// kinds, verifier classes and step kinds in step maps; and the keys the
// embedded schema allows where a key is being typed.
func (s *server) completion(_ *glsp.Context, p *lsp.CompletionParams) (any, error) {
	v := s.view(p.TextDocument.URI)
	if v == nil {
		return lsp.CompletionList{Items: []lsp.CompletionItem{}}, nil
	}
	off := v.src.tx.offsetAt(p.Position)
	line := v.src.tx.lineBefore(off)
	path := keyPath(v.src.tx, off)
	items := v.complete(line, path)
	word := factTail().FindString(line)
	r := v.src.tx.rangeOf(off-len(word), off)
	for i := range items {
		if items[i].TextEdit == nil {
			text := items[i].Label
			if items[i].InsertText != nil {
				text = *items[i].InsertText
			}
			items[i].TextEdit = lsp.TextEdit{Range: r, NewText: text}
		}
	}
	return lsp.CompletionList{Items: items}, nil
}

func (v *view) complete(line string, path []string) []lsp.CompletionItem {
	if m := valueAfter().FindStringSubmatch(line); m != nil {
		return v.completeValue(m[1], path)
	}
	if strings.Contains(line, "when:") || slices.Contains(path, "when") {
		if v.kind == tree.KindWorkflow && !keyStart().MatchString(line) {
			return v.factItems()
		}
	}
	if keyStart().MatchString(line) {
		// keyPath counted a `- ` on the cursor's line as a sequence item.
		if v.kind == tree.KindProfile && v.tree != nil && len(path) == 2 && path[1] == "[]" &&
			slices.Contains([]string{"principles", "without_principles", "remove_principles"}, path[0]) {
			return plainItems(v.tree.PrincipleIDs(), lsp.CompletionItemKindReference, "principle")
		}
		if v.kind == tree.KindStepMap && pathIs(path, "states") {
			if w := v.pinned(); w != nil {
				return v.stateItems(w.StateIDs())
			}
			return []lsp.CompletionItem{}
		}
		if slices.Contains(path, "when") && v.kind == tree.KindWorkflow {
			return v.factItems()
		}
		return keyItems(v.kind, path)
	}
	return []lsp.CompletionItem{}
}

// completeValue offers the values of key at path.
func (v *view) completeValue(key string, path []string) []lsp.CompletionItem {
	switch {
	case v.kind == tree.KindWorkflow && (key == "initial" || key == "from" || key == "to"):
		return v.stateItems(v.bufferStates())
	case v.kind == tree.KindWorkflow && key == "when":
		return v.factItems()
	case v.kind == tree.KindStepMap && key == "kind" && slices.Contains(path, "evidence"):
		return plainItems(vocab.EvidenceKinds, lsp.CompletionItemKindEnumMember, "evidence kind")
	case v.kind == tree.KindStepMap && key == "kind":
		return plainItems([]string{"command", "llm", "operator"}, lsp.CompletionItemKindEnumMember, "step kind")
	case v.kind == tree.KindStepMap && key == "verifier":
		return plainItems(vocab.Verifiers, lsp.CompletionItemKindEnumMember, "verifier class")
	case v.kind == tree.KindStepMap && key == "suite":
		return plainItems(vocab.NamedSuites, lsp.CompletionItemKindEnumMember, "test suite")
	case v.kind == tree.KindProfile && key == "protocol" && v.tree != nil:
		var refs []string
		for _, r := range v.tree.ProtocolRefs() {
			refs = append(refs, r.String())
		}
		return plainItems(refs, lsp.CompletionItemKindReference, "protocol")
	case v.kind == tree.KindProfile && key == "extends" && v.tree != nil:
		return plainItems(v.tree.ProfileIDs(), lsp.CompletionItemKindReference, "profile")
	case v.kind == tree.KindProfile && key == "workflow" && v.tree != nil:
		return plainItems(v.tree.WorkflowIDs(), lsp.CompletionItemKindReference, "workflow")
	case v.kind == tree.KindStepMap && key == "workflow" && v.tree != nil:
		var refs []string
		for _, id := range v.tree.WorkflowIDs() {
			refs = append(refs, fmt.Sprintf("%s/%d", id, v.tree.Workflows[id].Version))
		}
		return plainItems(refs, lsp.CompletionItemKindReference, "workflow")
	}
	return []lsp.CompletionItem{}
}

// bufferStates returns the state ids the buffer declares, from its model
// when it decodes, else from the keys under `states`.
func (v *view) bufferStates() []string {
	if v.workflow != nil && len(v.workflow.States) > 0 {
		return v.workflow.StateIDs()
	}
	var ids []string
	if states := lookup(v.src.root, "states"); states != nil && states.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(states.Content); i += 2 {
			ids = append(ids, states.Content[i].Value)
		}
	} else if v.src.root == nil {
		ids = blockKeys(v.src.tx.s, "states") // mid-edit, the YAML may not parse
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// blockKeys reads, from the text alone, the keys of the block mapping
// under the top-level key `top:`: the lines indented by the first
// indentation found below it, up to the next top-level line. It is the
// fallback for a buffer whose YAML does not parse while it is typed.
func blockKeys(s, top string) []string {
	var keys []string
	in, indent := false, -1
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, "\r")
		body := strings.TrimLeft(line, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		li := len(line) - len(body)
		if li == 0 {
			in = strings.HasPrefix(line, top+":")
			continue
		}
		if !in {
			continue
		}
		if indent < 0 {
			indent = li
		}
		if li == indent {
			if k, _, ok := strings.Cut(body, ":"); ok && k != "" && !strings.ContainsAny(k, " {[") {
				keys = append(keys, strings.Trim(k, `"'`))
			}
		}
	}
	return keys
}

// stateItems makes completion items of state ids, with each state's
// description from the workflow that declares it.
func (v *view) stateItems(ids []string) []lsp.CompletionItem {
	w := v.workflow
	if v.kind == tree.KindStepMap {
		w = v.pinned()
	}
	items := []lsp.CompletionItem{}
	kind := lsp.CompletionItemKindEnumMember
	for _, id := range ids {
		it := lsp.CompletionItem{Label: id, Kind: &kind}
		if w != nil && w.States[id] != nil {
			detail := w.States[id].Title
			it.Detail = &detail
			it.Documentation = lsp.MarkupContent{Kind: lsp.MarkupKindMarkdown, Value: describeState(w, id)}
		}
		items = append(items, it)
	}
	return items
}

func plainItems(values []string, kind lsp.CompletionItemKind, what string) []lsp.CompletionItem {
	items := []lsp.CompletionItem{}
	for _, val := range values {
		detail := what
		items = append(items, lsp.CompletionItem{Label: val, Kind: &kind, Detail: &detail})
	}
	return items
}

// factItems offers fact paths: those the tree's workflows already read,
// then every pattern of vocab.FactPatterns with its placeholders filled
// from the tree's step maps (test suites) where it can; patterns left
// with a placeholder are offered as snippets when the client takes them.
func (v *view) factItems() []lsp.CompletionItem {
	seen := map[string]bool{}
	var used []string
	addPaths := func(paths []string) {
		for _, p := range paths {
			if !seen[p] {
				seen[p] = true
				used = append(used, p)
			}
		}
	}
	if v.workflow != nil {
		for _, t := range v.workflow.Transitions {
			addPaths(predicate.FactPaths(t.When))
		}
	}
	suites := []string{}
	if v.tree != nil {
		for _, id := range v.tree.WorkflowIDs() {
			for _, t := range v.tree.Workflows[id].Transitions {
				addPaths(predicate.FactPaths(t.When))
			}
		}
		for _, m := range v.tree.StepMapList() {
			for _, sid := range m.StateIDs() {
				for _, st := range m.States[sid].Steps {
					if st.Evidence != nil && st.Evidence.Suite != "" && !slices.Contains(suites, st.Evidence.Suite) {
						suites = append(suites, st.Evidence.Suite)
					}
				}
			}
		}
	}
	slices.Sort(used)
	slices.Sort(suites)
	if len(suites) == 0 {
		suites = []string{"unit"}
	}
	items := []lsp.CompletionItem{}
	kind := lsp.CompletionItemKindField
	for _, p := range used {
		detail := "fact read by the tree's workflows"
		items = append(items, lsp.CompletionItem{Label: p, Kind: &kind, Detail: &detail,
			Documentation: lsp.MarkupContent{Kind: lsp.MarkupKindMarkdown, Value: describeFact(p)}})
	}
	snippet := lsp.InsertTextFormatSnippet
	for _, f := range vocab.FactPatterns {
		for _, path := range expand(f.Pattern, suites) {
			if seen[path] {
				continue
			}
			seen[path] = true
			detail := "fact from `" + f.Kind + "` evidence"
			it := lsp.CompletionItem{Label: path, Kind: &kind, Detail: &detail}
			if strings.Contains(path, "<") {
				if !v.snippets {
					continue
				}
				text := toSnippet(path)
				it.InsertText, it.InsertTextFormat = &text, &snippet
			} else {
				it.Documentation = lsp.MarkupContent{Kind: lsp.MarkupKindMarkdown, Value: describeFact(path)}
			}
			items = append(items, it)
		}
	}
	return items
}

// expand fills a pattern's `<suite>` placeholder with each suite.
func expand(pattern string, suites []string) []string {
	if !strings.Contains(pattern, "<suite>") {
		return []string{pattern}
	}
	var out []string
	for _, s := range suites {
		out = append(out, strings.ReplaceAll(pattern, "<suite>", s))
	}
	return out
}

// toSnippet turns the placeholders of a pattern into snippet tab stops.
func toSnippet(pattern string) string {
	var b strings.Builder
	n := 0
	for {
		i := strings.IndexByte(pattern, '<')
		j := strings.IndexByte(pattern, '>')
		if i < 0 || j < i {
			b.WriteString(pattern)
			return b.String()
		}
		n++
		b.WriteString(pattern[:i])
		b.WriteString("${" + string(rune('0'+n%10)) + ":" + strings.TrimSuffix(pattern[i+1:j], "…") + "}")
		pattern = pattern[j+1:]
	}
}

// keyPath returns the keys that lead from the document's root to the
// mapping where the cursor's line sits, read from indentation (so it works
// while the YAML does not parse): `[]` marks a sequence item.
func keyPath(tx *text, off int) []string {
	line := tx.lineBefore(off)
	indent := len(line) - len(strings.TrimLeft(line, " "))
	rest := strings.TrimLeft(line, " ")
	var path []string
	if strings.HasPrefix(rest, "- ") || rest == "-" {
		path = append(path, "[]")
	}
	lines := strings.Split(tx.s[:max(0, off-len(line))], "\n")
	for i := len(lines) - 1; i >= 0 && indent > 0; i-- {
		l := strings.TrimRight(lines[i], "\r")
		body := strings.TrimLeft(l, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		li := len(l) - len(body)
		if li >= indent && !(strings.HasPrefix(body, "- ") && li < indent) {
			continue
		}
		if dash, ok := strings.CutPrefix(body, "- "); ok {
			inner := li + 2 + len(dash) - len(strings.TrimLeft(dash, " "))
			if inner < indent {
				if k := keyOf(strings.TrimLeft(dash, " ")); k != "" {
					path = append(path, k)
				}
			}
			path = append(path, "[]")
			indent = li
			continue
		}
		if k := keyOf(body); k != "" {
			path = append(path, k)
			indent = li
		}
	}
	slices.Reverse(path)
	return path
}

// keyOf returns the key a line opens (`key:` with nothing or a comment
// after it), or "".
func keyOf(body string) string {
	k, after, ok := strings.Cut(body, ":")
	if !ok || strings.ContainsAny(k, " {[\"'") {
		return ""
	}
	if after = strings.TrimSpace(after); after != "" && !strings.HasPrefix(after, "#") {
		return "" // `key: value`: a sibling, not a parent
	}
	return k
}

// schemaNames maps a document kind to its embedded schema's name.
var schemaNames = map[tree.Kind]string{
	tree.KindWorkflow: "workflow", tree.KindStepMap: "driver-steps", tree.KindProfile: "profile",
	tree.KindPrinciple: "principle", tree.KindProtocol: "protocol", tree.KindLifecycle: "lifecycle",
}

var (
	schemaOnce  sync.Once
	schemaCache map[string]map[string]any
)

// schemaOf returns the parsed embedded schema for a kind.
func schemaOf(kind tree.Kind) map[string]any {
	schemaOnce.Do(func() {
		schemaCache = map[string]map[string]any{}
		for _, name := range schemaNames {
			if data, ok := schemas.Get(name); ok {
				var s map[string]any
				if json.Unmarshal(data, &s) == nil {
					schemaCache[name] = s
				}
			}
		}
	})
	return schemaCache[schemaNames[kind]]
}

// keyItems offers the keys the kind's schema allows in the mapping at
// path.
func keyItems(kind tree.Kind, path []string) []lsp.CompletionItem {
	root := schemaOf(kind)
	items := []lsp.CompletionItem{}
	if root == nil {
		return items
	}
	nodes := []map[string]any{root}
	for _, step := range path {
		var next []map[string]any
		for _, n := range nodes {
			next = append(next, schemaStep(root, n, step)...)
		}
		nodes = next
	}
	var keys []string
	for _, n := range nodes {
		for _, alt := range alternatives(root, n, 0) {
			if props, ok := alt["properties"].(map[string]any); ok {
				for k := range props {
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
		}
	}
	slices.Sort(keys)
	ck := lsp.CompletionItemKindProperty
	for _, k := range keys {
		text := k + ": "
		items = append(items, lsp.CompletionItem{Label: k, Kind: &ck, InsertText: &text})
	}
	return items
}

// schemaStep returns the schemas below n for one path step: a property,
// the additional properties of a map, or the items of an array.
func schemaStep(root, n map[string]any, step string) []map[string]any {
	var out []map[string]any
	for _, alt := range alternatives(root, n, 0) {
		if step == "[]" {
			if items, ok := alt["items"].(map[string]any); ok {
				out = append(out, items)
			}
			continue
		}
		if props, ok := alt["properties"].(map[string]any); ok {
			if p, ok := props[step].(map[string]any); ok {
				out = append(out, p)
				continue
			}
		}
		if ap, ok := alt["additionalProperties"].(map[string]any); ok {
			out = append(out, ap)
		}
	}
	return out
}

// alternatives resolves $ref and flattens oneOf, anyOf and allOf.
func alternatives(root, n map[string]any, depth int) []map[string]any {
	if n == nil || depth > 16 {
		return nil
	}
	if ref, ok := n["$ref"].(string); ok {
		return alternatives(root, resolveRef(root, ref), depth+1)
	}
	out := []map[string]any{n}
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		if list, ok := n[key].([]any); ok {
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					out = append(out, alternatives(root, m, depth+1)...)
				}
			}
		}
	}
	return out
}

func resolveRef(root map[string]any, ref string) map[string]any {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil
	}
	defs, _ := root["$defs"].(map[string]any)
	m, _ := defs[name].(map[string]any)
	return m
}
