package conformance

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"
)

func init() { register(schemaCases...) }

// schemaFiles are the documents of a tree each schema describes, as globs
// below the tree's root.
var schemaFiles = map[string]string{
	"driver-steps": "drivers/*/*.yaml", "workflow": "workflows/*/*.yaml", "protocol": "protocols/*/*.yaml",
	"principle": "principles/*/*.yaml", "profile": "profiles/*.yaml", "lifecycle": "artifacts/lifecycles/*.yaml",
}

var schemaCases = []Case{
	{Name: "schema/list", Steps: []Step{
		{Args: []string{"aepflow", "schema"}, Stdout: []string{`^driver-steps\nflow\nlifecycle\nprinciple\nprofile\nprotocol\nworkflow\n\z`}},
		{Args: []string{"aepflow", "schema", "nope"}, Exit: 2, NoStdout: true},
	}},
	// An editor checks the project's documents against the schemas
	// aepflow prints: they accept them (its lifecycle README is not YAML
	// and is left out).
	{Name: "schema/project-tree", Steps: []Step{
		{Args: []string{"aepflow", "schema", "workflow"}, Then: func(t *testing.T, e *Env, r Result) {
			validateAgainst(t, "workflow", r.Stdout, e.TestdataPath("project", "tree"), schemaFiles["workflow"])
		}},
		{Args: []string{"aepflow", "schema", "driver-steps"}, Then: func(t *testing.T, e *Env, r Result) {
			validateAgainst(t, "driver-steps", r.Stdout, e.TestdataPath("project", "tree"), schemaFiles["driver-steps"])
		}},
		{Args: []string{"aepflow", "schema", "profile"}, Then: func(t *testing.T, e *Env, r Result) {
			validateAgainst(t, "profile", r.Stdout, e.TestdataPath("project", "tree"), schemaFiles["profile"])
		}},
	}},
	// From schemas/schemas_test.go: the corpus tree against every schema,
	// each schema as `aepflow schema NAME` prints it.
	{Name: "schema/corpus-tree", Shared: true, Check: func(t *testing.T, e *Env) {
		for name, pattern := range schemaFiles {
			r := run(t, e, Step{Args: []string{"aepflow", "schema", name}})
			if r.Exit != 0 {
				t.Fatalf("aepflow schema %s: exit %d: %s", name, r.Exit, r.Stderr)
			}
			validateAgainst(t, name, r.Stdout, e.SharedPath("corpus", "tree"), pattern)
		}
	}},
}

// validateAgainst compiles schema (named name) and validates every file
// matching pattern below root against it, as an editor's YAML language
// server sees the file: as a JSON value. At least one file must match.
func validateAgainst(t *testing.T, name, schema, root, pattern string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
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
	files, err := filepath.Glob(filepath.Join(root, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no file matches %s below %s (%v)", name, pattern, root, err)
	}
	for _, f := range files {
		var v any
		if err := yaml.Unmarshal(readFile(t, f), &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("%s against %s: %v", f, name, err)
		}
	}
}
