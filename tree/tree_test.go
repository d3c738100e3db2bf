package tree

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/yamldoc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints diagnostics as the .out files hold them: Error(), the
// document path, the hint and related locations.
var render = testkit.DetailedRelated

// TestTreeFixtures loads every mini tree under testdata and compares its
// diagnostics with testdata/<case>.out.
func TestTreeFixtures(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			_, diags := Load(filepath.Join("testdata", e.Name()))
			testkit.Golden(t, filepath.Join("testdata", e.Name()+".out"), []byte(render(diags)), *update)
		})
	}
}

func TestWalkingSkipsAndOrders(t *testing.T) {
	tr, diags := Load("testdata/walking")
	if len(diags) != 0 {
		t.Fatalf("dot entries, other folders and non-documents must be skipped:\n%s", render(diags))
	}
	if len(tr.Files) != 1 || tr.Files[0].Path != filepath.Join("testdata/walking", "workflows/nested/deeper/w.yaml") {
		t.Errorf("files = %+v", tr.Files)
	}
	tr, _ = Load("testdata/duplicates")
	var got []string
	for _, f := range tr.Files {
		got = append(got, strings.TrimPrefix(filepath.ToSlash(f.Path), "testdata/duplicates/"))
	}
	want := "protocols/a.yaml protocols/b.yaml protocols/c.yaml principles/a.yaml principles/b.json " +
		"workflows/x/one.yaml workflows/y/two.yml profiles/a.yaml profiles/b.yaml " +
		"artifacts/lifecycles/a.yaml artifacts/lifecycles/b.yaml drivers/a.yaml drivers/b.json.yaml"
	if strings.Join(got, " ") != want {
		t.Errorf("load order:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(tr.Protocols) != 2 {
		t.Errorf("protocols d/1 and d/2 are distinct identities: %v", tr.ProtocolRefs())
	}
}

func TestMissingRootLoadsEmpty(t *testing.T) {
	tr, diags := Load(filepath.Join(t.TempDir(), "nothing-here"))
	if len(diags) != 0 || len(tr.Files) != 0 {
		t.Fatalf("a missing directory is not an error: %v", diags)
	}
}

func TestExampleTreeIsClean(t *testing.T) {
	tr, diags := Load("../examples/tree")
	if len(diags) != 0 {
		t.Fatalf("examples/tree must validate clean:\n%s", render(diags))
	}
	if len(tr.Files) != 6 || tr.StepMaps["demo/review-steps"] == nil || tr.Workflows["demo/review"] == nil {
		t.Errorf("unexpected content: %+v", tr.Files)
	}
}

func TestWorkflowLookup(t *testing.T) {
	tr, _ := Load("testdata/pins")
	w, err := tr.Workflow(ident.Ref{ID: "demo/review"})
	if err != nil || w.Version != 2 {
		t.Fatalf("unpinned lookup: %v %v", w, err)
	}
	if _, err := tr.Workflow(ident.Ref{ID: "demo/review", Major: 2}); err != nil {
		t.Fatalf("pinned lookup: %v", err)
	}
	_, err = tr.Workflow(ident.Ref{ID: "demo/review", Major: 1})
	var d diag.Diagnostic
	if !errors.As(err, &d) || d.Code != CodeUnknownWorkflow ||
		d.Message != "no workflow `demo/review/1` in the tree at `testdata/pins` (it declares: demo/review)" ||
		d.Hint != "the tree holds `demo/review` at version 2; ask for `demo/review/2` or `demo/review`" {
		t.Errorf("other major: %#v", err)
	}
	empty, _ := Load(t.TempDir())
	_, err = empty.Workflow(ident.Ref{ID: "x"})
	if !errors.As(err, &d) || !strings.HasSuffix(d.Message, "(it declares: none)") || d.Hint != "" {
		t.Errorf("empty tree: %#v", err)
	}
}

// TestHugeFileRefusedUnread writes a sparse file far over the bound; the
// loader must refuse it from its size, quickly and without reading it.
func TestHugeFileRefusedUnread(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "workflows")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "huge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(150 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, diags := Load(root)
	if len(diags) != 1 || diags[0].Code != yamldoc.CodeTooLarge || !strings.Contains(diags[0].Message, "157286400 bytes, over the limit of 4194304 bytes") {
		t.Fatalf("got %v", diags)
	}
}

func TestDetectKind(t *testing.T) {
	tests := []struct {
		file, src string
		want      Kind
	}{
		{"x.yaml", "format: aep.driver-steps/1\n", KindStepMap},
		{"x.yaml", "id: w\ninitial: a\nstates: {}\n", KindWorkflow},
		{"x.yaml", "kind: note\n", KindLifecycle},
		{"x.yaml", "id: p\nphases: []\n", KindProtocol},
		{"x.yaml", "id: p\napplies_when: x\n", KindPrinciple},
		{"x.yaml", "id: p.q\nprotocol: p/1\n", KindProfile},
		{"t/principles/a/x.yaml", "id: p\ntitle: t\n", KindPrinciple},
		{"t/artifacts/lifecycles/x.yaml", "id: p\n", KindLifecycle},
		{"t/drivers/x.json", "{\"id\": \"p\"}", KindStepMap},
		{"elsewhere/x.yaml", "id: p\ntitle: t\n", ""},
	}
	for _, tt := range tests {
		doc, _ := yamldoc.Parse(tt.file, []byte(tt.src))
		if got := DetectKind(tt.file, doc.Root); got != tt.want {
			t.Errorf("DetectKind(%s, %q) = %q, want %q", tt.file, tt.src, got, tt.want)
		}
	}
}

// TestLoadKindsReadsOnlyItsRows: the rows asked for are read in Rows order
// whatever the argument order, the others are never walked (a broken step
// map under drivers/ goes unnoticed), and duplicates are still refused.
func TestLoadKindsReadsOnlyItsRows(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("drivers/broken.yaml", "format: [not, a, step, map\n")
	write("artifacts/lifecycles/broken.yaml", ": :\n")
	write("principles/a.yaml", "id: p\ntitle: P\ncapabilities: {deny: [secret.read]}\n")
	write("principles/b.yaml", "id: p\ntitle: P again\ncapabilities: {deny: [secret.read]}\n")
	write("protocols/p.yaml", "id: pr\ntitle: Pr\nphases: [work]\n")
	tr, diags := LoadKinds(root, KindPrinciple, KindProtocol)
	if got := diags.Codes(); len(got) != 1 || got[0] != DuplicateCode(KindPrinciple) {
		t.Fatalf("codes = %v, want only duplicate_principle:\n%s", got, render(diags))
	}
	var files []string
	for _, f := range tr.Files {
		files = append(files, strings.TrimPrefix(filepath.ToSlash(f.Path), filepath.ToSlash(root)+"/"))
	}
	if want := "protocols/p.yaml principles/a.yaml principles/b.yaml"; strings.Join(files, " ") != want {
		t.Errorf("files = %s, want %s", strings.Join(files, " "), want)
	}
	if len(tr.Protocols) != 1 || len(tr.Principles) != 1 || len(tr.StepMaps) != 0 || len(tr.Lifecycles) != 0 {
		t.Errorf("registry: %d protocols, %d principles, %d step maps, %d lifecycles", len(tr.Protocols), len(tr.Principles), len(tr.StepMaps), len(tr.Lifecycles))
	}
	if tr, diags := LoadKinds(root); len(tr.Files) != 0 || len(diags) != 0 {
		t.Errorf("no kinds must load nothing: %v, %v", tr.Files, diags)
	}
	_, all := Load(root)
	var broken []string
	for _, d := range all {
		if d.Code != DuplicateCode(KindPrinciple) {
			broken = append(broken, filepath.Base(filepath.Dir(d.File)))
		}
	}
	if slices.Sort(broken); !slices.Contains(broken, "drivers") || !slices.Contains(broken, "lifecycles") {
		t.Errorf("Load must read every row; problems found in %v", broken)
	}
}

// TestAddDirChecksIdentityAcrossDirs: a directory added beside the tree
// shares the tree's registry, so an id the tree holds is a duplicate.
func TestAddDirChecksIdentityAcrossDirs(t *testing.T) {
	tr, diags := LoadKinds("testdata/duplicates", KindProfile)
	if len(tr.Profiles) != 1 || !slices.Contains(diags.Codes(), DuplicateCode(KindProfile)) {
		t.Fatalf("profiles = %v, codes = %v", tr.ProfileIDs(), diags.Codes())
	}
	extra := t.TempDir()
	if err := os.WriteFile(filepath.Join(extra, "a.yaml"), []byte("id: p\ntitle: Local\ncapabilities: {deny: [secret.read]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ds := tr.AddDir(extra, KindPrinciple); len(ds) != 0 || tr.Principles["p"] == nil {
		t.Fatalf("a new principle must register cleanly: %v", ds)
	}
	ds := tr.AddDir("testdata/duplicates/principles", KindPrinciple)
	if c := ds.Codes(); len(c) != 2 || c[0] != DuplicateCode(KindPrinciple) || c[1] != c[0] {
		t.Errorf("codes = %v, want duplicate_principle for a.yaml and b.json", c)
	}
	if tr.Principles["p"].Title != "Local" {
		t.Errorf("the first declaration must win, got %q", tr.Principles["p"].Title)
	}
}

// TestRequireDocuments: no document is empty_tree, with the nearby trees
// in the hint; a tree with any document (even a broken one) is not empty.
func TestRequireDocuments(t *testing.T) {
	dir := t.TempDir()
	w := filepath.Join(dir, "tree", "workflows")
	if err := os.MkdirAll(w, 0o755); err != nil {
		t.Fatal(err)
	}
	tr, _ := Load(w)
	ds := tr.RequireDocuments()
	if len(ds) != 1 || ds[0].Code != CodeEmptyTree || ds[0].Hint != "give as the root the directory that holds protocols/, workflows/, drivers/ and the others" {
		t.Fatalf("no tree anywhere: %v", ds)
	}
	if err := os.WriteFile(filepath.Join(w, "broken.yaml"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, _ = Load(w)
	ds = tr.RequireDocuments()
	want := "`" + filepath.Join(w, "..") + "` holds a document tree; give it as the root (--root " + filepath.Join(w, "..") + ")"
	if len(ds) != 1 || ds[0].Hint != want {
		t.Fatalf("one level too deep: %v; want the hint %q", ds, want)
	}
	tr, _ = Load(filepath.Join(w, ".."))
	if ds := tr.RequireDocuments(); len(ds) != 0 {
		t.Errorf("a tree with a (broken) document is not empty: %v", ds)
	}
}

// TestUnknownPinOffersTheFix: a step map pinned to a misspelt workflow id
// gets an edit that rewrites the pin, keeping its major.
func TestUnknownPinOffersTheFix(t *testing.T) {
	_, diags := Load("testdata/broken")
	for _, d := range diags {
		if d.Code != CodeUnknownWorkflow {
			continue
		}
		want := diag.Fix{Title: "replace `demo/reveiw/1` with `demo/review/1`", File: filepath.Join("testdata/broken", "drivers/typo.yaml"),
			Span: diag.Span{Start: diag.Pos{Line: 3, Column: 11}, End: diag.Pos{Line: 3, Column: 24}}, NewText: "demo/review/1"}
		if len(d.Fixes) != 1 || d.Fixes[0] != want {
			t.Errorf("fixes = %+v, want %+v", d.Fixes, want)
		}
		return
	}
	t.Fatal("no unknown_workflow reported")
}
