package workflow

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// refLayout is the layout as first written, with maps keyed by state id:
// a direct reading of projection.md §3, kept as the reference the
// index-based ComputeLayout is compared with.
type refLayout struct {
	disc, layer, column map[string]int
	layers              [][]string
	depth               int
	closing             [][2]string
}

func computeRefLayout(w *Workflow) *refLayout {
	ids := w.StateIDs()
	succ := map[string][]string{}
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
	l := &refLayout{disc: map[string]int{}, layer: map[string]int{}, column: map[string]int{}}
	closing := map[[2]string]bool{}
	type frame struct {
		state   string
		pending []string
	}
	open := map[string]bool{}
	var stack []frame
	discover := func(s string) {
		l.disc[s] = len(l.disc)
		open[s] = true
		pending := slices.Clone(succ[s])
		slices.Reverse(pending)
		stack = append(stack, frame{s, pending})
	}
	for _, root := range append([]string{w.Initial}, ids...) {
		_, declared := w.States[root]
		if _, seen := l.disc[root]; !declared || seen {
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
			switch _, seen := l.disc[t]; {
			case open[t]:
				closing[[2]string{f.state, t}] = true
			case seen:
			default:
				discover(t)
			}
		}
	}
	incoming := map[string]int{}
	for _, s := range ids {
		for _, t := range succ[s] {
			if !closing[[2]string{s, t}] {
				incoming[t]++
			}
		}
	}
	var queue []string
	for _, s := range ids {
		l.layer[s] = 0
		if incoming[s] == 0 {
			queue = append(queue, s)
		}
	}
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		for _, t := range succ[s] {
			if closing[[2]string{s, t}] {
				continue
			}
			l.layer[t] = max(l.layer[t], l.layer[s]+1)
			if incoming[t]--; incoming[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	for _, s := range ids {
		l.depth = max(l.depth, l.layer[s]+1)
	}
	l.layers = make([][]string, l.depth)
	for _, s := range ids {
		l.layers[l.layer[s]] = append(l.layers[l.layer[s]], s)
	}
	for _, row := range l.layers {
		slices.SortFunc(row, func(a, b string) int {
			return cmp.Or(cmp.Compare(l.disc[a], l.disc[b]), cmp.Compare(a, b))
		})
		for i, s := range row {
			l.column[s] = i
		}
	}
	for e := range closing {
		l.closing = append(l.closing, e)
	}
	slices.SortFunc(l.closing, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return l
}

// sameAsReference reports the first difference between ComputeLayout and
// the reference, or "".
func sameAsReference(w *Workflow) string {
	got, want := ComputeLayout(w), computeRefLayout(w)
	for _, s := range w.StateIDs() {
		g := [3]int{got.Disc(s), got.Layer(s), got.Column(s)}
		r := [3]int{want.disc[s], want.layer[s], want.column[s]}
		if g != r {
			return fmt.Sprintf("state %s: disc/layer/column %v, reference %v", s, g, r)
		}
	}
	if got.Depth != want.depth {
		return fmt.Sprintf("depth %d, reference %d", got.Depth, want.depth)
	}
	if !slices.EqualFunc(got.Layers, want.layers, slices.Equal) {
		return fmt.Sprintf("layers %v, reference %v", got.Layers, want.layers)
	}
	if c := got.Closing(); !slices.Equal(c, want.closing) {
		return fmt.Sprintf("closing %v, reference %v", c, want.closing)
	}
	return ""
}

// randomWorkflow builds a workflow of n states with random edges (some to
// undeclared states, some duplicated, self-loops included) and a random,
// sometimes undeclared, initial state. It is never validated: the layout
// must agree with the reference on anything.
func randomWorkflow(r *rand.Rand, n int) *Workflow {
	w := &Workflow{States: map[string]*State{}}
	name := func(i int) string { return fmt.Sprintf("s%d", i) }
	for i := range n {
		w.States[name(i)] = &State{ID: name(i)}
	}
	for range r.IntN(3*n + 1) {
		from, to := name(r.IntN(n+1)), name(r.IntN(n+1)) // n is undeclared
		w.Transitions = append(w.Transitions, &Transition{From: from, To: to})
	}
	w.Initial = name(r.IntN(n + 1))
	return w
}

func TestLayoutMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	for i := range 400 {
		w := randomWorkflow(r, 1+i%23)
		if d := sameAsReference(w); d != "" {
			t.Fatalf("random workflow %d: %s", i, d)
		}
	}
	for _, src := range []string{loopWorkflow, genWorkflow(50)} {
		if d := sameAsReference(mustLoad(t, src)); d != "" {
			t.Fatal(d)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "workflow", "ok", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if w, _ := Load(f, data); w != nil {
			if d := sameAsReference(w); d != "" {
				t.Errorf("%s: %s", f, d)
			}
		}
	}
}

// TestDecodeLeavesTheDocument: Decode leaves the parsed document whole (an
// editor reads its nodes afterwards); DecodeReleasing drops every state's
// and transition's nodes and decodes the same workflow.
func TestDecodeLeavesTheDocument(t *testing.T) {
	src := []byte(genWorkflow(30))
	count := func(n *yaml.Node) int {
		c := 0
		var walk func(*yaml.Node)
		walk = func(n *yaml.Node) {
			if n == nil {
				return
			}
			c++
			for _, k := range n.Content {
				walk(k)
			}
		}
		walk(n)
		return c
	}
	doc, _ := yamldoc.Parse("w.yaml", src)
	before := count(doc.Root)
	var diags diag.List
	kept := Decode(doc, &diags)
	if after := count(doc.Root); after != before || diags.HasErrors() {
		t.Fatalf("Decode changed the document: %d nodes, was %d (%v)", after, before, diags)
	}
	doc2, _ := yamldoc.Parse("w.yaml", src)
	released := DecodeReleasing(doc2, &diags)
	if after := count(doc2.Root); after >= before/2 {
		t.Errorf("DecodeReleasing kept %d of %d nodes", after, before)
	}
	if len(released.States) != len(kept.States) || len(released.Transitions) != len(kept.Transitions) || sameAsReference(released) != "" {
		t.Errorf("DecodeReleasing decoded %d states and %d transitions, Decode %d and %d",
			len(released.States), len(released.Transitions), len(kept.States), len(kept.Transitions))
	}
}
