package semdiff

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/compiler"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/render"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/workflow"
)

// Impact says what a workflow change does to the flow document it projects
// (compiler.Project, without a step map: groups and retreats come from the
// workflow alone) and to its diagram (render.DOT and render.Mermaid).
type Impact struct {
	Flow    FlowImpact    `json:"flow"`
	Diagram DiagramImpact `json:"diagram"`
}

// FlowImpact compares the groups of the two projected flow documents.
type FlowImpact struct {
	// Line says it in one line: "flow: unchanged", "flow: group added
	// `intake`; retreat gained `implement-to-review`".
	Line string `json:"line"`
	// GroupsAdded and GroupsRemoved list group ids, in id order.
	GroupsAdded   []string `json:"groups_added"`
	GroupsRemoved []string `json:"groups_removed"`
	// Renested lists the groups both flows hold under another parent.
	Renested []Renest `json:"renested"`
	// RetreatsGained and RetreatsLost list repeating groups (the projection
	// of retreats), in id order.
	RetreatsGained []string `json:"retreats_gained"`
	RetreatsLost   []string `json:"retreats_lost"`
	// Reordered says the groups both flows hold run in another order.
	Reordered bool `json:"reordered"`
}

// Renest is a group that moved to another parent; parents are `root` or
// the id of a repeating group.
type Renest struct {
	Group string `json:"group"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// DiagramImpact says what changes in the picture.
type DiagramImpact struct {
	// Line says it in one line: "diagram: unchanged", "diagram: 1 state
	// added; 2 arrows added; 1 label reworded with the same meaning".
	Line string `json:"line"`
}

func workflowImpact(old, new *workflow.Workflow) *Impact {
	new = underIdentityOf(new, old)
	return &Impact{Flow: flowImpact(old, new), Diagram: diagramImpact(old, new)}
}

// underIdentityOf returns w under the id and version of other. The flow
// document and the diagram name the workflow (`id:`, `digraph "id"`), so
// two files whose ids differ (the `id` field, reported on its own) would
// otherwise show a changed text and a redrawn diagram — "arrows drawn in
// another order" — where nothing the flow runs or the diagram draws moved.
// w itself is left as it is: the copy is shallow, and only read.
func underIdentityOf(w, other *workflow.Workflow) *workflow.Workflow {
	if w.ID == other.ID && w.Version == other.Version {
		return w
	}
	c := *w
	c.ID, c.Version = other.ID, other.Version
	return &c
}

// group is where a group sits in a projected flow.
type group struct {
	parent  string
	retreat bool
}

// projected is a workflow's flow document: its groups by id, the order of
// its groups, and its bytes; nil groups when the workflow projects to
// nothing (every state terminal).
type projected struct {
	groups map[string]group
	order  []string
	text   []byte
}

func project(w *workflow.Workflow) projected {
	p, _ := compiler.Project(w, compiler.Options{})
	if p == nil {
		return projected{}
	}
	out := projected{groups: map[string]group{}}
	var walk func(parent string, nodes []*flow.Node)
	walk = func(parent string, nodes []*flow.Node) {
		for _, n := range nodes {
			if !n.IsGroup() {
				continue
			}
			id := n.ID
			if _, dup := out.groups[id]; dup {
				id += "@" + parent // a state named like a repeating group
			}
			out.groups[id] = group{parent: parent, retreat: n.Repeat > 0}
			out.order = append(out.order, id)
			walk(n.ID, n.Nodes)
		}
	}
	walk("root", p.Document.Root.Nodes)
	var b bytes.Buffer
	if flow.WriteYAML(&b, nil, p.Document) == nil {
		out.text = b.Bytes()
	}
	return out
}

func flowImpact(oldW, newW *workflow.Workflow) FlowImpact {
	old, new := project(oldW), project(newW)
	fi := FlowImpact{}
	for _, id := range unionKeys(slices.Sorted(maps.Keys(old.groups)), slices.Sorted(maps.Keys(new.groups))) {
		o, inOld := old.groups[id]
		n, inNew := new.groups[id]
		switch {
		case !inOld:
			fi.GroupsAdded = append(fi.GroupsAdded, id)
		case !inNew:
			fi.GroupsRemoved = append(fi.GroupsRemoved, id)
		case o.parent != n.parent:
			fi.Renested = append(fi.Renested, Renest{id, o.parent, n.parent})
		}
		if n.retreat && !(inOld && o.retreat) {
			fi.RetreatsGained = append(fi.RetreatsGained, id)
		}
		if o.retreat && !(inNew && n.retreat) {
			fi.RetreatsLost = append(fi.RetreatsLost, id)
		}
	}
	inBoth := func(p projected, other projected) []string {
		return slices.DeleteFunc(slices.Clone(p.order), func(id string) bool { _, ok := other.groups[id]; return !ok })
	}
	fi.Reordered = !slices.Equal(inBoth(old, new), inBoth(new, old))
	fi.Line = fi.line(old, new)
	fi.GroupsAdded, fi.GroupsRemoved, fi.Renested = nonNil(fi.GroupsAdded), nonNil(fi.GroupsRemoved), nonNil(fi.Renested)
	fi.RetreatsGained, fi.RetreatsLost = nonNil(fi.RetreatsGained), nonNil(fi.RetreatsLost)
	return fi
}

func (fi FlowImpact) line(old, new projected) string {
	var parts []string
	switch {
	case old.groups == nil && new.groups == nil:
		return "flow: neither version projects anything to run (every state is terminal)"
	case old.groups == nil:
		parts = append(parts, "the old version projected nothing to run")
	case new.groups == nil:
		parts = append(parts, "the new version projects nothing to run (every state is terminal)")
	}
	parts = appendNamed(parts, "group added", "groups added", fi.GroupsAdded)
	parts = appendNamed(parts, "group removed", "groups removed", fi.GroupsRemoved)
	if len(fi.Renested) > 0 {
		var moves []string
		for _, r := range fi.Renested {
			moves = append(moves, fmt.Sprintf("`%s` (`%s` → `%s`)", r.Group, r.Old, r.New))
		}
		parts = append(parts, "re-nested "+strings.Join(moves, ", "))
	}
	parts = appendNamed(parts, "retreat gained", "retreats gained", fi.RetreatsGained)
	parts = appendNamed(parts, "retreat lost", "retreats lost", fi.RetreatsLost)
	if fi.Reordered {
		parts = append(parts, "groups run in another order")
	}
	switch {
	case len(parts) > 0:
		return "flow: " + strings.Join(parts, "; ")
	case bytes.Equal(old.text, new.text) && old.text != nil:
		return "flow: unchanged"
	}
	return "flow: same groups and retreats; the text of its steps changed"
}

// appendNamed adds "<what> `a`, `b`" to parts when names is not empty.
func appendNamed(parts []string, one, many string, names []string) []string {
	if len(names) == 0 {
		return parts
	}
	what := many
	if len(names) == 1 {
		what = one
	}
	return append(parts, what+" "+ticked(names))
}

// ticked joins names in backticks.
func ticked(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return strings.Join(out, ", ")
}

// drawing returns a diagram's DOT and Mermaid text without their first
// line, which names the version.
func drawing(w *workflow.Workflow) [2][]byte {
	strip := func(b []byte) []byte {
		if _, rest, ok := bytes.Cut(b, []byte("\n")); ok {
			return rest
		}
		return b
	}
	return [2][]byte{strip(render.DOT(w, render.Options{})), strip(render.Mermaid(w, render.Options{}))}
}

func diagramImpact(old, new *workflow.Workflow) DiagramImpact {
	do, dn := drawing(old), drawing(new)
	if bytes.Equal(do[0], dn[0]) && bytes.Equal(do[1], dn[1]) {
		return DiagramImpact{Line: "diagram: unchanged"}
	}
	var parts []string
	lo, ln := workflow.ComputeLayout(old), workflow.ComputeLayout(new)
	var added, removed, retitled, reshaped, notes, moved int
	for _, id := range unionKeys(old.StateIDs(), new.StateIDs()) {
		o, n := old.States[id], new.States[id]
		switch {
		case o == nil:
			added++
		case n == nil:
			removed++
		default:
			retitled += btoi(o.Title != n.Title)
			reshaped += btoi(o.Terminal != n.Terminal)
			notes += btoi(!slices.Equal(reqtext.Render.Lines(o.Requires), reqtext.Render.Lines(n.Requires)))
			moved += btoi(lo.Layer(id) != ln.Layer(id) || lo.Column(id) != ln.Column(id))
		}
	}
	parts = appendCount(parts, added, "state added", "states added")
	parts = appendCount(parts, removed, "state removed", "states removed")
	parts = appendCount(parts, retitled, "state retitled", "states retitled")
	parts = appendCount(parts, reshaped, "state changed shape (terminal)", "states changed shape (terminal)")
	parts = appendCount(parts, notes, "note of requirements changed", "notes of requirements changed")
	parts = append(parts, arrowParts(old, new, lo, ln)...)
	if lo.Depth != ln.Depth {
		parts = append(parts, fmt.Sprintf("layers %d → %d", lo.Depth, ln.Depth))
	}
	parts = appendCount(parts, moved, "state moved in the layout", "states moved in the layout")
	if len(parts) == 0 {
		parts = append(parts, "arrows drawn in another order")
	}
	return DiagramImpact{Line: "diagram: " + strings.Join(parts, "; ")}
}

// arrowParts counts the arrows added and removed, the labels changed (and
// of those, reworded with the same meaning) and the arrows that start or
// stop being drawn as retreats.
func arrowParts(old, new *workflow.Workflow, lo, ln *workflow.Layout) []string {
	o, n := keyTransitions(old), keyTransitions(new)
	var added, removed, relabelled, reworded, dashed, undashed int
	for _, k := range o.keys {
		if n.byKey[k] == nil {
			removed++
		}
	}
	for _, k := range n.keys {
		ot, nt := o.byKey[k], n.byKey[k]
		if ot == nil {
			added++
			continue
		}
		if label(ot) != label(nt) {
			relabelled++
			reworded += btoi(predicate.Equivalent(guardOf(ot), guardOf(nt)))
		}
		wasBack, isBack := lo.IsBack(k.from, k.to), ln.IsBack(k.from, k.to)
		dashed += btoi(isBack && !wasBack)
		undashed += btoi(wasBack && !isBack)
	}
	var parts []string
	parts = appendCount(parts, added, "arrow added", "arrows added")
	parts = appendCount(parts, removed, "arrow removed", "arrows removed")
	if relabelled > 0 {
		p := count(relabelled, "label") + " changed"
		if reworded > 0 {
			p += fmt.Sprintf(" (%d reworded with the same meaning)", reworded)
		}
		parts = append(parts, p)
	}
	parts = appendCount(parts, dashed, "arrow now dashed as a retreat", "arrows now dashed as retreats")
	parts = appendCount(parts, undashed, "arrow no longer a retreat", "arrows no longer retreats")
	return parts
}

// label is what the diagram writes on an arrow: the guard's display, none
// when unguarded.
func label(t *workflow.Transition) string {
	if !t.Guarded() {
		return ""
	}
	return t.When.String()
}

func appendCount(parts []string, n int, one, many string) []string {
	switch {
	case n == 0:
		return parts
	case n == 1:
		return append(parts, "1 "+one)
	}
	return append(parts, fmt.Sprintf("%d %s", n, many))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
