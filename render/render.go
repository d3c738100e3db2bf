// Package render draws a workflow as DOT or Mermaid text (rendering.md §2–§5):
// one scene shared by every format (states in layout order, transitions in
// document order, guard labels, retreats, requirement lines), two
// deterministic text emitters, and the run overlay that marks where a run is
// and where it has been, read from an engine snapshot or a run directory.
//
// It is pure Go and must stay so: SVG and PNG are produced by laying out this
// package's DOT text in the sub-package render/graphviz, which alone imports
// go-graphviz and is linked only into the companion binary aepflow-render,
// never into the hook binary (rendering.md §6.3).
//
// It is not a validator: it expects a workflow that passed
// (*workflow.Workflow).Validate, and only promises not to panic on others.
package render

import "github.com/aepflow/aepflow/workflow"

// Options adjusts what the emitters draw. The zero value draws the plain
// workflow.
type Options struct {
	// ClusterPhases groups the DOT nodes into one cluster per phase
	// (`--clusters phases`, rendering.md §3.2). Mermaid ignores it.
	ClusterPhases bool
	// Overlay, when set, marks a run on the picture (rendering.md §5). It
	// must have passed (*Overlay).Check against the same workflow.
	Overlay *Overlay
	// Tooltips adds the requirement lines of states and transitions to the
	// DOT as `tooltip` attributes. It is meant for the DOT handed to
	// Graphviz for SVG, where tooltips show on hover; the `dot` output
	// format leaves it off so that it stays exactly rendering.md §3.
	Tooltips bool
}

// Caps beyond which a workflow is refused for layout (rendering.md §6.2):
// Graphviz cannot be cancelled, so work is bounded by input size.
const (
	// MaxLayoutStates is the largest number of states laid out as SVG/PNG.
	MaxLayoutStates = 1000
	// MaxLayoutTransitions is the largest number of transitions laid out.
	MaxLayoutTransitions = 5000
)

// TooLargeToLayout reports whether w exceeds MaxLayoutStates or
// MaxLayoutTransitions.
func TooLargeToLayout(w *workflow.Workflow) bool {
	return len(w.States) > MaxLayoutStates || len(w.Transitions) > MaxLayoutTransitions
}
