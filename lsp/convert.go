package lsp

import (
	"maps"
	"slices"

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
	// prefixes maps each document path prefix the tree's documents have
	// (`driver-steps[<id>]`, `workflow <id>`, …) to the document's file;
	// built on first use.
	prefixes map[string]string
	longest  int
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
			for _, p := range slices.Sorted(maps.Keys(open)) {
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
	file, rest := c.documentOf(t, path)
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
// so the longest prefix that fits wins.
func (c *converter) documentOf(t *tree.Tree, path string) (string, string) {
	if c.prefixes == nil {
		c.prefixes = map[string]string{}
		add := func(file string, patterns ...string) {
			for _, p := range patterns {
				c.prefixes[p] = file
				c.longest = max(c.longest, len(p))
			}
		}
		for _, id := range t.StepMapIDs() {
			add(t.StepMaps[id].File, "driver-steps["+id+"]", "step map "+id)
		}
		for _, id := range t.WorkflowIDs() {
			add(t.Workflows[id].File, "workflow "+id, "workflows["+id+"]")
		}
		for _, id := range t.ProfileIDs() {
			add(t.Profiles[id].File, "profile "+id, "profiles["+id+"]")
		}
		for _, id := range t.PrincipleIDs() {
			add(t.Principles[id].File, "principle "+id, "principles["+id+"]")
		}
		for _, r := range t.ProtocolRefs() {
			add(t.Protocols[r].File, "protocol "+r.String(), "protocols["+r.String()+"]")
		}
	}
	for n := min(len(path), c.longest); n > 0; n-- {
		rest := path[n:]
		if file, ok := c.prefixes[path[:n]]; ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return file, rest
		}
	}
	return "", path
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
	if end, ok := src.scalarEnd(off); ok {
		return end
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
