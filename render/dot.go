package render

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/aepflow/aepflow/workflow"
)

// initialNode is the DOT name of the initial marker; it cannot clash with a
// state, whose ids start with a lowercase letter.
const initialNode = "__initial"

// Overlay colours of rendering.md §5.3.
const (
	fillVisited  = "#e5e7eb"
	fillCurrent  = "#bfdbfe"
	fillStopped  = "#fecaca"
	fillDone     = "#bbf7d0"
	colorRetrace = "#d97706"
)

// DOT returns the workflow as Graphviz DOT text (rendering.md §3): a byte-
// stable document ending with a newline.
func DOT(w *workflow.Workflow, opts Options) []byte {
	s := newScene(w, opts)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s/%d: generated from the workflow document; do not edit.\n", oneLine(w.ID), w.Version)
	fmt.Fprintf(&b, "digraph %s {\n", dq(w.ID))
	b.WriteString("  graph [rankdir=TB];\n")
	b.WriteString("  node [shape=box, style=rounded];\n")
	fmt.Fprintf(&b, "  %s [shape=point, label=\"\"];\n", dq(initialNode))
	top := s.nodes
	if opts.ClusterPhases {
		top = writeClusters(&b, s.nodes, opts.Tooltips)
	}
	for _, n := range top {
		writeNode(&b, "  ", n, opts.Tooltips)
	}
	fmt.Fprintf(&b, "  %s -> %s;\n", dq(initialNode), dq(w.Initial))
	for _, e := range s.edges {
		writeEdge(&b, e, opts.Tooltips)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// writeClusters writes one cluster per phase (each state in the cluster of
// its first phase in byte order) and returns the states without a phase.
func writeClusters(b *bytes.Buffer, nodes []node, tooltips bool) []node {
	byPhase := map[string][]node{}
	var rest []node
	for _, n := range nodes {
		if len(n.phases) == 0 {
			rest = append(rest, n)
			continue
		}
		first := n.phases[0]
		for _, p := range n.phases[1:] {
			if p < first {
				first = p
			}
		}
		byPhase[first] = append(byPhase[first], n)
	}
	phases := make([]string, 0, len(byPhase))
	for p := range byPhase {
		phases = append(phases, p)
	}
	sort.Strings(phases)
	for _, p := range phases {
		fmt.Fprintf(b, "  subgraph %s {\n", dq("cluster_"+p))
		fmt.Fprintf(b, "    label=%s;\n", dq(p))
		for _, n := range byPhase[p] {
			writeNode(b, "    ", n, tooltips)
		}
		b.WriteString("  }\n")
	}
	return rest
}

// writeNode writes one state statement.
func writeNode(b *bytes.Buffer, indent string, n node, tooltips bool) {
	attrs := []string{"label=" + dq(n.title)}
	if n.terminal {
		attrs = append(attrs, "shape=doublecircle")
	}
	if tooltips && len(n.lines) > 0 {
		attrs = append(attrs, "tooltip="+dq(tooltip(n.lines)))
	}
	switch n.accent {
	case visited:
		attrs = append(attrs, `style="rounded,filled"`, `fillcolor="`+fillVisited+`"`)
	case current:
		attrs = append(attrs, `style="rounded,filled,bold"`, `fillcolor="`+fillCurrent+`"`)
	case stopped:
		attrs = append(attrs, `style="rounded,filled,bold"`, `fillcolor="`+fillStopped+`"`)
	case done:
		attrs = append(attrs, `style="rounded,filled,bold"`, `fillcolor="`+fillDone+`"`)
	}
	fmt.Fprintf(b, "%s%s [%s];\n", indent, dq(n.id), strings.Join(attrs, ", "))
}

// writeEdge writes one transition statement.
func writeEdge(b *bytes.Buffer, e edge, tooltips bool) {
	var attrs []string
	if e.guard != "" {
		attrs = append(attrs, "label="+dq(e.guard))
	}
	if e.retreat {
		attrs = append(attrs, "style=dashed", "constraint=false")
	}
	if tooltips && len(e.lines) > 0 {
		attrs = append(attrs, "tooltip="+dq(tooltip(e.lines)))
	}
	if e.taken > 0 {
		if e.retreat {
			attrs = append(attrs, `color="`+colorRetrace+`"`)
		}
		attrs = append(attrs, "penwidth=2")
	}
	if len(attrs) == 0 {
		fmt.Fprintf(b, "  %s -> %s;\n", dq(e.from), dq(e.to))
		return
	}
	fmt.Fprintf(b, "  %s -> %s [%s];\n", dq(e.from), dq(e.to), strings.Join(attrs, ", "))
}

// tooltip joins requirement lines under a heading, one per line.
func tooltip(lines []string) string {
	return "needs " + strings.Join(lines, "\nneeds ")
}

// dq quotes s as a DOT string (rendering.md §3.1): `\` → `\\` (Graphviz
// would expand `\N`, `\G`, `\L`… in labels), `"` → `\"`, CR LF, LF and CR →
// `\n`. Other control characters, which §3.1 does not mention, become a
// space: Graphviz's lexer stops a string at NUL. Invalid UTF-8 becomes
// U+FFFD.
func dq(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"':
			b.WriteString(`\"`)
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString(`\n`)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20 || c == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// oneLine makes s safe inside a `//` comment line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
