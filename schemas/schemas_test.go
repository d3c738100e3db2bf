package schemas

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"
)

// compile compiles the named schema.
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	data, ok := Get(name)
	if !ok {
		t.Fatalf("no schema %q", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".json")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// instance reads a YAML or JSON file as a JSON value, the way an editor's
// YAML language server sees it.
func instance(t *testing.T, file string) any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func glob(t *testing.T, patterns ...string) []string {
	t.Helper()
	var out []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

// TestOKFixturesValidate: every document the loaders accept, the schema
// accepts too.
func TestOKFixturesValidate(t *testing.T) {
	cases := map[string][]string{
		"driver-steps": glob(t, "../stepmap/testdata/ok/*", "../examples/tree/drivers/*/*.yaml"),
		"workflow":     glob(t, "../workflow/testdata/ok/*", "../examples/tree/workflows/*/*.yaml"),
		"protocol":     glob(t, "../protocol/testdata/protocol/ok/*", "../examples/tree/protocols/*/*.yaml"),
		"principle":    glob(t, "../protocol/testdata/principle/ok/*", "../examples/tree/principles/*.yaml"),
		"profile":      glob(t, "../protocol/testdata/profile/ok/*", "../examples/tree/profiles/*.yaml"),
		"lifecycle":    glob(t, "../protocol/testdata/lifecycle/ok/*", "../examples/tree/artifacts/lifecycles/*.yaml"),
	}
	for name, files := range cases {
		s := compile(t, name)
		if len(files) < 2 {
			t.Errorf("%s: too few fixtures: %v", name, files)
		}
		for _, f := range files {
			if err := s.Validate(instance(t, f)); err != nil {
				t.Errorf("%s against %s: %v", f, name, err)
			}
		}
	}
}

// TestShapeErrorsRefused: documents the loaders refuse for their shape,
// the schema refuses too.
func TestShapeErrorsRefused(t *testing.T) {
	cases := map[string][]string{
		"driver-steps": {"../stepmap/testdata/err/shape.yaml", "../stepmap/testdata/err/format.yaml", "../stepmap/testdata/err/unpinned.yaml", "../stepmap/testdata/err/not-a-mapping.yaml"},
		"protocol":     {"../protocol/testdata/protocol/err/shape.yaml", "../protocol/testdata/protocol/err/missing.yaml"},
		"principle":    {"../protocol/testdata/principle/err/shape.yaml", "../protocol/testdata/principle/err/conflicting-alias.yaml"},
		"profile":      {"../protocol/testdata/profile/err/shape.yaml", "../protocol/testdata/profile/err/missing-protocol.yaml"},
		"lifecycle":    {"../protocol/testdata/lifecycle/err/shape.yaml", "../protocol/testdata/lifecycle/err/no-kind.yaml"},
	}
	for name, files := range cases {
		s := compile(t, name)
		for _, f := range files {
			if err := s.Validate(instance(t, f)); err == nil {
				t.Errorf("%s: schema %s accepts a document the loader refuses", f, name)
			}
		}
	}
}

func TestNamesAndRegister(t *testing.T) {
	want := "driver-steps lifecycle principle profile protocol workflow"
	if got := strings.Join(Names(), " "); got != want {
		t.Errorf("Names() = %s", got)
	}
	Register("flow", []byte(`{"type": "object"}`))
	defer func() { mu.Lock(); delete(extra, "flow"); mu.Unlock() }()
	if b, ok := Get("flow"); !ok || string(b) != `{"type": "object"}` {
		t.Errorf("registered schema not found")
	}
	if !strings.Contains(strings.Join(Names(), " "), "flow") {
		t.Errorf("Names() misses a registered schema")
	}
}

// TestCorpusValidates checks the shared corpus tree against the schemas;
// it skips without ../shared.
func TestCorpusValidates(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "tree")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no shared corpus")
	}
	cases := map[string]string{
		"driver-steps": "drivers/*/*.yaml", "workflow": "workflows/*/*.yaml", "protocol": "protocols/*/*.yaml",
		"principle": "principles/*/*.yaml", "profile": "profiles/*.yaml", "lifecycle": "artifacts/lifecycles/*.yaml",
	}
	for name, pattern := range cases {
		s := compile(t, name)
		for _, f := range glob(t, filepath.Join(root, pattern)) {
			if err := s.Validate(instance(t, f)); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}
