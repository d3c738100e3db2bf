package tree

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/yamldoc"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints diagnostics as the .out files hold them: Error(), the
// document path, the hint and related locations.
func render(l diag.List) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		b.WriteString(d.Error())
		if d.Path != "" && d.File != "" {
			b.WriteString(" @ " + d.Path)
		}
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
		for _, r := range d.Related {
			b.WriteString("  related: " + r.File + ": " + r.Message + "\n")
		}
	}
	return b.String()
}

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("diagnostics differ from %s\ngot:\n%s\nwant:\n%s", file, got, want)
	}
}

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
			golden(t, filepath.Join("testdata", e.Name()+".out"), render(diags))
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
