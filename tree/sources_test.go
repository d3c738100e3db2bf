package tree

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLoadSourcesMatchesLoad builds trees from the bytes of the fixture
// trees, handed over in reverse order, and expects what Load reads from
// disk: the same files in the same load order, the same diagnostics (so the
// same duplicate is the second), the same identities.
func TestLoadSourcesMatchesLoad(t *testing.T) {
	for _, dir := range []string{"testdata/duplicates", "testdata/walking", "../examples/tree"} {
		want, wantDiags := Load(dir)
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
