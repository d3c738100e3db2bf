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
		"driver-steps": glob(t, "../testdata/stepmap/ok/*", "../examples/tree/drivers/*/*.yaml"),
		"workflow":     glob(t, "../testdata/workflow/ok/*", "../examples/tree/workflows/*/*.yaml"),
		"protocol":     glob(t, "../testdata/protocol/protocol/ok/*", "../examples/tree/protocols/*/*.yaml"),
		"principle":    glob(t, "../testdata/protocol/principle/ok/*", "../examples/tree/principles/*.yaml"),
		"profile":      glob(t, "../testdata/protocol/profile/ok/*", "../examples/tree/profiles/*.yaml"),
		"lifecycle":    glob(t, "../testdata/protocol/lifecycle/ok/*", "../examples/tree/artifacts/lifecycles/*.yaml"),
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
		"driver-steps": {"../testdata/stepmap/err/shape.yaml", "../testdata/stepmap/err/format.yaml", "../testdata/stepmap/err/unpinned.yaml", "../testdata/stepmap/err/not-a-mapping.yaml"},
		"protocol":     {"../testdata/protocol/protocol/err/shape.yaml", "../testdata/protocol/protocol/err/missing.yaml"},
		"principle":    {"../testdata/protocol/principle/err/shape.yaml", "../testdata/protocol/principle/err/conflicting-alias.yaml"},
		"profile":      {"../testdata/protocol/profile/err/shape.yaml", "../testdata/protocol/profile/err/missing-protocol.yaml"},
		"lifecycle":    {"../testdata/protocol/lifecycle/err/shape.yaml", "../testdata/protocol/lifecycle/err/no-kind.yaml"},
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

func TestNames(t *testing.T) {
	want := "driver-steps flow lifecycle principle profile protocol workflow"
	if got := strings.Join(Names(), " "); got != want {
		t.Errorf("Names() = %s", got)
	}
	if b, ok := Get("flow"); !ok || !strings.Contains(string(b), "urn:flow-tooling:flow-document:1") {
		t.Errorf("the flow schema is not served from package flow")
	}
	if _, ok := Get("nope"); ok {
		t.Errorf("an unknown name was found")
	}
}

// The corpus tree is validated against these schemas, as `aepflow schema`
// prints them, in package conformance.
