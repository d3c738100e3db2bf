package workflow

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLayoutSynthetic checks the synthetic cases of projection.md §7.3:
// layers, discovery order, closing edges and depth.
func TestLayoutSynthetic(t *testing.T) {
	cases := []struct {
		name, src string
		layers    map[string]int
		disc      []string // states in discovery order
		closing   [][2]string
		depth     int
	}{
		{
			name: "touching",
			src: `id: demo/touching
version: 1
title: Touching spans
initial: a
states:
  a: {title: A, summary: First.}
  b: {title: B, summary: Second.}
  c: {title: C, summary: Third.}
  d: {title: D, summary: Fourth.}
  done: {title: Done, terminal: true}
transitions:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: d, when: c.ok}
  - {from: c, to: b, when: not c.ok}
  - {from: d, to: d, when: d.again}
  - {from: d, to: done, when: d.ok}
`,
			layers:  map[string]int{"a": 0, "b": 1, "c": 2, "d": 3, "done": 4},
			disc:    []string{"a", "b", "c", "d", "done"},
			closing: [][2]string{{"c", "b"}, {"d", "d"}},
			depth:   5,
		},
		{
			name: "dfs",
			src: `id: demo/dfs
version: 1
title: DFS decides
initial: a
states: {a: {title: A}, b: {title: B}, c: {title: C}, d: {title: D}, f: {title: F}, z: {title: Z, terminal: true}}
transitions:
  - {from: a, to: b}
  - {from: a, to: c}
  - {from: b, to: d}
  - {from: c, to: d}
  - {from: d, to: f}
  - {from: f, to: c}
  - {from: f, to: z}
`,
			layers:  map[string]int{"a": 0, "b": 1, "d": 2, "f": 3, "c": 4, "z": 4},
			disc:    []string{"a", "b", "d", "f", "c", "z"},
			closing: [][2]string{{"c", "d"}},
			depth:   5,
		},
		{
			name: "self",
			src: `id: demo/self
title: Self loop
initial: a
states:
  a: {title: A}
  b: {title: B, summary: "  Poll   until\tready.\n"}
  end: {title: End, terminal: true}
transitions:
  - {from: a, to: b}
  - {from: b, to: b, when: {all: [not ready]}}
  - {from: b, to: end, when: {all: []}}
`,
			layers:  map[string]int{"a": 0, "b": 1, "end": 2},
			disc:    []string{"a", "b", "end"},
			closing: [][2]string{{"b", "b"}},
			depth:   3,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := mustLoad(t, c.src)
			if diags := w.Validate(); len(diags) > 0 {
				t.Fatalf("invalid: %s", errorLines(diags))
			}
			l := ComputeLayout(w)
			for s, want := range c.layers {
				if l.Layer(s) != want {
					t.Errorf("layer[%s] = %d, want %d", s, l.Layer(s), want)
				}
			}
			for i, s := range c.disc {
				if l.Disc(s) != i {
					t.Errorf("disc[%s] = %d, want %d", s, l.Disc(s), i)
				}
			}
			if got := l.Closing(); !slices.Equal(got, c.closing) {
				t.Errorf("closing %v, want %v", got, c.closing)
			}
			if l.Depth != c.depth {
				t.Errorf("depth %d, want %d", l.Depth, c.depth)
			}
			checkBackIsClosing(t, w, l)
		})
	}
}

// checkBackIsClosing asserts projection.md §3 rule 5: IsBack holds exactly
// for the closing edges, and every other edge goes strictly down a layer.
func checkBackIsClosing(t *testing.T, w *Workflow, l *Layout) {
	t.Helper()
	closing := map[[2]string]bool{}
	for _, e := range l.Closing() {
		closing[e] = true
	}
	for _, s := range l.IDs {
		for _, to := range l.Succ(s) {
			isClosing := closing[[2]string{s, to}]
			if l.IsBack(s, to) != isClosing {
				t.Errorf("IsBack(%s, %s) = %v but closing = %v", s, to, !isClosing, isClosing)
			}
			if !isClosing && l.Layer(to) <= l.Layer(s) {
				t.Errorf("forward edge %s -> %s does not go down a layer", s, to)
			}
		}
	}
}

func TestLayoutColumns(t *testing.T) {
	// b and c share layer 1; a's successors are tried in ascending order,
	// so b is discovered before c whatever the document order, and columns
	// follow discovery. x, a second root, joins layer 0 after a.
	w := mustLoad(t, `id: demo/cols
title: Columns
initial: a
states: {a: {title: A}, b: {title: B, terminal: true}, c: {title: C, terminal: true}, x: {title: X}}
allow_unreachable_states: true
transitions:
  - {from: a, to: c}
  - {from: a, to: b}
  - {from: x, to: b}
`)
	l := ComputeLayout(w)
	if l.Column("b") != 0 || l.Column("c") != 1 || l.Layer("x") != 0 || l.Column("x") != 1 {
		t.Errorf("columns: b %d c %d x %d/%d", l.Column("b"), l.Column("c"), l.Layer("x"), l.Column("x"))
	}
	if !slices.Equal(l.Layers[0], []string{"a", "x"}) || !slices.Equal(l.Layers[1], []string{"b", "c"}) {
		t.Errorf("layers %v", l.Layers)
	}
}

// TestLayoutTolerant runs the layout on workflows validation would refuse:
// undeclared ends are ignored, never a panic.
func TestLayoutTolerant(t *testing.T) {
	w := mustLoad(t, `id: demo/bad
title: Bad
initial: nowhere
states: {a: {title: A}}
transitions:
  - {from: a, to: ghost}
  - {from: ghost, to: a}
`)
	l := ComputeLayout(w)
	if l.Depth != 1 || l.Disc("a") != 0 || len(l.Closing()) != 0 || l.IsBack("a", "ghost") {
		t.Errorf("layout %+v", l)
	}
	empty := ComputeLayout(&Workflow{})
	if empty.Depth != 0 || len(empty.Layers) != 0 {
		t.Errorf("empty layout %+v", empty)
	}
}

// genWorkflow writes a valid workflow of n states (n ≥ 2): a chain
// s0 → s1 → … whose last state is terminal, with a guarded retreat every
// seventh state and a forward skip every eleventh.
func genWorkflow(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: gen/n%d\ntitle: Generated\ninitial: s0\nstates:\n", n)
	for i := range n {
		term := ""
		if i == n-1 {
			term = ", terminal: true"
		}
		fmt.Fprintf(&b, "  s%d: {title: S%d, summary: State number %d.%s}\n", i, i, i, term)
	}
	b.WriteString("transitions:\n")
	for i := 0; i+1 < n; i++ {
		fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: s%d.done}\n", i, i+1, i)
		if i%7 == 6 {
			fmt.Fprintf(&b, "  - {from: s%d, to: s%d, when: {any: [s%d.failed > 0, not s%d.ok]}}\n", i, i-3, i, i)
		}
		if i%11 == 10 && i+2 < n {
			fmt.Fprintf(&b, "  - {from: s%d, to: s%d}\n", i, i+2)
		}
	}
	return b.String()
}

// TestLayoutLarge lays out a 10,000-state chain: a recursive DFS would go
// 10,000 frames deep; this one must not, and the layers follow the chain.
func TestLayoutLarge(t *testing.T) {
	const n = 10000
	w := mustLoad(t, genWorkflow(n))
	if diags := w.Validate(); len(diags) > 0 {
		t.Fatalf("invalid: %s", errorLines(diags[:1]))
	}
	l := ComputeLayout(w)
	if l.Depth != n {
		t.Fatalf("depth %d, want %d", l.Depth, n)
	}
	for _, i := range []int{0, 1, 6, 5000, n - 1} {
		s := fmt.Sprintf("s%d", i)
		if l.Layer(s) != i {
			t.Errorf("%s: layer %d", s, l.Layer(s))
		}
	}
	numbered := map[int]bool{}
	for _, s := range l.IDs {
		numbered[l.Disc(s)] = true
	}
	if l.Disc("s0") != 0 || len(numbered) != n || numbered[-1] {
		t.Errorf("discovery: s0 at %d, %d distinct numbers for %d states", l.Disc("s0"), len(numbered), n)
	}
	if got := len(l.Closing()); got != (n-1)/7 {
		t.Errorf("%d closing edges, want %d", got, (n-1)/7)
	}
	checkBackIsClosing(t, w, l)
}
