package lsp

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// converter turns aepflow diagnostics into LSP ones for the files of one
// tree (or lone documents), parsing each file's text once.
type converter struct {
	sources diag.Sources
	kinds   map[string]tree.Kind
	parsed  map[string]*source
}

func newConverter(sources diag.Sources, kinds map[string]tree.Kind) *converter {
	return &converter{sources: sources, kinds: kinds, parsed: map[string]*source{}}
}

func (c *converter) source(file string) *source {
	if src, ok := c.parsed[file]; ok {
		return src
	}
	src := newSource(file, string(c.sources[file]))
	c.parsed[file] = src
	return src
}

// convertAll converts diagnostics that all name files of sources.
func convertAll(diags diag.List, sources diag.Sources, kinds map[string]tree.Kind) []protocol.Diagnostic {
	c := newConverter(sources, kinds)
	out := []protocol.Diagnostic{}
	for _, d := range diags {
		out = append(out, c.convert(d, d.File, d.Pos))
	}
	return out
}

// treeDiagnostics splits a tree's diagnostics by file and converts them.
// A diagnostic without a file (a cross-document problem, which aepflow
// reports by its document path) is placed on the document its path names,
// at the node it names; one whose path names no document of the tree is
// placed on every open document of the tree, so that nothing validate
// reports goes unseen.
func treeDiagnostics(ts *treeState, open map[string]bool) map[string][]protocol.Diagnostic {
	kinds := map[string]tree.Kind{}
	for _, f := range ts.tree.Files {
		kinds[f.Path] = f.Kind
	}
	c := newConverter(ts.tree.Sources, kinds)
	out := map[string][]protocol.Diagnostic{}
	for _, d := range ts.diags {
		file, pos := d.File, d.Pos
		if file == "" {
			file, pos = c.place(ts.tree, d.Path)
		} else if !pos.IsValid() && d.Path != "" {
			if _, p := c.place(ts.tree, d.Path); p.IsValid() {
				pos = p
			}
		}
		if file == "" {
			for _, p := range sortedKeys(open) {
				out[p] = append(out[p], c.convert(d, p, diag.Pos{}))
			}
			continue
		}
		out[file] = append(out[file], c.convert(d, file, pos))
	}
	return out
}

// place finds the file and position a document path names: its prefix
// (`driver-steps[<id>]`, `workflow <id>`, `profile <id>`, …) names a
// document of the tree, the rest a node in it. It returns "" when the
// prefix names no document.
func (c *converter) place(t *tree.Tree, path string) (string, diag.Pos) {
	file, rest := documentOf(t, path)
	if file == "" {
		return "", diag.Pos{}
	}
	src := c.source(file)
	if n := locate(src.root, rest); n != nil {
		return file, yamldoc.PosOf(n)
	}
	if src.root != nil {
		return file, yamldoc.PosOf(src.root)
	}
	return file, diag.Pos{Line: 1, Column: 1}
}

// documentOf splits a document path into the file of the document its
// prefix names and the rest of the path. Ids may hold dots and slashes,
// so the longest id of the tree that fits the prefix wins.
func documentOf(t *tree.Tree, path string) (string, string) {
	type family struct {
		prefixes []string // with the id in place of %s
		files    map[string]string
	}
	files := func(ids []string, file func(string) string) map[string]string {
		m := map[string]string{}
		for _, id := range ids {
			m[id] = file(id)
		}
		return m
	}
	var protocols []string
	protoFiles := map[string]string{}
	for _, r := range t.ProtocolRefs() {
		protocols = append(protocols, r.String())
		protoFiles[r.String()] = t.Protocols[r].File
	}
	families := []family{
		{[]string{"driver-steps[%s]", "step map %s"}, files(t.StepMapIDs(), func(id string) string { return t.StepMaps[id].File })},
		{[]string{"workflow %s", "workflows[%s]"}, files(t.WorkflowIDs(), func(id string) string { return t.Workflows[id].File })},
		{[]string{"profile %s", "profiles[%s]"}, files(t.ProfileIDs(), func(id string) string { return t.Profiles[id].File })},
		{[]string{"principle %s", "principles[%s]"}, files(t.PrincipleIDs(), func(id string) string { return t.Principles[id].File })},
		{[]string{"protocol %s", "protocols[%s]"}, protoFiles},
	}
	bestFile, bestRest, bestLen := "", "", -1
	for _, f := range families {
		for _, id := range sortedKeys(f.files) {
			for _, pattern := range f.prefixes {
				prefix := strings.Replace(pattern, "%s", id, 1)
				rest, ok := strings.CutPrefix(path, prefix)
				if ok && (rest == "" || rest[0] == '.' || rest[0] == '[') && len(prefix) > bestLen {
					bestFile, bestRest, bestLen = f.files[id], rest, len(prefix)
				}
			}
		}
	}
	return bestFile, bestRest
}

// convert makes the LSP diagnostic of d placed in file at pos.
func (c *converter) convert(d diag.Diagnostic, file string, pos diag.Pos) protocol.Diagnostic {
	src := c.source(file)
	start := src.tx.offsetOf(pos)
	end := start
	if d.End.IsValid() && d.End != pos {
		end = src.tx.offsetOf(d.End)
	} else if pos.IsValid() {
		end = c.tokenAt(src, start)
	}
	severity := protocol.DiagnosticSeverityError
	if d.Severity == diag.Warning {
		severity = protocol.DiagnosticSeverityWarning
	}
	source := "aepflow"
	message := d.Message
	if d.Hint != "" {
		message += "\nhint: " + d.Hint
	}
	if d.File == "" && d.Path != "" {
		message += "\n(at " + d.Path + ")"
	}
	out := protocol.Diagnostic{
		Range:    src.tx.rangeOf(start, end),
		Severity: &severity,
		Code:     &protocol.IntegerOrString{Value: d.Code},
		Source:   &source,
		Message:  message,
	}
	if href := docsURL(c.kinds[file], d.Code); href != "" {
		out.CodeDescription = &protocol.CodeDescription{HRef: href}
	}
	for _, r := range d.Related {
		rf := r.File
		if rf == "" {
			rf = file
		}
		rs := c.source(rf)
		off := rs.tx.offsetOf(r.Pos)
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: pathURI(rf), Range: rs.tx.rangeOf(off, c.tokenAt(rs, off))},
			Message:  r.Message,
		})
	}
	return out
}

// tokenAt returns the end of the scalar starting at off, or of the token
// there when no scalar starts at off.
func (c *converter) tokenAt(src *source, off int) int {
	if h := src.at(off); h != nil && h.start == off {
		return h.end
	}
	return tokenEnd(src.tx.s, off)
}

// fixesIn returns the fixes of the diagnostics of file whose range meets
// [start, end] (byte offsets into text).
func fixesIn(diags diag.List, file string, tx *text, start, end int) []diag.Fix {
	var out []diag.Fix
	for _, d := range diags {
		if d.File != file || len(d.Fixes) == 0 {
			continue
		}
		ds := tx.offsetOf(d.Pos)
		de := ds
		if d.End.IsValid() {
			de = tx.offsetOf(d.End)
		}
		de = max(de, tokenEnd(tx.s, ds))
		if ds <= end && start <= de {
			for _, f := range d.Fixes {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}
