package flow

import (
	"fmt"

	"github.com/aepflow/aepflow/diag"
)

// hnode is a node as the harness decodes it (flow-format.md §3.1): a group
// when the group shape fits, else a step, unknown keys ignored. A node with
// `nodes` whose group fields are malformed silently becomes a step; the
// strict checks (§3.2) exist to report exactly that.
type hnode struct {
	v      *Value
	id     string
	needs  []string
	group  bool
	repeat int // -1 when absent or null
	gives  []string
	nodes  []*hnode
	run    *Value // nil when absent or null
	path   string
}

// problem is why a value does not fit a shape.
type problem struct {
	pos diag.Pos
	msg string
}

func problemf(v *Value, format string, args ...any) *problem {
	return &problem{pos: v.Pos, msg: fmt.Sprintf(format, args...)}
}

// decodeTop decodes the top-level object: `id` a string, `root` a group.
func decodeTop(v *Value) (string, *hnode, *problem) {
	if v.Kind != ObjectValue {
		return "", nil, problemf(v, "the document is %s, not an object with `id` and `root`", v.aType())
	}
	idv, ok := v.Get("id")
	if !ok {
		return "", nil, problemf(v, "missing top-level key `id`")
	}
	if idv.Kind != StringValue {
		return "", nil, problemf(idv, "top-level `id` is %s, not a string", idv.aType())
	}
	rv, ok := v.Get("root")
	if !ok {
		return "", nil, problemf(v, "missing top-level key `root`")
	}
	root, p := decodeGroup(rv)
	if p != nil {
		return "", nil, &problem{pos: p.pos, msg: "`root` is not a valid group: " + p.msg}
	}
	return idv.Text, root, nil
}

// decodeNode tries the group shape, then the step shape.
func decodeNode(v *Value) (*hnode, *problem) {
	g, gp := decodeGroup(v)
	if gp == nil {
		return g, nil
	}
	s, sp := decodeStep(v)
	if sp == nil {
		return s, nil
	}
	if v.Has("nodes") {
		return nil, gp
	}
	return nil, sp
}

// decodeCommon reads the `id` and `needs` shared by both shapes.
func decodeCommon(v *Value) (*hnode, *problem) {
	if v.Kind != ObjectValue {
		return nil, problemf(v, "a node is %s, not an object", v.aType())
	}
	n := &hnode{v: v, repeat: -1}
	idv, ok := v.Get("id")
	if !ok {
		return nil, problemf(v, "a node has no `id`")
	}
	if idv.Kind != StringValue {
		return nil, problemf(idv, "a node's `id` is %s, not a string", idv.aType())
	}
	n.id = idv.Text
	if nv, ok := v.Get("needs"); ok {
		needs, ok := nv.stringList()
		if !ok {
			return nil, problemf(nv, "`needs` of `%s` is not an array of strings", n.id)
		}
		n.needs = needs
	}
	return n, nil
}

func decodeStep(v *Value) (*hnode, *problem) {
	n, p := decodeCommon(v)
	if p != nil {
		return nil, p
	}
	if rv, ok := v.Get("run"); ok && rv.Kind != NullValue {
		n.run = rv
	}
	return n, nil
}

func decodeGroup(v *Value) (*hnode, *problem) {
	n, p := decodeCommon(v)
	if p != nil {
		return nil, p
	}
	n.group = true
	if rv, ok := v.Get("repeat"); ok && rv.Kind != NullValue {
		if rv.Kind != ObjectValue {
			return nil, problemf(rv, "`repeat` of `%s` is %s, not an object", n.id, rv.aType())
		}
		mv, ok := rv.Get("max")
		if !ok {
			return nil, problemf(rv, "`repeat` of `%s` has no `max`", n.id)
		}
		max, ok := mv.uint32Value()
		if !ok {
			return nil, problemf(mv, "`repeat.max` of `%s` is %s, not an integer in 0..4294967295", n.id, mv.describe())
		}
		n.repeat = max
	}
	if gv, ok := v.Get("gives"); ok {
		gives, ok := gv.stringList()
		if !ok {
			return nil, problemf(gv, "`gives` of `%s` is not an array of strings", n.id)
		}
		n.gives = gives
	}
	nv, ok := v.Get("nodes")
	if !ok {
		return nil, problemf(v, "`%s` has no `nodes`", n.id)
	}
	if nv.Kind != ArrayValue {
		return nil, problemf(nv, "`nodes` of `%s` is %s, not an array", n.id, nv.aType())
	}
	n.nodes = make([]*hnode, 0, len(nv.Items))
	for _, it := range nv.Items {
		c, p := decodeNode(it)
		if p != nil {
			return nil, p
		}
		n.nodes = append(n.nodes, c)
	}
	return n, nil
}
