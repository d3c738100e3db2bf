package predicate

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenFacts is the store every golden predicate is evaluated against.
var goldenFacts = MapFacts{
	"test.first_result":     Text("passed"),
	"tests.unit.failed":     Number(0),
	"tests.contract.failed": Number(2),
	"task.kind":             Text("feature"),
	"release.version":       Text("1.2.3"),
	"risk.level":            Text("high"),
	"review.approved":       Bool(false),
	"review.rejected":       Bool(true),
	"coverage.percent":      Number(80.5),
	"a":                     Text("two"),
	"b":                     Number(1),
	"B":                     Number(2),
}

// aepScales are the scales of protocol aep/1 (engine.md §2.3).
var aepScales = Scales{
	"risk":     {"low", "medium", "high", "critical"},
	"severity": {"info", "low", "medium", "high", "critical"},
	"health":   {"unhealthy", "degraded", "healthy"},
}

var marks = map[Truth]string{True: "✓", False: "✗", Unknown: "?"}

func TestGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "predicates.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for i := 1; ; i++ {
		var doc yaml.Node
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "--- document %d (line %d)\n", i, doc.Line)
		p, ds := Parse(&doc, "predicates.yaml", "when")
		for _, d := range ds.Sorted() {
			fmt.Fprintf(&out, "%s\n", d.Error())
		}
		if p == nil {
			continue
		}
		o := Explain(p, goldenFacts, aepScales)
		paths := strings.Join(FactPaths(p), ", ")
		if paths == "" {
			paths = "(none)"
		}
		fmt.Fprintf(&out, "display: %s\npaths: %s\ntruth: %s\n", o.Expression, paths, o.Truth)
		for _, c := range o.Causes {
			neg := ""
			if c.Negated {
				neg = "(negated) "
			}
			fmt.Fprintf(&out, "cause: %s%s %s — %s\n", neg, marks[c.Truth], c.Expression, c.Detail())
		}
	}
	testkit.Golden(t, filepath.Join("testdata", "predicates.golden"), out.Bytes(), *update)
}

// goldenSeeds returns the documents of the golden input, to seed FuzzParse.
func goldenSeeds(t testing.TB) []string {
	src, err := os.ReadFile(filepath.Join("testdata", "predicates.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(src), "\n---\n")
}
