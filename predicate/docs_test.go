package predicate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestDocsExamples checks every example of docs/predicates.md that is
// marked `<!-- example -->`: its YAML block must produce exactly the text
// block after it (the display, or the diagnostics for file when.yaml).
func TestDocsExamples(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "docs", "predicates.md"))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(src), "<!-- example -->")
	if len(parts) < 5 {
		t.Fatalf("found %d examples, want at least 4", len(parts)-1)
	}
	for i, part := range parts[1:] {
		in, ok1 := fenced(part, "```yaml\n")
		want, ok2 := fenced(part, "```text\n")
		if !ok1 || !ok2 {
			t.Errorf("example %d: missing yaml or text block", i+1)
			continue
		}
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(in), &doc); err != nil {
			t.Errorf("example %d: %v", i+1, err)
			continue
		}
		p, ds := Parse(&doc, "when.yaml", "when")
		var got []string
		for _, d := range ds.Sorted() {
			got = append(got, d.Error())
		}
		if p != nil {
			got = append(got, p.String())
		}
		if g := strings.Join(got, "\n") + "\n"; g != want {
			t.Errorf("example %d:\n%s\ngot:\n%s\nwant:\n%s", i+1, in, g, want)
		}
	}
}

// fenced returns the body of the first fenced block opened by open in s.
func fenced(s, open string) (string, bool) {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(rest, "```\n")
	return body, ok
}
