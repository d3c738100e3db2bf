package render

import (
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
)

// accent is how the overlay marks a node (rendering.md §5.2).
type accent int

const (
	idle accent = iota
	visited
	current
	stopped
	done
)

// node is one state of the scene.
type node struct {
	id, title string
	terminal  bool
	phases    []string
	lines     []string // requirement lines (§2), printed by package reqtext
	accent    accent
}

// edge is one transition of the scene.
type edge struct {
	from, to string
	guard    string // display form; empty when always
	retreat  bool
	lines    []string
	taken    int // times the overlay's entered list walks it
}

// scene is what every format draws (rendering.md §2).
type scene struct {
	w       *workflow.Workflow
	nodes   []node // layer order, then column order
	edges   []edge // document order
	overlay *Overlay
}

// newScene builds the scene of w with the overlay of opts.
func newScene(w *workflow.Workflow, opts Options) *scene {
	lay := workflow.ComputeLayout(w)
	s := &scene{w: w, overlay: opts.Overlay}
	for _, layer := range lay.Layers {
		for _, id := range layer {
			st := w.States[id]
			if st == nil {
				continue
			}
			s.nodes = append(s.nodes, node{
				id: id, title: st.Title, terminal: st.Terminal, phases: st.Phases,
				lines: reqtext.Render.Lines(st.Requires),
			})
		}
	}
	for _, t := range w.Transitions {
		if t == nil {
			continue
		}
		e := edge{from: t.From, to: t.To, retreat: lay.IsBack(t.From, t.To), lines: reqtext.Render.Lines(t.Requires)}
		if t.When != nil && t.Guarded() {
			e.guard = t.When.String()
		}
		s.edges = append(s.edges, e)
	}
	if opts.Overlay != nil {
		s.applyOverlay(opts.Overlay)
	}
	return s
}

// applyOverlay sets node accents and taken-edge counts (rendering.md §5.2).
func (s *scene) applyOverlay(o *Overlay) {
	seen := map[string]bool{}
	for _, id := range o.Entered {
		seen[id] = true
	}
	pairs := map[[2]string]int{}
	for i := 1; i < len(o.Entered); i++ {
		pairs[[2]string{o.Entered[i-1], o.Entered[i]}]++
	}
	for i := range s.nodes {
		n := &s.nodes[i]
		switch {
		case n.id == o.Current && n.terminal && o.Status == StatusCompleted:
			n.accent = done
		case n.id == o.Current && o.Status.Stopped():
			n.accent = stopped
		case n.id == o.Current:
			n.accent = current
		case seen[n.id]:
			n.accent = visited
		}
	}
	// Parallel transitions share their ends, so a walked pair marks each.
	for i := range s.edges {
		e := &s.edges[i]
		e.taken = pairs[[2]string{e.from, e.to}]
	}
}
