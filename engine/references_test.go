package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/tree"
)

// TestCheckReferencesChains: a cycle of extends is reported at every
// profile in it; a missing base deeper in a chain is reported once, at the
// profile that names it, not at every profile that inherits it.
func TestCheckReferencesChains(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"protocols/p.yaml": "id: p\ntitle: P\n",
		"profiles/a.yaml":  "id: a\ntitle: A\nprotocol: p/1\nextends: b\n",
		"profiles/b.yaml":  "id: b\ntitle: B\nprotocol: p/1\nextends: a\n",
		"profiles/c.yaml":  "id: c\ntitle: C\nprotocol: p/1\nextends: d\n",
		"profiles/d.yaml":  "id: d\ntitle: D\nprotocol: p/1\nextends: gone\n",
		"profiles/e.yaml":  "id: e\ntitle: E\nprotocol: p/1\n",
	}
	for name, src := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tr, ds := tree.Load(root)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	got := map[string]string{}
	for _, d := range CheckReferences(tr) {
		if d.Code != CodeResolution || d.Pos.Line != 4 {
			t.Errorf("%v: want resolution_failed at the extends line", d)
		}
		got[filepath.Base(d.File)] = d.Message
	}
	want := map[string]string{
		"a.yaml": "levels deep (or in a cycle)",
		"b.yaml": "levels deep (or in a cycle)",
		"d.yaml": "profile `d` extends `gone`, which is not in the tree",
	}
	for file, msg := range want {
		if !strings.Contains(got[file], msg) {
			t.Errorf("%s: %q; want %q", file, got[file], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("reported %v; want only %v", got, want)
	}
}
