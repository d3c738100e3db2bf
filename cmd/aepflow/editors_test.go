package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestEditors runs the scripts under testdata/editors: the editor
// integrations of editors/ and docs/lsp.md driven by the editors' own
// runtimes (node for the VS Code extension, a headless Neovim for its
// documented setup), each starting the real `aepflow lsp` (this test
// binary, as in TestScripts) and talking the protocol to it. A script
// skips itself when its runtime is not installed. $EDITORS is the
// repository's editors/ directory, $DOCS its docs/.
func TestEditors(t *testing.T) {
	editors, err := filepath.Abs(filepath.Join("..", "..", "editors"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/editors",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EDITORS", editors)
			env.Setenv("DOCS", docs)
			return nil
		},
	})
}
