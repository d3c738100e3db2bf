package lsp

import (
	"path/filepath"
	"testing"
)

// TestLoneDocuments: a document in no tree is validated on its own only
// when its kind can be told; a YAML file that is not an AEP document (no
// kind to tell, an empty file among them) gets no diagnostic, however
// validate words its refusal (unknown_document_kind, or wrong_type for an
// empty file); one whose kind is told gets validate's.
func TestLoneDocuments(t *testing.T) {
	dir := t.TempDir()
	text := func(s string) *string { return &s }
	j := job{overlays: map[string]*string{
		filepath.Join(dir, "notes.yaml"):    text("id: x\ntitle: What am I?\n"),
		filepath.Join(dir, "empty.yaml"):    text(""),
		filepath.Join(dir, "comments.yaml"): text("# later\n"),
		filepath.Join(dir, "list.yaml"):     text("- a\n- b\n"),
		filepath.Join(dir, "broken.yaml"):   text("a: [\n"),
		filepath.Join(dir, "w.yaml"):        text("id: demo/w\ntitle: W\ninitial: a\nstates:\n  a: {title: A}\n"),
	}}
	_, singles := j.run()
	for name, want := range map[string]bool{
		"notes.yaml": false, "empty.yaml": false, "comments.yaml": false, "list.yaml": false,
		"broken.yaml": true, // a YAML syntax error is said whatever the kind
		"w.yaml":      true, // a workflow with a dead end
	} {
		one := singles[filepath.Join(dir, name)]
		if one == nil {
			t.Fatalf("%s: no result", name)
		}
		if got := len(one.diags) > 0; got != want {
			t.Errorf("%s: diagnostics %v, want some: %v", name, one.diags, want)
		}
	}
}
