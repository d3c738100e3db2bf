package lsp

import (
	"fmt"
	"strconv"

	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
	"github.com/tliron/glsp"
	lsp "github.com/tliron/glsp/protocol_3_16"
	yaml "go.yaml.in/yaml/v3"
)

// documentSymbol lists a workflow's states, each with its moves out as
// children, and a step map's states, each with its steps. Names and
// details come from the models; ranges from the nodes of the buffer.
func (s *server) documentSymbol(_ *glsp.Context, p *lsp.DocumentSymbolParams) (any, error) {
	v := s.view(p.TextDocument.URI)
	if v == nil || v.src.root == nil {
		return []lsp.DocumentSymbol{}, nil
	}
	switch v.kind {
	case tree.KindWorkflow:
		return v.workflowSymbols(), nil
	case tree.KindStepMap:
		return v.stepMapSymbols(), nil
	}
	return []lsp.DocumentSymbol{}, nil
}

// symbol makes a symbol whose range runs from key's line to the end of
// value's subtree and whose selection is the key.
func (v *view) symbol(name, detail string, kind lsp.SymbolKind, key, value *yaml.Node) lsp.DocumentSymbol {
	ks, ke := v.src.extent(key)
	end := v.endOf(value, ke)
	if name == "" {
		name = "(empty)"
	}
	sym := lsp.DocumentSymbol{Name: name, Kind: kind, Range: v.src.tx.rangeOf(ks, end), SelectionRange: v.src.tx.rangeOf(ks, ke)}
	if detail != "" {
		sym.Detail = &detail
	}
	return sym
}

// endOf returns the end offset of n's subtree (at least floor).
func (v *view) endOf(n *yaml.Node, floor int) int {
	end := floor
	v.src.eachScalar(n, func(_, e int) { end = max(end, e) })
	return end
}

func (v *view) workflowSymbols() []lsp.DocumentSymbol {
	states := lookup(v.src.root, "states")
	out := []lsp.DocumentSymbol{}
	if states == nil || states.Kind != yaml.MappingNode {
		return out
	}
	// The moves out of each state, found in one pass over the transitions:
	// looking them up per state would cost states × transitions, minutes
	// for a document of tens of thousands of each.
	type move struct {
		i     int // the transition's index
		t, to *yaml.Node
	}
	movesOut := map[string][]move{}
	if transitions := lookup(v.src.root, "transitions"); transitions != nil && transitions.Kind == yaml.SequenceNode {
		for i, t := range transitions.Content {
			if from, to := lookup(t, "from"), lookup(t, "to"); from != nil && to != nil {
				movesOut[from.Value] = append(movesOut[from.Value], move{i, t, to})
			}
		}
	}
	for i := 0; i+1 < len(states.Content); i += 2 {
		k, val := states.Content[i], states.Content[i+1]
		detail := ""
		if v.workflow != nil {
			if st := v.workflow.States[k.Value]; st != nil {
				detail = st.Title
				if st.Terminal {
					detail += " (terminal)"
				}
			}
		}
		sym := v.symbol(k.Value, detail, lsp.SymbolKindClass, k, val)
		for _, m := range movesOut[k.Value] {
			guard := ""
			if v.workflow != nil && m.i < len(v.workflow.Transitions) && v.workflow.Transitions[m.i].Guarded() {
				guard = fmt.Sprintf("when %s", v.workflow.Transitions[m.i].When)
			}
			child := v.symbol("→ "+m.to.Value, guard, lsp.SymbolKindEvent, m.to, m.t)
			child.Range = v.src.tx.rangeOf(v.src.tx.offsetOf(yamldoc.PosOf(m.t)), v.endOf(m.t, 0))
			if !contains(child.Range, child.SelectionRange) {
				child.SelectionRange = child.Range
			}
			sym.Children = append(sym.Children, child)
		}
		out = append(out, sym)
	}
	return out
}

func (v *view) stepMapSymbols() []lsp.DocumentSymbol {
	states := lookup(v.src.root, "states")
	out := []lsp.DocumentSymbol{}
	if states == nil || states.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(states.Content); i += 2 {
		k, val := states.Content[i], states.Content[i+1]
		sym := v.symbol(k.Value, "", lsp.SymbolKindClass, k, val)
		steps := lookup(val, "steps")
		if steps != nil && steps.Kind == yaml.SequenceNode {
			for j, st := range steps.Content {
				name := "step " + strconv.Itoa(j+1)
				detail := ""
				if v.stepMap != nil {
					if ss := v.stepMap.States[k.Value]; ss != nil && j < len(ss.Steps) {
						detail = string(ss.Steps[j].Kind)
						name = ss.Steps[j].Label()
					}
				}
				start := v.src.tx.offsetOf(yamldoc.PosOf(st))
				end := v.endOf(st, start)
				child := lsp.DocumentSymbol{Name: firstLine(name), Kind: lsp.SymbolKindFunction,
					Range: v.src.tx.rangeOf(start, end), SelectionRange: v.src.tx.rangeOf(start, end)}
				if detail != "" {
					child.Detail = &detail
				}
				sym.Children = append(sym.Children, child)
			}
		}
		out = append(out, sym)
	}
	return out
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			return s[:i] + "…"
		}
	}
	if s == "" {
		return "(empty)"
	}
	return s
}

func contains(outer, inner lsp.Range) bool {
	before := func(a, b lsp.Position) bool {
		return a.Line < b.Line || (a.Line == b.Line && a.Character <= b.Character)
	}
	return before(outer.Start, inner.Start) && before(inner.End, outer.End)
}

// codeAction offers the fixes (did-you-mean replacements and the like)
// that validate's diagnostics carry, for the diagnostics under the range.
// A fix is offered only while the buffer holds the bytes it was computed
// from; after an edit the next validation brings it back.
func (s *server) codeAction(_ *glsp.Context, p *lsp.CodeActionParams) (any, error) {
	v := s.view(p.TextDocument.URI)
	out := []lsp.CodeAction{}
	if v == nil {
		return out, nil
	}
	validated := v.validatedText()
	if validated == nil || *validated != v.src.tx.s {
		return out, nil
	}
	start, end := v.src.tx.offsetAt(p.Range.Start), v.src.tx.offsetAt(p.Range.End)
	kind := lsp.CodeActionKindQuickFix
	for _, f := range fixesIn(v.diags, v.diagFile(), v.src.tx, start, end) {
		file := f.File
		if file == "" {
			file = v.path
		}
		tx := v.src.tx
		if file != v.path && v.tree != nil {
			tx = newText(string(v.tree.Sources[file]))
		}
		edit := lsp.TextEdit{Range: tx.rangeOf(tx.offsetOf(f.Span.Start), tx.offsetOf(f.Span.End)), NewText: f.NewText}
		out = append(out, lsp.CodeAction{
			Title: f.Title,
			Kind:  &kind,
			Edit:  &lsp.WorkspaceEdit{Changes: map[lsp.DocumentUri][]lsp.TextEdit{pathURI(file): {edit}}},
		})
	}
	return out, nil
}

// validatedText returns the bytes the view's diagnostics were computed
// from for this document, or nil.
func (v *view) validatedText() *string {
	if v.tree != nil {
		if b, ok := v.tree.Sources[v.diagFile()]; ok {
			s := string(b)
			return &s
		}
		return nil
	}
	return v.validated
}

// diagFile is the document's name as its diagnostics spell it.
func (v *view) diagFile() string {
	if v.tree != nil {
		for _, f := range v.tree.Files {
			if f.Path == v.path {
				return f.Path
			}
		}
	}
	return v.path
}
