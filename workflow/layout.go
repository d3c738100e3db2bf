package workflow

import (
	"cmp"
	"slices"
)

// Layout is the graph layout of projection.md §3, shared by the projection
// and the renderers so that the flow document and the pictures agree: a
// DFS discovery order, the DFS-closing (back) edges, longest-path layers
// over the remaining edges, and a column within each layer.
type Layout struct {
	// IDs lists the declared state ids in byte order.
	IDs []string
	// Disc is each state's DFS discovery index (0-based).
	Disc map[string]int
	// Layer is each state's longest-path layer (0-based).
	Layer map[string]int
	// Column is each state's index within its layer, ordered by (Disc, id).
	Column map[string]int
	// Depth is the number of layers: max(Layer)+1, or 0 without states.
	Depth int
	// Layers lists the states of each layer in column order.
	Layers [][]string

	succ    map[string][]string
	closing map[[2]string]bool
}

// ComputeLayout lays out w as projection.md §3 specifies. It expects a
// validated workflow but never fails: edges with an undeclared end are
// ignored, and an undeclared initial state is skipped as a DFS root. Both
// the DFS and the layering are iterative, so depth is bounded by memory,
// not by the Go stack.
func ComputeLayout(w *Workflow) *Layout {
	l := &Layout{
		IDs:     w.StateIDs(),
		Disc:    make(map[string]int, len(w.States)),
		Layer:   make(map[string]int, len(w.States)),
		Column:  make(map[string]int, len(w.States)),
		succ:    successors(w),
		closing: map[[2]string]bool{},
	}
	l.classify(w)
	l.layer()
	l.columns()
	return l
}

// successors returns, per declared state, the declared targets of its
// transitions, de-duplicated and ascending.
func successors(w *Workflow) map[string][]string {
	succ := make(map[string][]string, len(w.States))
	for _, t := range w.Transitions {
		_, okFrom := w.States[t.From]
		_, okTo := w.States[t.To]
		if okFrom && okTo {
			succ[t.From] = append(succ[t.From], t.To)
		}
	}
	for s, ts := range succ {
		slices.Sort(ts)
		succ[s] = slices.Compact(ts)
	}
	return succ
}

// classify runs the iterative DFS from the initial state, then from every
// undiscovered state in id order, numbering discoveries and collecting the
// edges that close a cycle (their target is still open).
func (l *Layout) classify(w *Workflow) {
	type frame struct {
		state   string
		pending []string // successors still to try, in reverse order
	}
	open := map[string]bool{}
	var stack []frame
	discover := func(s string) {
		l.Disc[s] = len(l.Disc)
		open[s] = true
		pending := slices.Clone(l.succ[s])
		slices.Reverse(pending)
		stack = append(stack, frame{s, pending})
	}
	roots := append([]string{w.Initial}, l.IDs...)
	for _, root := range roots {
		_, declared := w.States[root]
		if _, seen := l.Disc[root]; !declared || seen {
			continue
		}
		discover(root)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if len(f.pending) == 0 {
				delete(open, f.state)
				stack = stack[:len(stack)-1]
				continue
			}
			t := f.pending[len(f.pending)-1]
			f.pending = f.pending[:len(f.pending)-1]
			switch _, seen := l.Disc[t]; {
			case open[t]:
				l.closing[[2]string{f.state, t}] = true
			case seen:
			default:
				discover(t)
			}
		}
	}
}

// layer assigns longest-path layers with Kahn's algorithm over the edges
// that do not close a cycle.
func (l *Layout) layer() {
	incoming := make(map[string]int, len(l.IDs))
	for _, s := range l.IDs {
		for _, t := range l.succ[s] {
			if !l.closing[[2]string{s, t}] {
				incoming[t]++
			}
		}
	}
	var queue []string
	for _, s := range l.IDs {
		l.Layer[s] = 0
		if incoming[s] == 0 {
			queue = append(queue, s)
		}
	}
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		for _, t := range l.succ[s] {
			if l.closing[[2]string{s, t}] {
				continue
			}
			l.Layer[t] = max(l.Layer[t], l.Layer[s]+1)
			if incoming[t]--; incoming[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	for _, s := range l.IDs {
		l.Depth = max(l.Depth, l.Layer[s]+1)
	}
}

// columns orders each layer by (Disc, id) and numbers the columns.
func (l *Layout) columns() {
	l.Layers = make([][]string, l.Depth)
	for _, s := range l.IDs {
		l.Layers[l.Layer[s]] = append(l.Layers[l.Layer[s]], s)
	}
	for _, row := range l.Layers {
		slices.SortFunc(row, func(a, b string) int {
			return cmp.Or(cmp.Compare(l.Disc[a], l.Disc[b]), cmp.Compare(a, b))
		})
		for i, s := range row {
			l.Column[s] = i
		}
	}
}

// Succ returns the declared successors of s, de-duplicated and ascending.
// The slice must not be modified.
func (l *Layout) Succ(s string) []string { return l.succ[s] }

// IsBack reports whether the edge from → to points back: both ends are
// declared and to's layer is not below from's. These are exactly the
// DFS-closing edges, self-loops included.
func (l *Layout) IsBack(from, to string) bool {
	lf, okFrom := l.Layer[from]
	lt, okTo := l.Layer[to]
	return okFrom && okTo && lt <= lf
}

// Closing returns the DFS-closing edges as (from, to) pairs, sorted.
func (l *Layout) Closing() [][2]string {
	out := make([][2]string, 0, len(l.closing))
	for e := range l.closing {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return out
}
