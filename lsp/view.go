package lsp

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
	lsp "github.com/tliron/glsp/protocol_3_16"
)

// view is what a request about one open document reads: the buffer as it
// is now, its kind, the tree it belongs to as last validated (nil while
// the first validation runs, or for a lone document), and the model of the
// buffer decoded as far as its shape allows — the same models validate
// uses, never a second reading of the YAML.
type view struct {
	path     string
	src      *source
	kind     tree.Kind
	tree     *tree.Tree
	diags    diag.List
	snippets bool
	// validated is the text a lone document's diagnostics were computed
	// from (a tree's are in its Sources).
	validated *string

	workflow *workflow.Workflow
	stepMap  *stepmap.Map
	profile  *protocol.Profile
}

// view returns the view of an open document, or nil.
func (s *server) view(uri string) *view {
	path, ok := uriPath(uri)
	if !ok {
		return nil
	}
	s.mu.Lock()
	d := s.ws.docs[path]
	if d == nil || d.dropped {
		s.mu.Unlock()
		return nil
	}
	v := &view{path: path, snippets: s.ws.snippets}
	text := d.text
	if ts := s.ws.trees[d.root]; ts != nil && d.root != "" {
		v.tree, v.diags = ts.tree, ts.diags
	} else if one, ok := s.ws.singles[path]; ok {
		text := one.text
		v.diags, v.validated = one.diags, &text
	}
	root := d.root
	s.mu.Unlock()
	v.src = newSource(path, text)
	if k, ok := tree.RowOf(root, path); ok && root != "" {
		v.kind = k
	} else if v.src.root != nil {
		v.kind = tree.DetectKind(path, v.src.root)
	}
	v.decode()
	return v
}

// decode reads the buffer's model as far as its shape allows; the
// diagnostics are validate's business, not the editor features'.
func (v *view) decode() {
	if v.src.doc == nil {
		return
	}
	var ignored diag.List
	switch v.kind {
	case tree.KindWorkflow:
		v.workflow = workflow.Decode(v.src.doc, &ignored)
	case tree.KindStepMap:
		v.stepMap = stepmap.Decode(v.src.doc, &ignored)
	case tree.KindProfile:
		v.profile = protocol.DecodeProfile(v.src.doc, &ignored)
	}
}

// pinned returns the workflow a step map buffer pins, from the tree; the
// pin is read from the text when the buffer does not parse mid-edit.
func (v *view) pinned() *workflow.Workflow {
	if v.tree == nil {
		return nil
	}
	var ref ident.Ref
	switch {
	case v.stepMap != nil:
		ref = v.stepMap.Workflow
	case v.src.root == nil:
		m := pinLine().FindStringSubmatch(v.src.tx.s)
		if m == nil {
			return nil
		}
		ref = refOf(ident.Dotted, strings.Trim(m[1], `"'`))
	default:
		return nil
	}
	w, err := v.tree.Workflow(ref)
	if err != nil {
		return nil
	}
	return w
}

// pinLine finds a step map's top-level `workflow:` pin in its text.
var pinLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^workflow:[ \t]*(\S+)`) })

// treeWorkflow returns the tree's workflow for a reference, or nil.
func (v *view) treeWorkflow(ref ident.Ref) *workflow.Workflow {
	if v.tree == nil {
		return nil
	}
	w, err := v.tree.Workflow(ref)
	if err != nil {
		return nil
	}
	return w
}

// location returns the LSP location of pos in a file of the tree (or the
// buffer itself), converted with that file's text.
func (v *view) location(file string, pos diag.Pos) lsp.Location {
	var tx *text
	switch {
	case filepath.Clean(file) == v.path:
		tx = v.src.tx
	case v.tree != nil:
		tx = newText(string(v.tree.Sources[file]))
	default:
		tx = newText("")
	}
	off := tx.offsetOf(pos)
	return lsp.Location{URI: pathURI(file), Range: tx.rangeOf(off, tokenEnd(tx.s, off))}
}

// rel names a file for a person: relative to the tree's root when it is
// below it.
func (v *view) rel(file string) string {
	if v.tree != nil {
		if r, err := filepath.Rel(v.tree.Root, file); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return file
}
