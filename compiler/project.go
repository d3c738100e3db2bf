// Package compiler projects a validated AEP workflow, optionally with a step
// map, into a b10x flow document (projection.md): every non-terminal state a
// group holding its steps, retreats as repeating groups, terminal states and
// guards dropped. It builds the node tree; package flow writes and checks the
// bytes. It does not load documents (package tree does) and does not decide
// anything at run time (package engine does).
package compiler

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/workflow"
)

// DefaultMaxAttempts is the bound written on every retreat group when the
// caller gives none.
const DefaultMaxAttempts = 3

// Diagnostic codes of the projection (projection.md §2, §10).
const (
	CodeNothingToRun         = "nothing_to_run"
	CodeMisreadByGovernor    = "state_id_misread_by_governor"
	CodeRefusedByHarness     = "state_id_refused_by_harness"
	CodeNotPlainString       = "state_id_not_plain_string"
	CodeControlCharacter     = "control_character_in_text"
	defaultHarness           = "claude-code"
	retreatCommentPrefix     = "the retreat: "
	retreatGroupSingleSuffix = "-again"
	retreatGroupJoin         = "-to-"
)

// Options tunes Project.
type Options struct {
	// MaxAttempts is written as every retreat group's repeat.max; 0 means
	// DefaultMaxAttempts.
	MaxAttempts uint32
	// Map, when set, supplies the steps of each state. It must already have
	// been validated and cross-validated against the workflow.
	Map *stepmap.Map
}

// Facts are the numbers and names the header of a projected document
// carries (projection.md §6.1).
type Facts struct {
	// Source is `<workflow id>/<version>`.
	Source string
	// Guarded counts transitions whose simplified guard is not always.
	Guarded int
	// Dropped lists the terminal states, byte order.
	Dropped []string
	// States counts every state, terminals included.
	States int
	// Depth is the number of layers of the layout.
	Depth int
	// TopLevel counts the root's children.
	TopLevel int
	// MaxAttempts is the bound written on retreat groups.
	MaxAttempts uint32
	// MapID and MapPin name the step map and its pin as written (empty
	// without a map).
	MapID, MapPin string
}

// Projection is the result of Project: the document, its header facts, and
// warnings about state ids other readers would misread.
type Projection struct {
	Document *flow.Document
	Facts    Facts
	Warnings diag.List
}

// span is a retreat: positions start..end of the order, and the edges that
// make it, "<from> -> <to>".
type span struct {
	start, end int
	why        []string
}

// Project turns w (and opts.Map) into a flow document. It refuses, with
// nothing_to_run, a workflow whose states are all terminal. The document is
// not yet checked: callers write it with flow.WriteYAML or flow.WriteJSON and
// check those bytes (see Generate).
func Project(w *workflow.Workflow, opts Options) (*Projection, diag.List) {
	maxAttempts := cmp.Or(opts.MaxAttempts, DefaultMaxAttempts)
	layout := workflow.ComputeLayout(w)
	order := executionOrder(w, layout)
	if len(order) == 0 {
		return nil, diag.List{diag.Errorf(CodeNothingToRun, "every state of workflow `%s` is terminal, so there is nothing to run", w.ID).
			At(w.File, w.StatesPos).WithPath(w.Location()).WithHint("a flow document needs at least one non-terminal state")}
	}
	p := &projector{w: w, m: opts.Map}
	nodes := p.walk(order, mergeSpans(retreats(w, layout, order)), int(maxAttempts))
	doc := &flow.Document{ID: w.ID, Root: &flow.Node{ID: "root", Nodes: nodes}}
	proj := &Projection{Document: doc, Facts: facts(w, layout, len(nodes), maxAttempts, opts.Map)}
	proj.Warnings = append(stateIDWarnings(w, order), p.warnings...)
	return proj, nil
}

// executionOrder is the non-terminal states sorted by (layer, id)
// (projection.md §4.1): parallel branches become one sequential chain. The
// layout's ids are in byte order, so distributing them over their layers in
// that order sorts them without comparing.
func executionOrder(w *workflow.Workflow, layout *workflow.Layout) []string {
	start := make([]int, layout.Depth+1) // counting sort by layer
	for _, id := range layout.IDs {
		if !w.States[id].Terminal {
			start[layout.Layer(id)+1]++
		}
	}
	for l := range layout.Depth {
		start[l+1] += start[l]
	}
	order := make([]string, start[layout.Depth])
	for _, id := range layout.IDs {
		if !w.States[id].Terminal {
			l := layout.Layer(id)
			order[start[l]] = id
			start[l]++
		}
	}
	return order
}

// retreats lists one span per back edge between non-terminal states, in
// transition document order (projection.md §4.2).
func retreats(w *workflow.Workflow, layout *workflow.Layout, order []string) []span {
	pos := make(map[string]int, len(order))
	for i, s := range order {
		pos[s] = i
	}
	var spans []span
	for _, t := range w.Transitions {
		from, okFrom := pos[t.From]
		to, okTo := pos[t.To]
		if okFrom && okTo && to <= from && layout.IsBack(t.From, t.To) {
			spans = append(spans, span{start: to, end: from, why: []string{t.From + " -> " + t.To}})
		}
	}
	return spans
}

// mergeSpans merges overlapping or touching spans (projection.md §4.3), so
// retreats never nest.
func mergeSpans(spans []span) []span {
	slices.SortStableFunc(spans, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.start <= merged[n-1].end+1 {
			last := &merged[n-1]
			last.end = max(last.end, s.end)
			last.why = append(last.why, s.why...)
			continue
		}
		merged = append(merged, span{start: s.start, end: s.end, why: slices.Clone(s.why)})
	}
	return merged
}

// projector builds nodes for one projection.
type projector struct {
	w        *workflow.Workflow
	m        *stepmap.Map
	warnings diag.List
}

// walk emits the top-level nodes: state groups, and retreat groups holding
// the states of each merged span (projection.md §4.4).
func (p *projector) walk(order []string, spans []span, maxAttempts int) []*flow.Node {
	var nodes []*flow.Node
	previous := ""
	next := 0 // index into spans
	for i := 0; i < len(order); {
		if next < len(spans) && spans[next].start == i {
			s := spans[next]
			group := &flow.Node{
				ID:      groupName(order[s.start : s.end+1]),
				Needs:   needsOf(previous),
				Repeat:  maxAttempts,
				Comment: retreatCommentPrefix + strings.Join(s.why, ", "),
			}
			for k := s.start; k <= s.end; k++ {
				prevState := ""
				if k > s.start {
					prevState = order[k-1]
				}
				group.Nodes = append(group.Nodes, p.nodeFor(order[k], needsOf(prevState)))
			}
			nodes = append(nodes, group)
			previous, i = group.ID, s.end+1
			next++
			continue
		}
		nodes = append(nodes, p.nodeFor(order[i], needsOf(previous)))
		previous = order[i]
		i++
	}
	return nodes
}

// groupName is `<first>-again` for a one-state span, else `<first>-to-<last>`.
func groupName(states []string) string {
	if len(states) == 1 {
		return states[0] + retreatGroupSingleSuffix
	}
	return states[0] + retreatGroupJoin + states[len(states)-1]
}

func needsOf(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}

// nodeFor makes the group of one state: one step node per mapped step, or
// one empty slot (projection.md §5).
func (p *projector) nodeFor(state string, needs []string) *flow.Node {
	summary := collapse(p.w.States[state].Summary)
	steps := p.steps(state)
	alone := len(steps) <= 1
	group := &flow.Node{ID: state, Needs: needs}
	if !alone && summary != "" {
		group.Comment = summary
	}
	if len(steps) == 0 {
		steps = []*stepmap.Step{nil}
	}
	for n, step := range steps {
		id := fmt.Sprintf("%s-%d", state, n+1)
		var stepNeeds []string
		if n > 0 {
			stepNeeds = []string{fmt.Sprintf("%s-%d", state, n)}
		}
		slotSummary := ""
		if alone {
			slotSummary = summary
		}
		group.Nodes = append(group.Nodes, &flow.Node{ID: id, Needs: stepNeeds, Run: p.payload(state, slotSummary, step)})
	}
	return group
}

// steps returns the map's steps for state (none without a map).
func (p *projector) steps(state string) []*stepmap.Step {
	if p.m == nil || p.m.States[state] == nil {
		return nil
	}
	return p.m.States[state].Steps
}

// collapse joins the summary's words with single spaces (Go's Unicode
// White_Space split, as projection.md §5 requires).
func collapse(s *string) string {
	if s == nil {
		return ""
	}
	return strings.Join(strings.Fields(*s), " ")
}
