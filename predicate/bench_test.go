package predicate

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// benchSource builds a guard of n groups, each an `any` of a comparison, a
// membership and a negated compact leaf, with an operator map on top.
func benchSource(n int) string {
	var b strings.Builder
	b.WriteString("all:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - any:\n")
		fmt.Fprintf(&b, "      - tests.s%d.failed > 0\n", i)
		fmt.Fprintf(&b, "      - task.kind%d: [feature, bugfix, refactor]\n", i)
		fmt.Fprintf(&b, "      - not review.r%d.approved\n", i)
		fmt.Fprintf(&b, "  - risk.l%d: {gte: low, lt: critical, ne: \"'x.y'\"}\n", i)
	}
	return b.String()
}

func benchFacts(n int) MapFacts {
	m := MapFacts{}
	for i := range n {
		m[fmt.Sprintf("tests.s%d.failed", i)] = Number(0)
		m[fmt.Sprintf("task.kind%d", i)] = Text("docs")
		if i%2 == 0 {
			m[fmt.Sprintf("review.r%d.approved", i)] = Bool(false)
		}
		m[fmt.Sprintf("risk.l%d", i)] = Text("high")
	}
	return m
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10, 100} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(benchSource(n)), &doc); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("groups=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ds := Parse(&doc, "bench.yaml", "when"); len(ds) > 0 {
					b.Fatal(ds)
				}
			}
		})
	}
}

func BenchmarkEval(b *testing.B) {
	for _, n := range []int{10, 100} {
		p := mustParse(b, benchSource(n))
		facts := benchFacts(n)
		b.Run(fmt.Sprintf("groups=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Eval(p, facts, aepScales)
			}
		})
		b.Run(fmt.Sprintf("explain/groups=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explain(p, facts, aepScales)
			}
		})
	}
}

func BenchmarkParseCompact(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCompact("not evidence.first_seq.test_result < evidence.first_seq.diff"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchSourceEval(t *testing.T) {
	// The benchmark predicate is Unknown: half the groups miss their review
	// fact, and every other group fails nothing.
	p := mustParse(t, benchSource(4))
	if got := Eval(p, benchFacts(4), aepScales); got != Unknown {
		t.Errorf("Eval = %v, want unknown", got)
	}
	if got := len(Explain(p, benchFacts(4), aepScales).Causes); got != 6 {
		t.Errorf("causes = %d, want 6", got)
	}
}
