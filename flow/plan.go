package flow

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// Plan is the harness's plan of a checked document (flow-format.md §4): the
// layers of every group and its bound after `--max-attempts`.
type Plan struct {
	// Flow is the document's top-level id.
	Flow string
	// Root is the root group's plan.
	Root *GroupPlan
}

// GroupPlan is one group's plan.
type GroupPlan struct {
	// ID is the group's id, Path its dotted path.
	ID, Path string
	// Attempts is `repeat.max` (1 when absent) or the override.
	Attempts int
	// Layers holds the child ids of each layer, in declaration order.
	Layers [][]string
	// Groups are the child groups' plans, sorted by id in byte order.
	Groups []*GroupPlan
}

// NewPlan layers every group of doc (§4.1). maxAttempts, when positive,
// overrides every group's bound, the root's included. A document that went
// through Check always plans; flow_cycle is returned for one that did not.
func NewPlan(doc *Document, maxAttempts int) (*Plan, diag.List) {
	var ds diag.List
	root := planGroup(doc.Root, doc.Root.ID, maxAttempts, &ds)
	if ds.HasErrors() {
		return nil, ds
	}
	return &Plan{Flow: doc.ID, Root: root}, nil
}

func planGroup(g *Node, path string, maxAttempts int, ds *diag.List) *GroupPlan {
	p := &GroupPlan{ID: g.ID, Path: path, Attempts: max(g.Repeat, 1)}
	if maxAttempts > 0 {
		p.Attempts = maxAttempts
	}
	hs := make([]*hnode, len(g.Nodes))
	for i, c := range g.Nodes {
		hs[i] = &hnode{id: c.ID, needs: c.Needs}
	}
	layers, stuck := layer(hs)
	if len(stuck) > 0 {
		ids := make([]string, len(stuck))
		for i, k := range stuck {
			ids[i] = hs[k].id
		}
		ds.Add(diag.Errorf("flow_cycle", "the nodes of `%s` cannot be layered; stuck: `%s` (a cycle and the nodes waiting on it)",
			path, strings.Join(ids, " -> ")).WithPath(path))
		return nil
	}
	for _, l := range layers {
		ids := make([]string, len(l))
		for i, k := range l {
			ids[i] = g.Nodes[k].ID
		}
		p.Layers = append(p.Layers, ids)
	}
	for _, c := range g.Nodes {
		if c.IsGroup() {
			if cp := planGroup(c, path+"."+c.ID, maxAttempts, ds); cp != nil {
				p.Groups = append(p.Groups, cp)
			}
		}
	}
	slices.SortStableFunc(p.Groups, func(a, b *GroupPlan) int { return strings.Compare(a.ID, b.ID) })
	return p
}

// WriteText writes the plan in the harness's text shape (§4.2): the flow id,
// then each group's path indented two spaces per depth (with
// ` (repeat: max N)` when it has more than one attempt), its numbered
// layers two spaces deeper, and its child groups sorted by id. The flow
// id, the one text a valid document may fill with any character, is
// escaped (diag.EscapeText) so that a line break in it cannot forge plan
// lines, nor an escape sequence reach the terminal; node ids are made of
// `[A-Za-z0-9_-]` already (the strict checks).
func (p *Plan) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString(diag.EscapeText(p.Flow) + "\n")
	writeGroupText(&b, p.Root, 1)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGroupText(b *strings.Builder, g *GroupPlan, depth int) {
	ind := strings.Repeat("  ", depth)
	b.WriteString(ind + g.Path)
	if g.Attempts > 1 {
		fmt.Fprintf(b, " (repeat: max %d)", g.Attempts)
	}
	b.WriteString("\n")
	for k, l := range g.Layers {
		fmt.Fprintf(b, "%s  %d. %s\n", ind, k+1, strings.Join(l, ", "))
	}
	for _, c := range g.Groups {
		writeGroupText(b, c, depth+1)
	}
}

// jsonGroup is the §4.3 shape of a group's plan.
type jsonGroup struct {
	Path     string                `json:"path"`
	Attempts int                   `json:"attempts"`
	Layers   [][]string            `json:"layers"`
	Groups   map[string]*jsonGroup `json:"groups"`
}

func toJSONGroup(g *GroupPlan) *jsonGroup {
	j := &jsonGroup{Path: g.Path, Attempts: g.Attempts, Layers: g.Layers, Groups: map[string]*jsonGroup{}}
	if j.Layers == nil {
		j.Layers = [][]string{}
	}
	for _, c := range g.Groups {
		j.Groups[c.ID] = toJSONGroup(c)
	}
	return j
}

// WriteJSON writes the plan as the one line
// `{"kind":"plan","flow":…,"plan":P}` of §4.3, followed by "\n".
func (p *Plan) WriteJSON(w io.Writer) error {
	return writeJSONLine(w, struct {
		Kind string     `json:"kind"`
		Flow string     `json:"flow"`
		Plan *jsonGroup `json:"plan"`
	}{"plan", p.Flow, toJSONGroup(p.Root)})
}

// WriteRefusedJSON writes the one-line refusal of §4.3,
// `{"kind":"refused","reason":…,"code":…}`, for the first error of ds (the
// one the harness would report).
func WriteRefusedJSON(w io.Writer, ds diag.List) error {
	var first diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			first = d
			break
		}
	}
	return writeJSONLine(w, struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
		Code   string `json:"code"`
	}{"refused", first.Message, first.Code})
}

func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
