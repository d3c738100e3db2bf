package flow

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaAcceptsWrittenDocuments validates the JSON form of every spec
// document, header included, against the strict schema.
func TestSchemaAcceptsWrittenDocuments(t *testing.T) {
	s := compileSchema(t)
	for name, d := range specDocuments() {
		var b bytes.Buffer
		if err := WriteJSON(&b, []string{"generated"}, d); err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestSchemaRefuses checks that the schema is strict where the checker is.
func TestSchemaRefuses(t *testing.T) {
	s := compileSchema(t)
	for name, src := range map[string]string{
		"root gives":    `{"id": "d", "root": {"id": "root", "gives": [], "nodes": [{"id": "a"}]}}`,
		"unknown key":   `{"id": "d", "version": 1, "root": {"id": "root", "nodes": [{"id": "a"}]}}`,
		"repeat zero":   `{"id": "d", "root": {"id": "root", "repeat": {"max": 0}, "nodes": [{"id": "a"}]}}`,
		"empty group":   `{"id": "d", "root": {"id": "root", "nodes": []}}`,
		"dotted id":     `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a.b"}]}}`,
		"bad kind":      `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"kind": "shell"}}]}}`,
		"no command":    `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"kind": "command"}}]}}`,
		"blank op":      `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"kind": "operator", "prompt": " "}}]}}`,
		"spaced scope":  `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"scope": ["a =allowed"]}}]}}`,
		"context up":    `{"id": "d", "root": {"id": "root", "nodes": [{"id": "a", "run": {"context": ["a/../b"]}}]}}`,
		"blank flow id": `{"id": " ", "root": {"id": "root", "nodes": [{"id": "a"}]}}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
