package lsp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// source is one document as the editor features see it: its text and, when
// the YAML parses, its node tree (shape errors do not matter here; a
// syntax error leaves root nil).
type source struct {
	path string
	tx   *text
	doc  *yamldoc.Document
	root *yaml.Node
	ends map[int]int // scalar start offset → end offset, built on first use
}

func newSource(path, s string) *source {
	src := &source{path: path, tx: newText(s)}
	if doc, _ := yamldoc.Parse(path, []byte(s)); doc != nil {
		src.doc, src.root = doc, doc.Root
	}
	return src
}

// extent returns the byte range of scalar n in the text: a plain scalar's
// value as written, a quoted one to its closing quote, a block scalar its
// indicator's line.
func (src *source) extent(n *yaml.Node) (int, int) {
	s := src.tx.s
	start := src.tx.offsetOf(yamldoc.PosOf(n))
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		for i := start + 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
			} else if s[i] == '"' {
				return start, i + 1
			}
		}
	case n.Style&yaml.SingleQuotedStyle != 0:
		for i := start + 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				return start, i + 1
			}
		}
	case n.Style == 0 && strings.HasPrefix(s[start:], n.Value):
		return start, start + len(n.Value)
	}
	return start, tokenEnd(s, start)
}

// tokenEnd returns where the token starting at off ends on its line: at a
// line break, a `: ` or ` #`, or a flow indicator.
func tokenEnd(s string, off int) int {
	i := off
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' ||
			(c == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\r')) ||
			(c == '#' && i > off && s[i-1] == ' ') {
			break
		}
	}
	return off + len(strings.TrimRight(s[off:i], " \t"))
}

// scalarEnd returns the end of the scalar that starts at byte offset off,
// and whether one does; the index is built once per source, so placing
// many diagnostics costs one walk of the tree.
func (src *source) scalarEnd(off int) (int, bool) {
	if src.ends == nil {
		src.ends = map[int]int{}
		src.eachScalar(src.root, func(start, end int) { src.ends[start] = max(src.ends[start], end) })
	}
	end, ok := src.ends[off]
	return end, ok
}

// eachScalar calls f with the extent (start and end byte offsets) of every
// scalar of n's subtree, walking with a stack rather than recursion.
func (src *source) eachScalar(n *yaml.Node, f func(start, end int)) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c == nil {
			continue
		}
		if c.Kind == yaml.ScalarNode {
			f(src.extent(c))
		}
		stack = append(stack, c.Content...)
	}
}

// hit is the scalar under a cursor and where it sits in the document.
type hit struct {
	node *yaml.Node
	// key says the scalar is a mapping key.
	key bool
	// path lists the keys from the root to the scalar's mapping entry,
	// with `[i]` for a sequence item: ["transitions", "[2]", "to"].
	path []string
	// parent is the mapping or sequence holding the scalar.
	parent     *yaml.Node
	start, end int
}

// at returns the scalar whose extent holds byte offset off, or nil.
func (src *source) at(off int) *hit {
	if src.root == nil {
		return nil
	}
	return src.find(src.root, nil, nil, off, false, 0)
}

func (src *source) find(n *yaml.Node, parent *yaml.Node, path []string, off int, key bool, depth int) *hit {
	if n == nil || depth > yamldoc.MaxDepth+1 {
		return nil
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if start, end := src.extent(n); start <= off && off <= end {
			return &hit{node: n, key: key, path: path, parent: parent, start: start, end: end}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(path[:len(path):len(path)], k.Value)
			if h := src.find(k, n, p, off, true, depth+1); h != nil {
				return h
			}
			if h := src.find(v, n, p, off, false, depth+1); h != nil {
				return h
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := append(path[:len(path):len(path)], "["+strconv.Itoa(i)+"]")
			if h := src.find(c, n, p, off, false, depth+1); h != nil {
				return h
			}
		}
	}
	return nil
}

// lookup returns the value node under a path of keys from the root (nil
// when any step is missing).
func lookup(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// keyNode returns the key node of key in mapping n (nil when absent).
func keyNode(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return nil
}

// locate follows a diagnostic's document path below its prefix (such as
// `.states.verify.steps[0].evidence`) and returns the deepest node it
// reaches: a mapping key's node for a key, an item for an index. Keys may
// hold dots (state ids do), so the longest key that fits wins.
func locate(n *yaml.Node, rest string) *yaml.Node {
	var found *yaml.Node
	for depth := 0; rest != "" && n != nil && depth <= yamldoc.MaxDepth; depth++ {
		switch {
		case strings.HasPrefix(rest, "[") && n.Kind == yaml.SequenceNode:
			end := strings.IndexByte(rest, ']')
			i, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil || i < 0 || i >= len(n.Content) {
				return found
			}
			n, found, rest = n.Content[i], n.Content[i], rest[end+1:]
		case strings.HasPrefix(rest, ".") && n.Kind == yaml.MappingNode:
			best := -1
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if tail := rest[1:]; strings.HasPrefix(tail, k) && (len(tail) == len(k) || tail[len(k)] == '.' || tail[len(k)] == '[') &&
					(best < 0 || len(k) > len(n.Content[best].Value)) {
					best = i
				}
			}
			if best < 0 {
				return found
			}
			found, rest = n.Content[best], rest[1+len(n.Content[best].Value):]
			n = n.Content[best+1]
		default:
			return found
		}
	}
	return found
}

// pathString joins a hit's path for messages: `transitions[2].to`.
func pathString(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if !strings.HasPrefix(p, "[") && b.Len() > 0 {
			b.WriteByte('.')
		}
		fmt.Fprint(&b, p)
	}
	return b.String()
}
