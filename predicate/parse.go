package predicate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"go.yaml.in/yaml/v3"
)

// Parse reads a predicate from a YAML node in any form of documents.md §5.1,
// simplifying while it parses (§5.2) and enforcing the depth limit (§5.4)
// and fact paths (§5.5). Every problem found is reported, positioned at the
// offending node of file, with path (extended by a sub-path such as
// `.all[1]` or `.tests.unit.failed.gt`) as its document path. When the list
// holds an error the predicate is nil.
//
// A nil node, an alias, and a document node holding anything but one value
// are invalid_predicate; Parse never panics. A missing `when:` meaning
// Always is the caller's rule, not this function's.
func Parse(node *yaml.Node, file, path string) (Predicate, diag.List) {
	p := &parser{file: file}
	if node == nil {
		p.errorf(nil, path, "predicate is missing")
		return nil, p.diags
	}
	pred := p.node(node, path, 0)
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	return pred, p.diags
}

type parser struct {
	file  string
	diags diag.List
}

func (p *parser) report(n *yaml.Node, path string, f *failure) {
	d := diag.Diagnostic{Code: f.code, Severity: diag.Error, Message: f.msg}
	d = d.InFile(p.file).WithPath(path)
	if n != nil {
		d.Pos = diag.Pos{Line: n.Line, Column: n.Column}
	}
	p.diags.Add(d)
}

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	p.report(n, path, invalidf(format, args...))
}

// node parses n as a whole predicate at depth; it returns nil after
// reporting a problem.
func (p *parser) node(n *yaml.Node, path string, depth int) Predicate {
	if depth > MaxDepth {
		p.report(n, path, &failure{code: CodeTooDeep, msg: fmt.Sprintf(
			"predicate is nested deeper than %d levels at %s", MaxDepth, describeNode(n))})
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 || n.Content[0] == nil {
			p.errorf(n, path, "a predicate document must hold exactly one value")
			return nil
		}
		return p.node(n.Content[0], path, depth)
	case yaml.AliasNode:
		p.errorf(n, path, "a predicate cannot be an alias")
		return nil
	case yaml.SequenceNode:
		items, ok := p.list(n.Content, path, depth+1)
		if !ok {
			return nil
		}
		return NewAll(items...)
	case yaml.MappingNode:
		return p.mapping(n, path, depth)
	case yaml.ScalarNode:
		return p.scalar(n, path, depth)
	}
	p.errorf(n, path, "a predicate must be a bool, a string, a list or a mapping")
	return nil
}

func (p *parser) scalar(n *yaml.Node, path string, depth int) Predicate {
	switch n.ShortTag() {
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			p.errorf(n, path, "invalid bool %s", describeText(n.Value))
			return nil
		}
		if b {
			return Always{}
		}
		return Never{}
	case "!!null":
		p.errorf(n, path, "a predicate cannot be null")
		return nil
	case "!!int", "!!float":
		p.errorf(n, path, "a predicate cannot be a number (found %s)", describeText(n.Value))
		return nil
	}
	pred, f := parseCompact(n.Value, depth)
	if f != nil {
		p.report(n, path, f)
		return nil
	}
	return pred
}

// list parses each item as a predicate at depth; ok is false when any failed.
func (p *parser) list(items []*yaml.Node, path string, depth int) ([]Predicate, bool) {
	out := make([]Predicate, 0, len(items))
	ok := true
	for i, it := range items {
		sub := fmt.Sprintf("%s[%d]", path, i)
		if it == nil {
			p.errorf(nil, sub, "predicate is missing")
			ok = false
			continue
		}
		pr := p.node(it, sub, depth)
		if pr == nil {
			ok = false
			continue
		}
		out = append(out, pr)
	}
	return out, ok
}

// entry is one key/value pair of a mapping.
type entry struct {
	key, value *yaml.Node
}

// entries returns the pairs of a mapping sorted by key bytes; a pair with a
// missing node is reported and dropped.
func (p *parser) entries(n *yaml.Node, path string) ([]entry, bool) {
	ok := len(n.Content)%2 == 0
	if !ok {
		p.errorf(n, path, "malformed mapping")
	}
	var es []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k == nil || v == nil {
			p.errorf(n, path, "malformed mapping")
			ok = false
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, path, "a predicate key must be a string")
			ok = false
			continue
		}
		es = append(es, entry{k, v})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return strings.Compare(a.key.Value, b.key.Value) })
	return es, ok
}

func (p *parser) mapping(n *yaml.Node, path string, depth int) Predicate {
	return p.conjunction(n, path, func(e entry, path string) Predicate { return p.entry(e, path, depth) })
}

// conjunction parses every entry of mapping n with one and joins the
// results with all; a single failed entry fails the whole, after every
// entry has been parsed (and its problems reported).
func (p *parser) conjunction(n *yaml.Node, path string, one func(e entry, path string) Predicate) Predicate {
	es, ok := p.entries(n, path)
	var items []Predicate
	for _, e := range es {
		pr := one(e, path+"."+e.key.Value)
		if pr == nil {
			ok = false
			continue
		}
		items = append(items, pr)
	}
	if !ok {
		return nil
	}
	return NewAll(items...)
}

// entry parses one mapping entry of a predicate mapping at depth.
func (p *parser) entry(e entry, path string, depth int) Predicate {
	switch e.key.Value {
	case "all", "and", "all_of":
		if isNull(e.value) {
			return Always{}
		}
		items, ok := p.items(e.value, path, depth+1)
		if !ok {
			return nil
		}
		return NewAll(items...)
	case "any", "or":
		items, ok := p.items(e.value, path, depth+1)
		if !ok {
			return nil
		}
		return NewAny(items...)
	case "none", "none_of_these":
		items, ok := p.items(e.value, path, depth+1)
		if !ok {
			return nil
		}
		return NewNot(NewAny(items...))
	case "not":
		x := p.node(e.value, path, depth+1)
		if x == nil {
			return nil
		}
		return NewNot(x)
	}
	if !ValidFactPath(e.key.Value) {
		p.errorf(e.key, path, "%s is neither a predicate keyword (all, and, all_of, any, or, not, none, none_of_these) nor a fact path", describeText(e.key.Value))
		return nil
	}
	return p.constraint(e.key.Value, e.value, path)
}

// items reads "a list, or one item" as predicates at depth.
func (p *parser) items(n *yaml.Node, path string, depth int) ([]Predicate, bool) {
	if n.Kind == yaml.SequenceNode {
		return p.list(n.Content, path, depth)
	}
	pr := p.node(n, path, depth)
	if pr == nil {
		return nil, false
	}
	return []Predicate{pr}, true
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// constraint parses the value under the fact-path key fact.
func (p *parser) constraint(fact string, n *yaml.Node, path string) Predicate {
	switch n.Kind {
	case yaml.SequenceNode:
		vs, ok := p.values(n, path)
		if !ok {
			return nil
		}
		return In{Path: fact, Values: vs}
	case yaml.MappingNode:
		return p.operators(fact, n, path)
	case yaml.ScalarNode:
		v, ok := p.literal(n, path, false)
		if !ok {
			return nil
		}
		return Compare{Left: Fact(fact), Op: Eq, Right: v}
	}
	p.errorf(n, path, "the constraint on fact `%s` must be a scalar, a list or a mapping of operators", fact)
	return nil
}

// literal reads a scalar constraint value: bools and numbers as they are,
// strings by the literal rules, or by the right-hand-side rules when rhs
// (where an unquoted dotted path reads a fact). Null and non-finite numbers
// are refused.
func (p *parser) literal(n *yaml.Node, path string, rhs bool) (Operand, bool) {
	if n.Kind != yaml.ScalarNode {
		p.errorf(n, path, "expected a scalar value")
		return Operand{}, false
	}
	switch n.ShortTag() {
	case "!!null":
		p.errorf(n, path, "a constraint value cannot be null")
		return Operand{}, false
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			p.errorf(n, path, "invalid bool %s", describeText(n.Value))
			return Operand{}, false
		}
		return Lit(Bool(b)), true
	case "!!int", "!!float":
		f, ok := yamlNumber(n)
		if !ok {
			p.errorf(n, path, "%s is not a finite number", describeText(n.Value))
			return Operand{}, false
		}
		return Lit(Number(f)), true
	}
	if rhs {
		return RightOperand(n.Value), true
	}
	return Lit(Literal(n.Value)), true
}

// yamlNumber decodes an int or float scalar as a finite float64.
func yamlNumber(n *yaml.Node) (float64, bool) {
	var v any
	if err := n.Decode(&v); err != nil {
		return 0, false
	}
	var f float64
	switch v := v.(type) {
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case uint64:
		f = float64(v)
	case float64:
		f = v
	default:
		return 0, false
	}
	return f, !math.IsInf(f, 0) && !math.IsNaN(f)
}

// values reads a list of scalar literals, or one scalar, for in / not in.
func (p *parser) values(n *yaml.Node, path string) ([]Value, bool) {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	vs := make([]Value, 0, len(items))
	ok := true
	for i, it := range items {
		sub := path
		if n.Kind == yaml.SequenceNode {
			sub = fmt.Sprintf("%s[%d]", path, i)
		}
		if it == nil {
			p.errorf(n, sub, "value is missing")
			ok = false
			continue
		}
		o, good := p.literal(it, sub, false)
		if !good {
			ok = false
			continue
		}
		vs = append(vs, o.Value)
	}
	return vs, ok
}

// compareOp returns the comparison operator an operator key spells (a
// switch rather than a map: nothing to build at start-up).
func compareOp(name string) (Op, bool) {
	switch name {
	case "eq", "equals", "==":
		return Eq, true
	case "ne", "not_equals", "!=":
		return Ne, true
	case "lt", "<":
		return Lt, true
	case "le", "lte", "<=":
		return Le, true
	case "gt", ">":
		return Gt, true
	case "ge", "gte", ">=":
		return Ge, true
	}
	return "", false
}

// operators parses a mapping of operators on fact: the conjunction of one
// predicate per operator, keys in byte order.
func (p *parser) operators(fact string, n *yaml.Node, path string) Predicate {
	return p.conjunction(n, path, func(e entry, path string) Predicate { return p.operator(fact, e, path) })
}

func (p *parser) operator(fact string, e entry, path string) Predicate {
	name := e.key.Value
	if op, found := compareOp(name); found {
		right, ok := p.literal(e.value, path, true)
		if !ok {
			return nil
		}
		return Compare{Left: Fact(fact), Op: op, Right: right}
	}
	switch name {
	case "any_of", "in", "one_of", "none_of", "not_in":
		vs, ok := p.values(e.value, path)
		if !ok {
			return nil
		}
		return In{Path: fact, Values: vs, Negated: name == "none_of" || name == "not_in"}
	case "exists", "defined":
		if e.value.Kind != yaml.ScalarNode || e.value.ShortTag() != "!!bool" {
			p.errorf(e.value, path, "`%s` takes a bool", name)
			return nil
		}
		b, err := strconv.ParseBool(strings.ToLower(e.value.Value))
		if err != nil {
			p.errorf(e.value, path, "invalid bool %s", describeText(e.value.Value))
			return nil
		}
		if b {
			return Defined{Path: fact}
		}
		return Not{X: Defined{Path: fact}}
	case "truthy":
		return Truthy{Path: fact}
	}
	p.errorf(e.key, path, "unknown operator %s on fact `%s` (expected one of eq, ne, lt, lte, gt, gte, any_of, none_of, exists, truthy)", describeText(name), fact)
	return nil
}

// describeNode describes n one level deep for a depth message.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return fmt.Sprintf("a list of %d item(s)", len(n.Content))
	case yaml.MappingNode:
		var keys []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k != nil && k.Kind == yaml.ScalarNode {
				keys = append(keys, "`"+k.Value+"`")
			}
		}
		slices.Sort(keys)
		return "a mapping with keys " + strings.Join(keys, ", ")
	case yaml.ScalarNode:
		return describeText(n.Value)
	}
	return "a value"
}
