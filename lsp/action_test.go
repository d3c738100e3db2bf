package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// typoCheck is a tree check that carries a fix, as validate's did-you-mean
// diagnostics do: a transition whose `to` names no state gets the
// replacement by the one state that differs from it by a swap of two
// neighbouring letters.
func typoCheck(t *tree.Tree) diag.List {
	var out diag.List
	for _, id := range t.WorkflowIDs() {
		w := t.Workflows[id]
		for _, tr := range w.Transitions {
			if w.States[tr.To] != nil {
				continue
			}
			for _, s := range w.StateIDs() {
				if swapped(tr.To, s) {
					end := diag.Pos{Line: tr.ToPos.Line, Column: tr.ToPos.Column + len([]rune(tr.To))}
					out.Add(diag.Errorf("test_typo", "`%s` is no state", tr.To).At(w.File, tr.ToPos).
						WithFix(diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", tr.To, s), File: w.File, Span: diag.Span{Start: tr.ToPos, End: end}, NewText: s}))
				}
			}
		}
	}
	return out
}

func swapped(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	for i := 0; i+1 < len(a); i++ {
		if a[:i]+string(a[i+1])+string(a[i])+a[i+2:] == b {
			return true
		}
	}
	return false
}

// TestCodeActionAppliesAFix: a diagnostic that carries a fix becomes a
// quick fix whose edit, converted to UTF-16 columns past an astral
// character on the same line, replaces exactly the typo.
func TestCodeActionAppliesAFix(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	c := startServer(t, Options{Debounce: -1, TreeChecks: typoCheck})
	c.initialize(root)
	wf := c.open(wfPath)
	typo := strings.Replace(wf, "  - from: write\n    to: check\n", "  - {description: \"🚀𝄞\", from: write, to: chekc}\n", 1)
	c.change(wfPath, 2, typo)
	ds := c.diagnostics(pathURI(wfPath), func(ds []wireDiagnostic) bool {
		return strings.Contains(strings.Join(summaries(ds), "\n"), "test_typo")
	})
	var d wireDiagnostic
	for _, x := range ds {
		if x.Code == "test_typo" {
			d = x
		}
	}
	var actions []struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
		Edit  struct {
			Changes map[string][]protocol.TextEdit `json:"changes"`
		} `json:"edit"`
	}
	c.result("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": pathURI(wfPath)},
		"range":        d.Range,
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if len(actions) != 1 || actions[0].Title != "replace `chekc` with `check`" || actions[0].Kind != "quickfix" {
		t.Fatalf("actions: %+v", actions)
	}
	edits := actions[0].Edit.Changes[pathURI(wfPath)]
	if len(edits) != 1 {
		t.Fatalf("edits: %+v", actions[0].Edit.Changes)
	}
	tx := newText(typo)
	start, end := tx.offsetAt(edits[0].Range.Start), tx.offsetAt(edits[0].Range.End)
	if typo[start:end] != "chekc" || edits[0].NewText != "check" {
		t.Errorf("the edit replaces %q with %q", typo[start:end], edits[0].NewText)
	}
	if line := strings.Split(typo, "\n")[edits[0].Range.Start.Line]; !strings.HasPrefix(line, "  - {description: \"🚀𝄞\"") {
		t.Errorf("the edit is on line %q", line)
	}
	if want := len([]rune("  - {description: \"🚀𝄞\", from: write, to: ")) + 2; int(edits[0].Range.Start.Character) != want {
		t.Errorf("the edit starts at UTF-16 column %d, want %d (two astral characters)", edits[0].Range.Start.Character, want)
	}

	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}

// TestCodeActionsOfValidate: validate's own did-you-mean fixes — a typo'd
// `to:` in a workflow, and a step map's state key the workflow lacks,
// which is a cross-document problem — are offered as quick fixes whose
// edits replace exactly the typo.
func TestCodeActionsOfValidate(t *testing.T) {
	root := copyTree(t, "testdata/tree")
	wfPath := filepath.Join(root, "workflows", "demo", "review.yaml")
	mapPath := filepath.Join(root, "drivers", "review-steps.yaml")
	c := startServer(t, Options{Debounce: -1})
	c.initialize(root)
	cases := []struct {
		path, from, to, typo, want string
	}{
		{wfPath, "    to: check\n", "    to: chekc\n", "chekc", "check"},
		{mapPath, "  review:\n", "  reveiw:\n", "reveiw", "review"},
	}
	for _, tt := range cases {
		text := c.open(tt.path)
		typo := strings.Replace(text, tt.from, tt.to, 1)
		c.change(tt.path, 2, typo)
		ds := c.diagnostics(pathURI(tt.path), func(ds []wireDiagnostic) bool { return len(ds) > 0 })
		var actions []struct {
			Title string `json:"title"`
			Edit  struct {
				Changes map[string][]protocol.TextEdit `json:"changes"`
			} `json:"edit"`
		}
		c.result("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": pathURI(tt.path)}, "range": ds[0].Range,
			"context": map[string]any{"diagnostics": []any{}}}, &actions)
		if len(actions) != 1 || actions[0].Title != "replace `"+tt.typo+"` with `"+tt.want+"`" {
			t.Fatalf("%s: actions %+v for %v", filepath.Base(tt.path), actions, summaries(ds))
		}
		edits := actions[0].Edit.Changes[pathURI(tt.path)]
		tx := newText(typo)
		if len(edits) != 1 || typo[tx.offsetAt(edits[0].Range.Start):tx.offsetAt(edits[0].Range.End)] != tt.typo || edits[0].NewText != tt.want {
			t.Errorf("%s: edits %+v", filepath.Base(tt.path), edits)
		}
		c.change(tt.path, 3, text)
		c.diagnostics(pathURI(tt.path), func(ds []wireDiagnostic) bool { return len(ds) == 0 })
	}
	if err := c.exit(true); err != nil {
		t.Fatal(err)
	}
}
