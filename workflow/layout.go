package workflow

import (
	"cmp"
	"slices"
)

// Layout is the graph layout of projection.md §3, shared by the projection
// and the renderers so that the flow document and the pictures agree: a
// DFS discovery order, the DFS-closing (back) edges, longest-path layers
// over the remaining edges, and a column within each layer.
//
// States are numbered by their position in IDs and every per-state figure
// is a slice indexed by that number: one map lookup per question instead of
// one per step of the algorithms, which on a workflow of tens of thousands
// of states is what the layout's time went to.
type Layout struct {
	// IDs lists the declared state ids in byte order.
	IDs []string
	// Depth is the number of layers: max(Layer)+1, or 0 without states.
	Depth int
	// Layers lists the states of each layer in column order.
	Layers [][]string

	index  map[string]int // position of each declared state in IDs
	disc   []int          // DFS discovery index
	layer  []int          // longest-path layer
	column []int          // index within the layer
	// The de-duplicated successors of state i, ascending, are
	// succTo[succStart[i]:succStart[i+1]]; closing[k] says whether edge k
	// closes a cycle.
	succStart []int
	succTo    []int
	closing   []bool
}

// ComputeLayout lays out w as projection.md §3 specifies. It expects a
// validated workflow but never fails: edges with an undeclared end are
// ignored, and an undeclared initial state is skipped as a DFS root. Both
// the DFS and the layering are iterative, so depth is bounded by memory,
// not by the Go stack.
func ComputeLayout(w *Workflow) *Layout {
	ids := w.StateIDs()
	l := &Layout{IDs: ids, index: make(map[string]int, len(ids))}
	for i, s := range ids {
		l.index[s] = i
	}
	l.successors(w)
	l.classify(w)
	l.layerize()
	l.columns()
	return l
}

// successors builds, per declared state, the declared targets of its
// transitions, de-duplicated and ascending (by position in IDs, which is
// byte order).
func (l *Layout) successors(w *Workflow) {
	n := len(l.IDs)
	type edge struct{ from, to int }
	edges := make([]edge, 0, len(w.Transitions))
	count := make([]int, n+1)
	for _, t := range w.Transitions {
		from, okFrom := l.index[t.From]
		to, okTo := l.index[t.To]
		if okFrom && okTo {
			edges = append(edges, edge{from, to})
			count[from+1]++
		}
	}
	for i := range n {
		count[i+1] += count[i]
	}
	to := make([]int, len(edges))
	next := slices.Clone(count[:n])
	for _, e := range edges {
		to[next[e.from]] = e.to
		next[e.from]++
	}
	// Sort and compact each state's run in place, then close the gaps.
	l.succStart = make([]int, n+1)
	k := 0
	for i := range n {
		run := to[count[i]:count[i+1]]
		slices.Sort(run)
		run = slices.Compact(run)
		l.succStart[i] = k
		k += copy(to[k:], run)
	}
	l.succStart[n] = k
	l.succTo = to[:k:k]
	l.closing = make([]bool, k)
}

// succ returns the successors of state i.
func (l *Layout) succ(i int) []int { return l.succTo[l.succStart[i]:l.succStart[i+1]] }

// classify runs the iterative DFS from the initial state, then from every
// undiscovered state in id order, numbering discoveries and marking the
// edges that close a cycle (their target is still open).
func (l *Layout) classify(w *Workflow) {
	n := len(l.IDs)
	l.disc = make([]int, n)
	for i := range l.disc {
		l.disc[i] = -1
	}
	open := make([]bool, n)
	type frame struct{ state, next int } // next: the edge to try next
	var stack []frame
	discovered := 0
	discover := func(s int) {
		l.disc[s] = discovered
		discovered++
		open[s] = true
		stack = append(stack, frame{s, l.succStart[s]})
	}
	visit := func(root int) {
		if l.disc[root] >= 0 {
			return
		}
		discover(root)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == l.succStart[f.state+1] {
				open[f.state] = false
				stack = stack[:len(stack)-1]
				continue
			}
			k := f.next
			f.next++
			switch t := l.succTo[k]; {
			case open[t]:
				l.closing[k] = true
			case l.disc[t] >= 0:
			default:
				discover(t)
			}
		}
	}
	if root, ok := l.index[w.Initial]; ok {
		visit(root)
	}
	for i := range n {
		visit(i)
	}
}

// layerize assigns longest-path layers with Kahn's algorithm over the edges
// that do not close a cycle.
func (l *Layout) layerize() {
	n := len(l.IDs)
	incoming := make([]int, n)
	for k, t := range l.succTo {
		if !l.closing[k] {
			incoming[t]++
		}
	}
	l.layer = make([]int, n)
	queue := make([]int, 0, n)
	for i := range n {
		if incoming[i] == 0 {
			queue = append(queue, i)
		}
	}
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		for k := l.succStart[s]; k < l.succStart[s+1]; k++ {
			if l.closing[k] {
				continue
			}
			t := l.succTo[k]
			l.layer[t] = max(l.layer[t], l.layer[s]+1)
			if incoming[t]--; incoming[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	for i := range n {
		l.Depth = max(l.Depth, l.layer[i]+1)
	}
}

// columns orders each layer by (Disc, id) and numbers the columns. Every
// declared state is discovered (each is a DFS root in turn) and discovery
// indexes are distinct, so walking the states in discovery order fills
// every layer already sorted.
func (l *Layout) columns() {
	n := len(l.IDs)
	byDisc := make([]int, n)
	for i, d := range l.disc {
		byDisc[d] = i
	}
	perLayer := make([]int, l.Depth)
	for i := range n {
		perLayer[l.layer[i]]++
	}
	l.Layers = make([][]string, l.Depth)
	for d, size := range perLayer {
		l.Layers[d] = make([]string, 0, size)
	}
	l.column = make([]int, n)
	for _, i := range byDisc {
		row := l.layer[i]
		l.column[i] = len(l.Layers[row])
		l.Layers[row] = append(l.Layers[row], l.IDs[i])
	}
}

// Disc returns the DFS discovery index (0-based) of state s, or -1 when s
// is not a declared state.
func (l *Layout) Disc(s string) int { return l.of(l.disc, s) }

// Layer returns the longest-path layer (0-based) of state s, or -1 when s
// is not a declared state.
func (l *Layout) Layer(s string) int { return l.of(l.layer, s) }

// Column returns the index of state s within its layer, ordered by (Disc,
// id), or -1 when s is not a declared state.
func (l *Layout) Column(s string) int { return l.of(l.column, s) }

func (l *Layout) of(values []int, s string) int {
	if i, ok := l.index[s]; ok {
		return values[i]
	}
	return -1
}

// Succ returns the declared successors of s, de-duplicated and ascending,
// as a new slice.
func (l *Layout) Succ(s string) []string {
	i, ok := l.index[s]
	if !ok {
		return nil
	}
	var out []string
	for _, t := range l.succ(i) {
		out = append(out, l.IDs[t])
	}
	return out
}

// IsBack reports whether the edge from → to points back: both ends are
// declared and to's layer is not below from's. These are exactly the
// DFS-closing edges, self-loops included.
func (l *Layout) IsBack(from, to string) bool {
	f, okFrom := l.index[from]
	t, okTo := l.index[to]
	return okFrom && okTo && l.layer[t] <= l.layer[f]
}

// Closing returns the DFS-closing edges as (from, to) pairs, sorted.
func (l *Layout) Closing() [][2]string {
	var out [][2]string
	for i := range l.IDs {
		for k := l.succStart[i]; k < l.succStart[i+1]; k++ {
			if l.closing[k] {
				out = append(out, [2]string{l.IDs[i], l.IDs[l.succTo[k]]})
			}
		}
	}
	// IDs and each successor run are in byte order, so out already is;
	// sorting states the contract rather than trusting the construction.
	slices.SortFunc(out, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return out
}
