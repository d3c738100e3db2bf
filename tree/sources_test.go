package tree

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestLoadSourcesMatchesLoad builds trees from the bytes of the fixture
// trees, handed over in reverse order, and expects what Load reads from
// disk: the same files in the same load order, the same diagnostics (so the
// same duplicate is the second), the same sources and identities
// (sameAsLoad).
func TestLoadSourcesMatchesLoad(t *testing.T) {
	for _, dir := range []string{"testdata/duplicates", "testdata/walking", "../examples/tree"} {
		want, _ := Load(dir)
		var sources []Source
		for _, f := range want.Files {
			data, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			sources = append(sources, Source{Path: f.Path, Kind: f.Kind, Data: data})
		}
		slices.Reverse(sources)
		got, gotDiags := LoadSources(dir, sources)
		sameAsLoad(t, dir, got, gotDiags)
	}
}

func TestLoadSourcesRefusesOversizedAndCrossChecks(t *testing.T) {
	big := make([]byte, 4<<20+1)
	_, diags := LoadSources("r", []Source{
		{Path: filepath.Join("r", "workflows", "big.yaml"), Kind: KindWorkflow, Data: big},
		{Path: filepath.Join("r", "drivers", "m.yaml"), Kind: KindStepMap, Data: []byte("format: aep.driver-steps/1\nid: m\nworkflow: w/1\nstates: {a: {}}\n")},
	})
	codes := map[string]bool{}
	for _, d := range diags {
		codes[d.Code] = true
	}
	if !codes[CodeInputTooLarge] || !codes[CodeUnknownWorkflow] {
		t.Errorf("want input_too_large and unknown_workflow, got:\n%s", render(diags))
	}
}

func TestIsDocumentPath(t *testing.T) {
	for rel, want := range map[string]bool{
		"a.yaml": true, "x/y/b.yml": true, "c.JSON": true, "d.yaml.txt": false, "README.md": false,
		".hidden.yaml": false, ".archive/a.yaml": false, "x/.git/a.yaml": false, "": false, "x//a.yaml": false,
	} {
		if got := IsDocumentPath(rel); got != want {
			t.Errorf("IsDocumentPath(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestNonRegularFilesRefused puts a named pipe with a document's name into
// a tree: it is refused with io_error, never waited on. (A directory with a
// document's name is walked into, not read.)
func TestNonRegularFilesRefused(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "workflows")
	if err := os.MkdirAll(filepath.Join(dir, "dir.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	_, diags := Load(root)
	var got []string
	for _, d := range diags {
		got = append(got, d.Code+": "+d.Message)
	}
	want := []string{"io_error: cannot read the file: it is a named pipe, not a regular file"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestNoSourcesLoadsAlike loads every fixture tree with and without
// Options.NoSources: the same files in the same order, the same
// diagnostics (their positions come from the parse, not the kept bytes;
// the printer used here shows no spans or fixes, which need the bytes),
// the same identities; only Sources differs, empty with the option. A tree
// WithFile builds from it keeps no bytes either.
func TestNoSourcesLoadsAlike(t *testing.T) {
	dirs := []string{"../examples/tree"}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join("testdata", e.Name()))
		}
	}
	for _, dir := range dirs {
		want, wantDiags := Load(dir)
		got, gotDiags := LoadKindsWith(dir, Options{NoSources: true}, Kinds...)
		if render(gotDiags) != render(wantDiags) {
			t.Errorf("%s: diagnostics differ:\n got %s\nwant %s", dir, render(gotDiags), render(wantDiags))
		}
		if !slices.Equal(got.Files, want.Files) {
			t.Errorf("%s: files\n got %v\nwant %v", dir, got.Files, want.Files)
		}
		if !slices.Equal(got.WorkflowIDs(), want.WorkflowIDs()) || !slices.Equal(got.StepMapIDs(), want.StepMapIDs()) ||
			!slices.Equal(got.ProtocolRefs(), want.ProtocolRefs()) || !slices.Equal(got.ProfileIDs(), want.ProfileIDs()) {
			t.Errorf("%s: identities differ", dir)
		}
		if len(want.Files) > 0 && len(want.Sources) == 0 {
			t.Errorf("%s: a load without the option kept no sources", dir)
		}
		if len(got.Sources) != 0 {
			t.Errorf("%s: a load with NoSources kept the bytes of %d files", dir, len(got.Sources))
		}
		if len(got.Files) == 0 {
			continue
		}
		f := got.Files[0]
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		next, _, ok := got.WithFile(f.Path, data)
		if !ok || len(next.Sources) != 0 {
			t.Errorf("%s: WithFile on a NoSources tree: ok %v, %d sources kept", dir, ok, len(next.Sources))
		}
	}
}
