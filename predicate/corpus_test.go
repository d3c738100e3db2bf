package predicate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testshared"

	"go.yaml.in/yaml/v3"
)

// corpusTree returns the shared corpus tree, or skips the test where it is
// absent.
func corpusTree(t *testing.T) string { return testshared.Corpus(t, "tree") }

// TestCorpusPredicates parses every `when`, `applies_when` and
// `predicates` item of the real document tree: all must parse, and a few
// must display exactly as the engine prints them.
func TestCorpusPredicates(t *testing.T) {
	tree := corpusTree(t)
	var displays []string
	err := filepath.WalkDir(tree, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		rel, _ := filepath.Rel(tree, path)
		visit(&doc, func(key string, n *yaml.Node) {
			items := []*yaml.Node{n}
			if key == "predicates" && n.Kind == yaml.SequenceNode {
				items = n.Content
			}
			for _, it := range items {
				p, ds := Parse(it, rel, key)
				if len(ds) > 0 {
					t.Errorf("%s: %v", rel, ds)
					continue
				}
				displays = append(displays, p.String())
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"specification.declines_the_request",
		"test.first_result == failed",
		"evidence.missing == 0",
		"(tests.unit.failed == 0 and tests.contract.failed == 0 and static_analysis.errors == 0)",
		"(tests.unit.failed > 0 or tests.contract.failed > 0 or static_analysis.errors > 0)",
		"task.kind in [feature, bugfix]",
		"task.kind not in [incident]",
		"defined(deployment.revision)",
	} {
		if !slices.Contains(displays, want) {
			t.Errorf("no corpus predicate displays as %q", want)
		}
	}
	if len(displays) < 20 {
		t.Errorf("only %d predicates found in the corpus", len(displays))
	}
}

// visit calls f for the value of every `when`, `applies_when` and
// `predicates` key below n.
func visit(n *yaml.Node, f func(key string, value *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i].Value; k {
			case "when", "applies_when", "predicates":
				f(k, n.Content[i+1])
				continue
			}
			visit(n.Content[i+1], f)
		}
		return
	}
	for _, c := range n.Content {
		visit(c, f)
	}
}
