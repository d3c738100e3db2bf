package tree

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// copyTree copies the fixture tree src into a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// sameAsLoad fails unless got (made by an edit) is what Load(root) returns
// now: the same diagnostics in the same order, files, sources and
// registries.
func sameAsLoad(t *testing.T, what string, got *Tree, gotDiags diag.List) {
	t.Helper()
	want, wantDiags := Load(got.Root)
	if !reflect.DeepEqual(gotDiags, wantDiags) {
		t.Errorf("%s: diagnostics differ from Load\n got:\n%s\nwant:\n%s", what, render(gotDiags), render(wantDiags))
	}
	if !reflect.DeepEqual(got.Files, want.Files) {
		t.Errorf("%s: files %v, Load reads %v", what, got.Files, want.Files)
	}
	if !maps.EqualFunc(got.Sources, want.Sources, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("%s: sources differ from Load", what)
	}
	keys := func(tr *Tree) string {
		return strings.Join([]string{
			strings.Join(tr.WorkflowIDs(), ","), strings.Join(tr.StepMapIDs(), ","),
			strings.Join(tr.PrincipleIDs(), ","), strings.Join(tr.ProfileIDs(), ","),
			strings.Join(tr.LifecycleKinds(), ","), strings.Join(refStrings(tr), ","),
		}, " | ")
	}
	if keys(got) != keys(want) {
		t.Errorf("%s: registry %s, Load has %s", what, keys(got), keys(want))
	}
	for id, w := range got.Workflows {
		if want.Workflows[id].File != w.File {
			t.Errorf("%s: workflow %s from %s, Load takes it from %s", what, id, w.File, want.Workflows[id].File)
		}
	}
}

func refStrings(tr *Tree) []string {
	var out []string
	for _, r := range tr.ProtocolRefs() {
		out = append(out, r.String())
	}
	return out
}

// edits are the changes TestWithFileIsLoad makes to each file: typical
// edits in an editor, a break of the syntax, and emptying it.
var edits = map[string]func(string) string{
	"typo":     func(s string) string { return strings.Replace(s, "title", "titel", 1) },
	"syntax":   func(s string) string { return s + "\n: [\n" },
	"empty":    func(string) string { return "" },
	"identity": func(s string) string { return strings.Replace(s, "id: ", "id: x", 1) },
	"state":    func(s string) string { return strings.Replace(s, "to: ", "to: nowhere-", 1) },
}

// TestWithFileIsLoad: replacing one file's bytes gives exactly what Load
// gives once those bytes are on disk, for every file of every fixture tree
// and every kind of edit; so does deleting it and adding a new one.
func TestWithFileIsLoad(t *testing.T) {
	roots := []string{"../examples/tree", "testdata/pins", "testdata/duplicates", "testdata/many", "testdata/misplaced", "testdata/walking"}
	for _, src := range roots {
		t.Run(filepath.Base(src), func(t *testing.T) {
			root := copyTree(t, src)
			base, _ := Load(root)
			for _, f := range base.Files {
				orig, err := os.ReadFile(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range slices.Sorted(maps.Keys(edits)) {
					data := []byte(edits[name](string(orig)))
					got, diags, ok := base.WithFile(f.Path, data)
					if !ok {
						t.Fatalf("%s is a file of the tree", f.Path)
					}
					if err := os.WriteFile(f.Path, data, 0o644); err != nil {
						t.Fatal(err)
					}
					sameAsLoad(t, name+" "+f.Path, got, diags)
					if err := os.WriteFile(f.Path, orig, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				got, diags := base.WithoutFile(f.Path)
				os.Rename(f.Path, f.Path+".gone")
				sameAsLoad(t, "delete "+f.Path, got, diags)
				if again, diags, ok := base.Reread(f.Path); !ok {
					t.Errorf("reread of a deleted %s refused", f.Path)
				} else {
					sameAsLoad(t, "reread deleted "+f.Path, again, diags)
				}
				os.Rename(f.Path+".gone", f.Path)
			}
			added := filepath.Join(root, "workflows", "0-new", "w.yaml")
			got, diags, ok := base.WithFile(added, []byte("id: new/w\ntitle: New\ninitial: a\nstates: {a: {title: A, terminal: true}}\n"))
			if !ok {
				t.Fatal("a new workflow file must be accepted")
			}
			os.MkdirAll(filepath.Dir(added), 0o755)
			os.WriteFile(added, []byte("id: new/w\ntitle: New\ninitial: a\nstates: {a: {title: A, terminal: true}}\n"), 0o644)
			sameAsLoad(t, "add", got, diags)
			if again, diags, _ := got.Reread(added); !reflect.DeepEqual(again.Files, got.Files) {
				t.Errorf("reread of an unchanged file changed the tree")
			} else {
				sameAsLoad(t, "reread", again, diags)
			}
		})
	}
}

// TestWithFileLeavesTheOldTree: an edit builds a new tree; the tree it
// started from still answers as before.
func TestWithFileLeavesTheOldTree(t *testing.T) {
	base, diags := Load("../examples/tree")
	if len(diags) != 0 {
		t.Fatal(render(diags))
	}
	var file string
	for _, f := range base.Files {
		if f.Kind == KindWorkflow {
			file = f.Path
		}
	}
	next, diags, ok := base.WithFile(file, []byte("id: [\n"))
	if !ok || !diags.HasErrors() || len(next.Workflows) != 0 {
		t.Fatalf("the broken workflow must leave the new tree: %v %v", ok, diags.Codes())
	}
	if len(base.Workflows) != 1 || strings.HasPrefix(string(base.Sources[file]), "id: [") {
		t.Error("the old tree changed")
	}
}

func TestRowOf(t *testing.T) {
	tr, _ := LoadKinds("/r", KindWorkflow, KindLifecycle, KindStepMap)
	tests := []struct {
		file string
		kind Kind
		ok   bool
	}{
		{"/r/workflows/a.yaml", KindWorkflow, true},
		{"/r/workflows/x/y/a.JSON", KindWorkflow, true},
		{"/r/artifacts/lifecycles/a.yml", KindLifecycle, true},
		{"/r/drivers/./a.yaml", KindStepMap, true},
		{"/r/workflows/README.md", KindWorkflow, false},
		{"/r/workflows/.archive/a.yaml", "", false},
		{"/r/workflows/.a.yaml", "", false},
		{"/r/workflows", "", false},
		{"/r/artifacts/kinds/a.yaml", "", false},
		{"/r/profiles/a.yaml", "", false}, // a row LoadKinds did not read
		{"/elsewhere/workflows/a.yaml", "", false},
		{"/r/../workflows/a.yaml", "", false},
	}
	for _, tt := range tests {
		kind, ok := tr.RowOf(tt.file)
		if ok != tt.ok || (ok && kind != tt.kind) {
			t.Errorf("RowOf(%s) = %q, %v; want %q, %v", tt.file, kind, ok, tt.kind, tt.ok)
		}
	}
	if _, _, ok := tr.WithFile("/r/workflows/notes.txt", nil); ok {
		t.Error("WithFile must refuse a file Load would not read")
	}
}

func BenchmarkWithFileCorpus(b *testing.B) {
	root := corpusTree(b)
	base, _ := Load(root)
	file := filepath.Join(root, "workflows", "development", "default.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags, ok := base.WithFile(file, data); !ok || len(diags) != 0 {
			b.Fatal(diags)
		}
	}
}

// TestWithFileOnLoadSources: a tree built from sources takes an edit as a
// tree read from disk does: the result is LoadSources of the edited set.
func TestWithFileOnLoadSources(t *testing.T) {
	base, _ := Load("../examples/tree")
	var sources []Source
	for _, f := range base.Files {
		sources = append(sources, Source{Path: f.Path, Kind: f.Kind, Data: base.Sources[f.Path]})
	}
	fromSources, _ := LoadSources(base.Root, sources)
	for i, s := range sources {
		edited := slices.Clone(sources)
		edited[i].Data = []byte(strings.Replace(string(s.Data), "title", "titel", 1))
		want, wantDiags := LoadSources(base.Root, edited)
		got, gotDiags, ok := fromSources.WithFile(s.Path, edited[i].Data)
		if !ok || !reflect.DeepEqual(gotDiags, wantDiags) || !reflect.DeepEqual(got.Files, want.Files) {
			t.Errorf("%s: WithFile on a LoadSources tree:\n%s\nwant:\n%s", s.Path, render(gotDiags), render(wantDiags))
		}
	}
}
