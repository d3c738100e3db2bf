package yamldoc

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/yamltag"
	yaml "go.yaml.in/yaml/v3"
)

// boundAndClamp walks the tree under root once. It returns the first node
// nested deeper than limit (the root is depth 0), or nil; it walks with an
// explicit stack, since the input is not yet trusted and the yaml parser
// accepts nesting far deeper than Go recursion should be asked to follow.
// On the way it moves the nodes yaml.v3 places after the last line (the
// empty value of "--- " at end of input sits on "line 2") onto that line,
// so that every position names a line of the file; lines < 0 clamps
// nothing.
func boundAndClamp(root *yaml.Node, limit, lines int) *yaml.Node {
	type frame struct {
		node  *yaml.Node
		depth int
	}
	if root == nil {
		return nil
	}
	// Most documents nest a few levels and hold a few dozen nodes open at
	// once: the first ones wait in an array on this function's stack.
	var first [64]frame
	stack := append(first[:0], frame{root, 0})
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.depth > limit {
			return f.node
		}
		if lines >= 0 && f.node.Line > lines {
			f.node.Line, f.node.Column = lines, 1
		}
		for _, c := range f.node.Content {
			stack = append(stack, frame{c, f.depth + 1})
		}
	}
	return nil
}

// checkTree reports anchors, aliases, merge keys, non-string keys and
// duplicate keys anywhere under n. Depth was bounded by Parse already.
func (d *Document) checkTree(n *yaml.Node, diags *diag.List) {
	if n == nil {
		return
	}
	if n.Kind == yaml.AliasNode {
		diags.Add(diag.Errorf(CodeAlias, "an alias (`*%s`) is not allowed in AEP documents", n.Value).
			At(d.File, PosOf(n)).WithHint("write the value out in full"))
		return
	}
	if n.Anchor != "" {
		diags.Add(diag.Errorf(CodeAlias, "an anchor (`&%s`) is not allowed in AEP documents", n.Anchor).
			At(d.File, PosOf(n)).WithHint("write the value out in full where it is needed"))
	}
	if n.Kind == yaml.MappingNode {
		d.checkKeys(n, diags)
	}
	if why, unreadable := yamltag.Unreadable(n); unreadable {
		diags.Add(diag.Errorf(CodeInvalidValue, "%s", why).At(d.File, PosOf(n)).WithHint(yamltag.Hint))
	} else if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float") {
		d.checkNumber(n, diags)
	}
	for _, c := range n.Content {
		d.checkTree(c, diags)
	}
}

// checkNumber refuses a number written in a form yaml.v3 reads otherwise
// than YAML 1.2's core schema, the one AEP documents are read by (engine.md
// §1.1, "YAML"), as AmbiguousNumber finds it.
func (d *Document) checkNumber(n *yaml.Node, diags *diag.List) {
	if why, ambiguous := AmbiguousNumber(n); ambiguous {
		diags.Add(diag.Errorf(CodeInvalidValue, "%s", why).At(d.File, PosOf(n)).WithHint(AmbiguousNumberHint))
	}
}

// AmbiguousNumberHint is what to do about a number AmbiguousNumber finds.
const AmbiguousNumberHint = "write the number in decimal (without a leading zero), or quote it if it is text"

// AmbiguousNumber reports whether n, a scalar yaml.v3 reads as a number
// (tagged `!!int` or `!!float`), is written in a form yaml.v3 reads
// otherwise than YAML 1.2's core schema, and says why in a sentence that
// quotes the number: a leading zero (`010`: octal 8 to yaml.v3, as in YAML
// 1.1; decimal 10 in YAML 1.2; `08` a float), `_` between digits (`3_0`: 30
// to yaml.v3, text in YAML 1.2), a binary `0b11`, a signed or upper-case
// hex or octal (`-0x10`, `0X10`: numbers to yaml.v3, text in YAML 1.2).
// Either reading could be the author's, so every reader of YAML the
// project owns refuses both (docs/decisions.md): yamldoc for AEP
// documents, trace for trace specifications. The decimal, `0o17` and
// `0x1F` forms and YAML 1.2's floats read alike and are not reported, nor
// is any other node.
func AmbiguousNumber(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		return "", false
	}
	v := n.Value
	digits := strings.TrimLeft(v, "+-")
	switch {
	case isCoreNumber(v):
		return "", false
	case strings.Contains(v, "_"):
		return fmt.Sprintf("`%s` holds `_`, which YAML 1.1 skips in a number and YAML 1.2 reads as text", v), true
	case len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' && !strings.ContainsAny(digits, ".eE"):
		return fmt.Sprintf("`%s` starts with a 0, which YAML 1.1 reads as octal and YAML 1.2 as decimal", v), true
	}
	return fmt.Sprintf("`%s` is a number in YAML 1.1 and text in YAML 1.2", v), true
}

// isCoreNumber reports whether lit is an integer or a float of YAML 1.2's
// core schema that yaml.v3 reads as YAML 1.2 does: decimal digits with an
// optional sign and no leading zero, `0o` octal, `0x` hexadecimal, a float
// (`1.5`, `.5`, `1e3`, `-2.5E-3`), `.inf` and `.nan`.
func isCoreNumber(lit string) bool {
	switch lit {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return true
	}
	if rest, ok := strings.CutPrefix(lit, "0o"); ok {
		return rest != "" && strings.Trim(rest, "01234567") == ""
	}
	if rest, ok := strings.CutPrefix(lit, "0x"); ok {
		return rest != "" && strings.Trim(rest, "0123456789abcdefABCDEF") == ""
	}
	s := strings.TrimLeft(lit, "+-")
	if len(s) != len(lit) && len(lit)-len(s) > 1 {
		return false
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || strings.Trim(intPart, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return false
	}
	if !hasDot && !hasExp && len(intPart) > 1 && intPart[0] == '0' {
		return false // a leading zero: octal to yaml.v3
	}
	if !hasDot && intPart == "" {
		return false
	}
	if hasExp {
		exp = strings.TrimLeft(exp, "+-")
		if exp == "" || strings.Trim(exp, "0123456789") != "" {
			return false
		}
	}
	return true
}

// checkKeys reports merge keys, non-string keys and duplicates in one
// mapping; a duplicate is blamed at its second occurrence.
func (d *Document) checkKeys(n *yaml.Node, diags *diag.List) {
	var first map[string]*yaml.Node // only for large mappings; small ones scan
	if len(n.Content)/2 > smallMap {
		first = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		switch {
		case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
			diags.Add(diag.Errorf(CodeAlias, "a merge key (`<<`) is not allowed in AEP documents").
				At(d.File, PosOf(k)).WithHint("write the merged keys out in full"))
			continue
		case k.Kind != yaml.ScalarNode || !isStringTag(k.Tag):
			diags.Add(diag.Errorf(CodeNonStringKey, "mapping keys must be strings, found %s `%s`", ShapeOf(k), k.Value).
				At(d.File, PosOf(k)).WithHint("quote the key to make it a string"))
			continue
		}
		if prev := firstStringKey(n, i, first); prev != nil {
			diags.Add(diag.Errorf(CodeDuplicateKey, "the key `%s` is given twice in one mapping (first on line %d)", k.Value, prev.Line).
				At(d.File, PosOf(k)).WithRelated(d.File, PosOf(prev), "first given here"))
			continue
		}
		if first != nil {
			first[k.Value] = k
		}
		if strings.IndexByte(k.Value, '.') >= 0 {
			d.recordDotted(n.Content[i+1], k.Value)
		}
	}
}

// recordDotted records where v, the value of a key holding a dot, stands,
// under name, and the items of v when it is a sequence (Document.dotted).
// Depth was bounded by Parse.
func (d *Document) recordDotted(v *yaml.Node, name string) {
	if d.dotted == nil {
		d.dotted = map[diag.Pos]string{}
	}
	d.dotted[PosOf(v)] = name
	if v.Kind == yaml.SequenceNode {
		for i, it := range v.Content {
			d.recordDotted(it, Index(name, i))
		}
	}
}

// firstStringKey returns the first string key before index i of mapping n
// with the value of n.Content[i], or nil: from first when it indexes the
// mapping, else by scanning.
func firstStringKey(n *yaml.Node, i int, first map[string]*yaml.Node) *yaml.Node {
	key := n.Content[i].Value
	if first != nil {
		return first[key]
	}
	for j := 0; j < i; j += 2 {
		if k := n.Content[j]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" && isStringTag(k.Tag) && k.Value == key {
			return k
		}
	}
	return nil
}

// isStringTag reports whether a scalar with this resolved tag reads as a
// string. Unquoted timestamps are strings in AEP (documents.md §2.4).
func isStringTag(tag string) bool { return tag == "!!str" || tag == "!!timestamp" }

// ShapeOf names the shape of a node for wrong_type messages: mapping,
// sequence, string, integer, number, boolean, null, alias or nothing. A
// number is named for what it is (Number): `.nan` is a non-finite number,
// and 1e400 (which YAML leaves a string) or 9223372036854775807 a number
// out of range.
func ShapeOf(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch _, class := Number(n); {
	case class == NonFiniteNumber:
		return "a non-finite number"
	case class == NumberOutOfRange:
		return "a number out of range"
	}
	if _, unreadable := yamltag.Unreadable(n); unreadable {
		return fmt.Sprintf("`%s` tagged `%s`", n.Value, n.Tag)
	}
	switch n.Tag {
	case "!!str", "!!timestamp":
		return "a string"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	case "!!binary":
		return "binary data"
	}
	return "a scalar"
}

// IsNull reports whether n is absent or an explicit null.
func IsNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}
