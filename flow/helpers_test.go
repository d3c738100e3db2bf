package flow

import "reflect"

// stripComments returns the document as a reader sees it after WriteYAML:
// no comments (the reader never fills them), no `run` the writer leaves out,
// and the default harness on llm steps.
func stripComments(d *Document) *Document {
	return &Document{ID: d.ID, Root: canonicalNode(d.Root)}
}

func canonicalNode(n *Node) *Node {
	out := *n
	out.Comment = ""
	if n.Nodes != nil {
		out.Nodes = make([]*Node, len(n.Nodes))
		for i, c := range n.Nodes {
			out.Nodes[i] = canonicalNode(c)
		}
	}
	if !writesRun(n.Run) {
		out.Run = nil
	} else {
		r := *n.Run
		if r.Kind == KindLLM && r.Harness == "" {
			r.Harness = DefaultHarness
		}
		out.Run = &r
	}
	return &out
}

func equalDocument(a, b *Document) bool { return reflect.DeepEqual(a, b) }
