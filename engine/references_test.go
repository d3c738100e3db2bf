package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// FuzzCheckReferences resolves the references of any profile and any
// protocol beside a small fixed tree: nothing panics, every diagnostic is
// resolution_failed, blames one of the two fuzzed files, and its position
// lies inside that file. Seeds: the dangling shapes of issue 10.
func FuzzCheckReferences(f *testing.F) {
	for _, s := range [][2]string{
		{"id: pr\ntitle: P\nprotocol: base/1\nworkflow: w\nprinciples: [p]\n", "id: child\ntitle: C\nextends: base/1\n"},
		{"id: pr\ntitle: P\nprotocol: gone/1\nworkflow: w/2\nextends: nowhere\nprinciples: [nope, p/2]\n", "id: child\ntitle: C\nextends: base/3\n"},
		{"id: pr\ntitle: P\nprotocol: child/1\nextends: pr\n", "id: child\ntitle: C\nextends: child/1\n"},
		{"", ""},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	fixed := []tree.Source{
		{Path: "protocols/base.yaml", Kind: tree.KindProtocol, Data: []byte("id: base\ntitle: B\nobservables: ['**']\n")},
		{Path: "principles/p.yaml", Kind: tree.KindPrinciple, Data: []byte("id: p\ntitle: P\nrequires:\n  before_completion:\n    predicates: [done]\n")},
		{Path: "workflows/w.yaml", Kind: tree.KindWorkflow, Data: []byte("id: w\ntitle: W\ninitial: a\nstates:\n  a: {title: A, terminal: true}\n")},
	}
	f.Fuzz(func(t *testing.T, profile, proto []byte) {
		if len(profile) > 1024 || len(proto) > 1024 {
			return
		}
		sources := append(slices.Clone(fixed),
			tree.Source{Path: "profiles/f.yaml", Kind: tree.KindProfile, Data: profile},
			tree.Source{Path: "protocols/f.yaml", Kind: tree.KindProtocol, Data: proto})
		tr, _ := tree.LoadSources(".", sources)
		lines := map[string]int{"profiles/f.yaml": bytes.Count(profile, []byte("\n")) + 1, "protocols/f.yaml": bytes.Count(proto, []byte("\n")) + 1}
		for _, d := range CheckReferences(tr) {
			n, fuzzed := lines[d.File]
			if d.Code != CodeResolution || !fuzzed || d.Pos.Line < 1 || d.Pos.Line > n {
				t.Fatalf("bad diagnostic %v", d)
			}
		}
	})
}

// TestCheckReferencesOfUnsoundDocuments: a profile or a protocol with a
// shape error in one part still has the references that decoded resolved
// (a misspelt key no longer hides a dangling `workflow`), the references
// that did not decode are not blamed, and a reference to a document whose
// file failed to load is not reported again.
func TestCheckReferencesOfUnsoundDocuments(t *testing.T) {
	sources := []tree.Source{
		{Path: "protocols/base.yaml", Kind: tree.KindProtocol, Data: []byte("id: base\ntitle: B\n")},
		{Path: "protocols/child.yaml", Kind: tree.KindProtocol, Data: []byte("id: child\ntitle: C\nsumary: x\nextends: gone/1\n")},
		{Path: "workflows/broken.yaml", Kind: tree.KindWorkflow, Data: []byte("id: broken\ntitle: B\ninitial: a\nstates: [a]\n")},
		{Path: "profiles/a.yaml", Kind: tree.KindProfile, Data: []byte("id: a\ntitle: A\nprotocl: base/1\nworkflow: nowhere\nextends: b\nprinciples: [p]\n")},
		{Path: "profiles/b.yaml", Kind: tree.KindProfile, Data: []byte("id: b\ntitle: B\nprotocol: [base/1]\nworkflow: broken\n")},
	}
	tr, _ := tree.LoadSources(".", sources)
	var got []string
	for _, d := range CheckReferences(tr) {
		got = append(got, d.Error())
	}
	// Not reported: a's `extends: b` and b's `workflow: broken` (both files
	// failed to load), b's unreadable `protocol`, a's misspelt one.
	want := []string{
		"profiles/a.yaml:4:11: workflow `nowhere` of profile `a` is not in the tree [resolution_failed]",
		"profiles/a.yaml:6:14: principle `p` of profile `a` is not in the tree [resolution_failed]",
		"protocols/child.yaml:4:10: protocol `child/1` extends `gone/1`, which is not in the tree [resolution_failed]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
