package graphviz

import (
	"bytes"
	"fmt"
	"os/exec"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/render"
	"github.com/aepflow/aepflow/workflow"
)

// generated returns the DOT of a workflow of n states: a chain with a
// guarded forward skip every third state and a retreat every fifth, the
// shape of real workflows at scale.
func generated(n int) []byte {
	w := &workflow.Workflow{ID: "bench/gen", Version: 1, Title: "Generated", Initial: "s0000",
		States: map[string]*workflow.State{}}
	id := func(i int) string { return fmt.Sprintf("s%04d", i) }
	for i := 0; i < n; i++ {
		w.States[id(i)] = &workflow.State{ID: id(i), Title: fmt.Sprintf("State %d", i), Terminal: i == n-1}
	}
	add := func(from, to int, when predicate.Predicate) {
		w.Transitions = append(w.Transitions, &workflow.Transition{Index: len(w.Transitions), From: id(from), To: id(to), When: when})
	}
	for i := 0; i+1 < n; i++ {
		add(i, i+1, predicate.Truthy{Path: fmt.Sprintf("step.s%d.done", i)})
		if i%3 == 0 && i+2 < n {
			add(i, i+2, predicate.Compare{Left: predicate.Fact("risk"), Op: predicate.Lt, Right: predicate.Lit(predicate.Number(3))})
		}
		if i%5 == 4 {
			add(i, i-3, predicate.Truthy{Path: "tests.failed"})
		}
	}
	return render.DOT(w, render.Options{})
}

func BenchmarkSVG200(b *testing.B) {
	dot := generated(200)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Render(dot, "svg"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVG lays out and draws 3, 30 and 300 states: the companion's
// work at 1×, 10× and 100× (this shape's crossings make Graphviz's own
// layout superlinear beyond).
func BenchmarkSVG(b *testing.B) {
	for _, n := range []int{3, 30, 300} {
		dot := generated(n)
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(dot, "svg"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPNG200(b *testing.B) {
	dot := generated(200)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Render(dot, "png"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNativeDotSVG200 runs Graphviz's own `dot -Tsvg` on the same
// text, process start included; it skips when `dot` is not installed.
func BenchmarkNativeDotSVG200(b *testing.B) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		b.Skip("native Graphviz `dot` is not installed")
	}
	dot := generated(200)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := exec.Command(bin, "-Tsvg")
		c.Stdin = bytes.NewReader(dot)
		if out, err := c.Output(); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}

func TestGenerated200(t *testing.T) {
	svg, err := Render(generated(200), "svg")
	if err != nil {
		t.Fatal(err)
	}
	if nodes := testkit.SVGTitles(t, svg, "node"); len(nodes) != 201 {
		t.Errorf("%d node groups, want 200 states + the initial marker", len(nodes))
	}
}
