package flow

import (
	"bytes"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// CheckOptions tunes Check.
type CheckOptions struct {
	// MaxAttempts, when positive, overrides every group's `repeat.max`, the
	// root's included, before the structural checks (so a `max: 0` in the
	// file is never reported), as the harness's `--max-attempts` does.
	MaxAttempts int
	// Governed also enforces the naming a governor relies on
	// (flow_state_name, flow-format.md §7.6).
	Governed bool
	// FindingsOnly skips building the Document: Check returns the
	// diagnostics alone (the generator's self-check needs nothing else).
	FindingsOnly bool
}

// Check runs the stages of flow-format.md §2–§3 on raw: the decode into the
// harness's shapes (a malformed root is flow_parse_error), the structural
// checks (§2.1), the payload checks (§2.2) and the strict checks (§3.2). A
// stage runs only when the earlier ones found nothing; each stage reports all
// of its findings, §2 in the harness's order (its first finding is the one
// the harness prints) and §3.2 sorted by path then code. The Document is
// returned only when no error was found (and FindingsOnly is not set); warnings
// come with it.
func Check(raw *Raw, opts CheckOptions) (*Document, diag.List) {
	c := &checker{file: raw.File, opts: opts}
	id, root, p := decodeTop(raw.Root)
	if p != nil {
		return nil, diag.List{*parseError(raw.File, raw.Format, p.pos, p.msg)}
	}
	if opts.MaxAttempts > 0 {
		overrideRepeat(root, opts.MaxAttempts)
	}
	c.structural(raw.Root, id, root)
	if c.out.HasErrors() {
		return nil, c.out
	}
	c.payload(root)
	if c.out.HasErrors() {
		return nil, c.out
	}
	c.strict(raw.Root)
	if c.out.HasErrors() || opts.FindingsOnly {
		return nil, c.out
	}
	return &Document{ID: id, Root: toNode(root)}, c.out
}

// CheckBytes reads data as the flow document file (by its extension) and
// checks it.
func CheckBytes(file string, data []byte, opts CheckOptions) (*Document, diag.List) {
	raw, ds := Read(file, data)
	if raw == nil {
		return nil, ds
	}
	return Check(raw, opts)
}

// CheckFile reads the flow document at path and checks it.
func CheckFile(path string, opts CheckOptions) (*Document, diag.List) {
	raw, ds := ReadFile(path)
	if raw == nil {
		return nil, ds
	}
	return Check(raw, opts)
}

// CheckDocument is the generator's self-check (flow-format.md §3.2): it
// writes doc as YAML, the stricter of the two forms (an id `true` reads back
// as a boolean), reads the bytes back and runs every check, not in governed
// mode. The diagnostics keep their paths but no file or position, which
// would point into bytes nobody sees.
func CheckDocument(doc *Document) diag.List {
	var b bytes.Buffer
	if err := WriteYAML(&b, nil, doc); err != nil {
		return diag.List{diag.Errorf("flow_parse_error", "the document cannot be written: %v", err)}
	}
	_, ds := CheckBytes("generated.yaml", b.Bytes(), CheckOptions{FindingsOnly: true})
	for i := range ds {
		ds[i].File, ds[i].Pos, ds[i].Related = "", diag.Pos{}, nil
	}
	return ds
}

func overrideRepeat(n *hnode, max int) {
	if !n.group {
		return
	}
	n.repeat = max
	for _, c := range n.nodes {
		overrideRepeat(c, max)
	}
}

// checker collects the findings of one Check.
type checker struct {
	file string
	opts CheckOptions
	out  diag.List
}

func (c *checker) add(d diag.Diagnostic, path string, pos diag.Pos) {
	c.out.Add(d.At(c.file, pos).WithPath(path))
}

// structural runs §2.1 in its exact order.
func (c *checker) structural(top *Value, id string, root *hnode) {
	if strings.TrimSpace(id) == "" {
		idv, _ := top.Get("id")
		c.add(diag.Errorf("flow_blank_id", "the top-level `id` is blank"), "<flow>", idv.Pos)
	}
	root.path = root.id
	if strings.Contains(root.id, ".") {
		c.add(diag.Errorf("flow_dotted_id", "the root's id `%s` contains `.`, which joins node paths", root.id),
			"<root>", idPos(root))
	}
	if len(root.gives) > 0 {
		gv, _ := root.v.Get("gives")
		c.add(diag.Errorf("flow_root_gives", "the root `%s` declares `gives` (%s) but hands nothing to anyone; it must be empty",
			root.path, ticks(root.gives)), root.path, gv.Pos)
	}
	c.group(root)
}

func idPos(n *hnode) diag.Pos {
	if v, ok := n.v.Get("id"); ok {
		return v.Pos
	}
	return n.v.Pos
}

// group checks group g completely before visiting its child groups.
func (c *checker) group(g *hnode) {
	if len(g.nodes) == 0 {
		nv, _ := g.v.Get("nodes")
		c.add(diag.Errorf("flow_empty_group", "group `%s` holds no nodes", g.path), g.path, nv.Pos)
	}
	seen := map[string]bool{}
	for _, n := range g.nodes {
		n.path = g.path + "." + n.id
		if strings.Contains(n.id, ".") {
			c.add(diag.Errorf("flow_dotted_id", "id `%s` in `%s` contains `.`, which joins node paths", n.id, g.path),
				g.path, idPos(n))
		}
		if seen[n.id] {
			c.add(diag.Errorf("flow_duplicate_id", "`%s` declares `%s` twice; ids must be unique among siblings", g.path, n.id),
				g.path, idPos(n))
		}
		seen[n.id] = true
	}
	for _, n := range g.nodes {
		nv, _ := n.v.Get("needs")
		for i, need := range n.needs {
			switch {
			case need == n.id:
				c.add(diag.Errorf("flow_self_need", "`%s` needs itself", n.path), n.path, nv.Items[i].Pos)
			case !seen[need]:
				c.add(diag.Errorf("flow_unknown_need",
					"`%s` needs `%s`, which is not one of its siblings; edges may only join siblings (to wait for work inside another group, need the group)",
					n.path, need), n.path, nv.Items[i].Pos)
			}
		}
	}
	if g.repeat == 0 {
		rv, _ := g.v.Get("repeat")
		mv, _ := rv.Get("max")
		c.add(diag.Errorf("flow_repeat_zero", "group `%s` has `repeat: {max: 0}`; the minimum is 1 (attempts include the first)", g.path),
			g.path, mv.Pos)
	}
	if _, stuck := layer(g.nodes); len(stuck) > 0 {
		ids := make([]string, len(stuck))
		for i, k := range stuck {
			ids[i] = g.nodes[k].id
		}
		c.add(diag.Errorf("flow_cycle", "the nodes of `%s` cannot be layered; stuck: `%s` (a cycle and the nodes waiting on it)",
			g.path, strings.Join(ids, " -> ")), g.path, g.v.Pos)
	}
	for _, n := range g.nodes {
		if n.group {
			c.group(n)
		}
	}
}

// layer runs flow-format.md §4.1 over one group's children and returns the
// layers as declaration indexes, or the stuck nodes in declaration order
// when it stalls. Needs naming no sibling or the node itself are left out:
// they are reported by their own codes and would only repeat them as a cycle.
//
// It computes the specification's rounds without rescanning the group each
// round (which is quadratic on a chain): a node becomes ready in the round
// after the last of its needs is first placed. An id shared by duplicates
// counts as done once any of them is placed, as the harness keys `done` by
// id.
func layer(nodes []*hnode) (layers [][]int, stuck []int) {
	index := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		index[n.id] = true
	}
	pending := make([]int, len(nodes))
	dependents := map[string][]int{}
	var ready []int
	for i, n := range nodes {
		for _, need := range distinctNeeds(n, index) {
			pending[i]++
			dependents[need] = append(dependents[need], i)
		}
		if pending[i] == 0 {
			ready = append(ready, i)
		}
	}
	placed, done := 0, map[string]bool{}
	for len(ready) > 0 {
		layers = append(layers, ready)
		placed += len(ready)
		var next []int
		for _, i := range ready {
			if done[nodes[i].id] {
				continue
			}
			done[nodes[i].id] = true
			for _, d := range dependents[nodes[i].id] {
				if pending[d]--; pending[d] == 0 {
					next = append(next, d)
				}
			}
		}
		slices.Sort(next)
		ready = next
	}
	if placed == len(nodes) {
		return layers, nil
	}
	inLayer := make([]bool, len(nodes))
	for _, l := range layers {
		for _, i := range l {
			inLayer[i] = true
		}
	}
	for i := range nodes {
		if !inLayer[i] {
			stuck = append(stuck, i)
		}
	}
	return layers, stuck
}

// distinctNeeds returns the needs of n that name a sibling (index) other
// than n itself, each once, in order. Needs lists are short and scanned; a
// long one (only a hostile document has them) goes through a set.
func distinctNeeds(n *hnode, index map[string]bool) []string {
	var out []string
	var seen map[string]bool
	if len(n.needs) > 16 {
		seen = make(map[string]bool, len(n.needs))
	}
	for _, need := range n.needs {
		if need == n.id || !index[need] {
			continue
		}
		if seen != nil {
			if seen[need] {
				continue
			}
			seen[need] = true
		} else if slices.Contains(out, need) {
			continue
		}
		out = append(out, need)
	}
	return out
}

// ticks renders names as "`a`, `b`".
func ticks(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// ---- payload (§2.2) ----

var kinds = []string{KindCommand, KindLLM, KindOperator}

const kindWords = "`command`, `llm` or `operator`"

// payload visits the steps depth-first in declaration order.
func (c *checker) payload(n *hnode) {
	if n.group {
		for _, ch := range n.nodes {
			c.payload(ch)
		}
		return
	}
	if n.run == nil {
		return
	}
	r := n.run
	if r.Kind != ObjectValue {
		c.add(diag.Errorf("flow_run_not_object", "`run` of `%s` is %s; it must be an object, or absent", n.path, r.aType()),
			n.path, r.Pos)
		return
	}
	kind := KindLLM
	if kv, ok := r.Get("kind"); ok && kv.Kind != NullValue {
		switch {
		case kv.Kind != StringValue:
			c.add(diag.Errorf("flow_kind_not_string", "`kind` of `%s` is %s; expected %s", n.path, kv.aType(), kindWords),
				n.path, kv.Pos)
			kind = ""
		case !slices.Contains(kinds, kv.Text):
			c.add(diag.Errorf("flow_kind_unknown", "`kind` of `%s` is `%s`; expected %s", n.path, kv.Text, kindWords),
				n.path, kv.Pos)
			kind = ""
		default:
			kind = kv.Text
		}
	}
	switch kind {
	case KindOperator:
		if pv, ok := r.Get("prompt"); !ok || pv.Kind != StringValue || strings.TrimSpace(pv.Text) == "" {
			c.add(diag.Errorf("flow_operator_no_prompt", "operator step `%s` has no non-empty string `prompt`; a person needs a prompt to act on", n.path),
				n.path, r.Pos)
		}
	case KindCommand:
		c.command(n, r)
	}
	c.scope(n, r)
}

func (c *checker) command(n *hnode, r *Value) {
	cv, ok := r.Get("command")
	if !ok || cv.Kind != ArrayValue {
		pos := r.Pos
		if ok {
			pos = cv.Pos
		}
		c.add(diag.Errorf("flow_command_missing", "command step `%s` has no `command` array (the argv to run)", n.path), n.path, pos)
		return
	}
	if len(cv.Items) == 0 {
		c.add(diag.Errorf("flow_command_empty", "`command` of `%s` is empty; it needs at least the program", n.path), n.path, cv.Pos)
	}
	for i, it := range cv.Items {
		if it.Kind != StringValue {
			c.add(diag.Errorf("flow_command_not_strings", "element %d of `command` of `%s` is %s, not a string", i, n.path, it.aType()),
				n.path, it.Pos)
		}
	}
}

var scopeWords = []string{"allowed", "denied", "partial-only"}

const scopeGrammar = "`<glob>=<allowed|partial-only|denied>`"

func (c *checker) scope(n *hnode, r *Value) {
	sv, ok := r.Get("scope")
	if !ok || sv.Kind == NullValue {
		return
	}
	if sv.Kind != ArrayValue {
		c.add(diag.Errorf("flow_scope_not_list", "`scope` of `%s` is %s; expected an array of rules %s", n.path, sv.aType(), scopeGrammar),
			n.path, sv.Pos)
		return
	}
	for i, it := range sv.Items {
		if it.Kind != StringValue {
			c.add(diag.Errorf("flow_scope_not_string", "element %d of `scope` of `%s` is %s, not a string", i, n.path, it.aType()),
				n.path, it.Pos)
			continue
		}
		if why := badRule(it.Text); why != "" {
			c.add(diag.Errorf("flow_scope_bad_rule", "scope rule %d of `%s`, %q: %s", i, n.path, it.Text, why), n.path, it.Pos)
		}
	}
}

// badRule says which half of a scope rule is wrong, or "" when it is valid.
func badRule(rule string) string {
	k := strings.LastIndex(rule, "=")
	if k < 0 {
		return "no `=` between glob and word; expected " + scopeGrammar
	}
	if strings.TrimSpace(rule[:k]) == "" {
		return "the glob left of `=` is blank"
	}
	if w := strings.TrimSpace(rule[k+1:]); !slices.Contains(scopeWords, w) {
		return "the word right of `=` is `" + w + "`; expected `allowed`, `denied` or `partial-only`"
	}
	return ""
}

// ---- conversion ----

// toNode converts a checked harness node into the model.
func toNode(n *hnode) *Node {
	out := &Node{ID: n.id, Needs: nonEmpty(n.needs)}
	if !n.group {
		out.Run = toRun(n.run)
		return out
	}
	if n.repeat > 0 {
		out.Repeat = n.repeat
	}
	out.Gives = nonEmpty(n.gives)
	out.Nodes = make([]*Node, len(n.nodes))
	for i, c := range n.nodes {
		out.Nodes[i] = toNode(c)
	}
	return out
}

func nonEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// toRun keeps the payload keys the model knows; a checked payload has them
// with the right types.
func toRun(v *Value) *Run {
	if v == nil || v.Kind != ObjectValue {
		return nil
	}
	r := &Run{}
	str := func(key string) string {
		if s, ok := v.Get(key); ok && s.Kind == StringValue {
			return s.Text
		}
		return ""
	}
	list := func(key string) []string {
		if s, ok := v.Get(key); ok {
			l, _ := s.stringList()
			return nonEmpty(l)
		}
		return nil
	}
	r.State, r.Summary, r.Kind = str("state"), str("summary"), str("kind")
	r.Prompt, r.Harness = str("prompt"), str("harness")
	r.Context, r.Scope, r.Command = list("context"), list("scope"), list("command")
	if d, ok := v.Get("description"); ok && d.Kind == StringValue {
		r.Description = &d.Text
	}
	if e, ok := v.Get("evidence"); ok && e.Kind == ObjectValue {
		ev := &Evidence{}
		for key, dst := range map[string]*string{"kind": &ev.Kind, "verifier": &ev.Verifier, "suite": &ev.Suite} {
			if s, ok := e.Get(key); ok && s.Kind == StringValue {
				*dst = s.Text
			}
		}
		r.Evidence = ev
	}
	return r
}
