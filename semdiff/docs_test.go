package semdiff

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/tree"
)

// TestDocsExample runs the example of docs/diff.md: its two YAML blocks
// compared must print exactly its text and Markdown blocks, and the JSON
// block must be the JSON output (compared as values, since the page lays it
// out by hand).
func TestDocsExample(t *testing.T) {
	src, err := os.ReadFile("../docs/diff.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(src), "<!-- example -->")
	if !ok {
		t.Fatal("docs/diff.md has no <!-- example -->")
	}
	blocks := fencedBlocks(example)
	if len(blocks["yaml"]) != 2 || len(blocks["text"]) != 1 || len(blocks["markdown"]) != 1 || len(blocks["json"]) < 1 {
		t.Fatalf("want two yaml blocks, a text, a markdown and a json block; got %v", blocks)
	}
	var docs [2]*tree.Document
	for i, name := range []string{"old.yaml", "new.yaml"} {
		d, ds := tree.LoadDocument(name, []byte(blocks["yaml"][i]), "")
		if d == nil || ds.HasErrors() {
			t.Fatalf("%s: %v", name, ds)
		}
		docs[i] = d
	}
	r := Single(Workflows(docs[0].Workflow, docs[1].Workflow))
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	if b.String() != blocks["text"][0] {
		t.Errorf("text:\n%s\nthe page says:\n%s", b.String(), blocks["text"][0])
	}
	b.Reset()
	if err := WriteMarkdown(&b, r); err != nil {
		t.Fatal(err)
	}
	if b.String() != blocks["markdown"][0] {
		t.Errorf("markdown:\n%s\nthe page says:\n%s", b.String(), blocks["markdown"][0])
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(blocks["json"][0]), &want); err != nil {
		t.Fatalf("the page's JSON: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("json:\n%s\nthe page says:\n%s", b.String(), blocks["json"][0])
	}
}

// fencedBlocks returns the bodies of the fenced blocks of s by language.
func fencedBlocks(s string) map[string][]string {
	out := map[string][]string{}
	for {
		_, rest, ok := strings.Cut(s, "```")
		if !ok {
			return out
		}
		lang, rest, _ := strings.Cut(rest, "\n")
		body, after, ok := strings.Cut(rest, "\n```\n")
		if !ok {
			return out
		}
		out[lang] = append(out[lang], body+"\n")
		s = after
	}
}
