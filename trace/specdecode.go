package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/aepflow/aepflow/internal/yamltag"
	"github.com/aepflow/aepflow/yamldoc"
)

// gmap is a decoded mapping that keeps its keys in document order, so the
// first shape error reported is the first one written.
type gmap struct {
	keys []string
	vals map[string]any
}

// Bounds on what a specification may expand to. Aliases are expanded where
// they are used, so a small document can stand for a huge one (a "billion
// laughs", or one long regex aliased into thousands of expectations); the
// budget counts the bytes of the expanded document, each use of an alias
// paying for what it expands to, not the nodes of the written one.
const (
	// MaxSpecExpansion is the most bytes of scalar text (keys and values)
	// plus nodeCost per node that a specification may expand to: 16 MiB,
	// four times what any document within MaxSpecBytes can hold without
	// aliases.
	MaxSpecExpansion = 16 << 20
	// nodeCost is what one node costs the expansion budget beside its text.
	nodeCost = 8
	// MaxSpecDepth is the deepest nesting of mappings, sequences and
	// aliases a specification may have.
	MaxSpecDepth = 64
)

// toGeneric converts a YAML document to generic values: nil, bool, int64,
// uint64, float64, string, []any and *gmap. YAML 1.2 scalars: `yes`, `on`,
// `none` stay strings.
func toGeneric(data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("the document is not YAML or JSON: %v", err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, errors.New("the document is empty")
	}
	// A second document (after `---`, or a second JSON value) would be
	// ignored by a reader that stops at the first: the expectations it
	// holds would never be checked, so the file is refused instead.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("line %d: a specification is one document, and the file holds a second one", next.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("the document is not YAML or JSON: %v", err)
	}
	budget := int64(MaxSpecExpansion)
	return nodeValue(doc.Content[0], &budget, 0)
}

// errExpansion and errDepth are the refusals of the expansion bounds.
var (
	errExpansion = fmt.Errorf("the document expands to more than %d MiB (each use of an alias counts what it expands to)", MaxSpecExpansion>>20)
	errDepth     = fmt.Errorf("the document nests deeper than %d levels", MaxSpecDepth)
)

func nodeValue(n *yaml.Node, budget *int64, depth int) (any, error) {
	*budget -= nodeCost + int64(len(n.Value))
	if *budget < 0 {
		return nil, errExpansion
	}
	if depth > MaxSpecDepth {
		return nil, errDepth
	}
	if why, unreadable := yamltag.Unreadable(n); unreadable {
		return nil, fmt.Errorf("line %d, column %d: %s; %s", n.Line, n.Column, why, yamltag.Hint)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias, budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := nodeValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return mappingValue(n, budget, depth)
	case yaml.ScalarNode:
		return scalarValue(n)
	}
	return nil, fmt.Errorf("unsupported YAML node at line %d", n.Line)
}

func mappingValue(n *yaml.Node, budget *int64, depth int) (any, error) {
	m := &gmap{vals: map[string]any{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return nil, fmt.Errorf("line %d: mapping keys must be strings", k.Line)
		}
		if _, dup := m.vals[k.Value]; dup {
			return nil, fmt.Errorf("line %d: duplicate key `%s`", k.Line, k.Value)
		}
		if *budget -= nodeCost + int64(len(k.Value)); *budget < 0 {
			return nil, errExpansion
		}
		v, err := nodeValue(n.Content[i+1], budget, depth+1)
		if err != nil {
			return nil, err
		}
		m.keys = append(m.keys, k.Value)
		m.vals[k.Value] = v
	}
	return m, nil
}

// scalarValue converts a scalar (one whose explicit tag its value does
// not read as was refused already, yamltag.Unreadable). A number written
// in a form YAML 1.1 and YAML 1.2 read otherwise (`010`, `3_0`, `0b11`,
// `-0x10`) is refused at its line and column, as yamldoc refuses it in an
// AEP document: yaml.v3 reads `at_most: 010` as 8, trace.md §3.2's YAML 1.2
// as 10.
func scalarValue(n *yaml.Node) (any, error) {
	if why, ambiguous := yamldoc.AmbiguousNumber(n); ambiguous {
		return nil, fmt.Errorf("line %d, column %d: %s; %s", n.Line, n.Column, why, yamldoc.AmbiguousNumberHint)
	}
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		switch x := v.(type) {
		case int:
			return int64(x), nil
		case bool, int64, uint64, float64:
			return x, nil
		}
		return n.Value, nil
	}
	return n.Value, nil
}

// typeName names a generic value's type for messages.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, uint64:
		return "an integer"
	case float64:
		return "a number"
	case string:
		return fmt.Sprintf("the string %s", Quote(x))
	case []any:
		return "a sequence"
	case *gmap:
		return "a mapping"
	}
	return "a value"
}

// decoder reads the generic value into the typed model; the first error wins
// and every later call is a no-op.
type decoder struct{ err error }

func (d *decoder) failf(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

// object checks v is a mapping with only the allowed keys and every
// required one.
func (d *decoder) object(v any, path string, required []string, allowed ...string) *gmap {
	if d.err != nil {
		return nil
	}
	m, ok := v.(*gmap)
	if !ok {
		d.failf("`%s`: expected a mapping, found %s", path, typeName(v))
		return nil
	}
	all := append(append([]string{}, required...), allowed...)
	for _, k := range m.keys {
		if !contains(all, k) {
			d.failf("`%s`: unknown field `%s`, expected one of %s", path, k, backtickList(all))
			return nil
		}
	}
	for _, k := range required {
		if _, ok := m.vals[k]; !ok {
			d.failf("`%s`: missing field `%s`", path, k)
			return nil
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func backtickList(list []string) string {
	sorted := append([]string{}, list...)
	slices.Sort(sorted)
	parts := make([]string, len(sorted))
	for i, s := range sorted {
		parts[i] = "`" + s + "`"
	}
	return strings.Join(parts, ", ")
}

func (m *gmap) has(k string) bool { _, ok := m.vals[k]; return ok }

func (d *decoder) str(v any, path string) string {
	s, ok := v.(string)
	if !ok && d.err == nil {
		d.failf("`%s`: expected a string, found %s", path, typeName(v))
	}
	return s
}

// optStr reads an optional, nullable string field.
func (d *decoder) optStr(m *gmap, key, path string) *string {
	if m == nil || m.vals[key] == nil {
		return nil
	}
	s := d.str(m.vals[key], path+"."+key)
	return &s
}

func (d *decoder) boolean(v any, path string) bool {
	b, ok := v.(bool)
	if !ok && d.err == nil {
		d.failf("`%s`: expected a boolean, found %s", path, typeName(v))
	}
	return b
}

func (d *decoder) strList(v any, path string) []string {
	arr, ok := v.([]any)
	if !ok {
		if d.err == nil {
			d.failf("`%s`: expected a sequence of strings, found %s", path, typeName(v))
		}
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		out = append(out, d.str(e, fmt.Sprintf("%s[%d]", path, i)))
	}
	return out
}

// optStrList reads an optional, nullable list of strings (nil when absent).
func (d *decoder) optStrList(m *gmap, key, path string) []string {
	if m == nil || m.vals[key] == nil {
		return nil
	}
	return d.strList(m.vals[key], path+"."+key)
}

func (d *decoder) u64(v any, path string) uint64 {
	switch x := v.(type) {
	case int64:
		if x >= 0 {
			return uint64(x)
		}
	case uint64:
		return x
	}
	if d.err == nil {
		d.failf("`%s`: expected a non-negative integer, found %s", path, numberOrType(v))
	}
	return 0
}

// numberOrType names a generic value for a message that wants a count: a
// number as itself (-1, 1.5; a whole float with its fraction, 2.0, since it
// was written as one), anything else by its type (typeName).
func numberOrType(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	}
	return typeName(v)
}

func (d *decoder) f64(v any, path string) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	}
	if d.err == nil {
		d.failf("`%s`: expected a number, found %s", path, typeName(v))
	}
	return math.NaN()
}

func (d *decoder) optF64(m *gmap, key, path string) *float64 {
	if m == nil || m.vals[key] == nil {
		return nil
	}
	f := d.f64(m.vals[key], path+"."+key)
	return &f
}

func (d *decoder) countBound(v any, path string) *CountBound {
	if v == nil {
		d.failf("`%s`: expected a bound (a mapping of `at_least`, `at_most` or `exactly`), found null", path)
		return nil
	}
	m := d.object(v, path, nil, "at_least", "at_most", "exactly")
	if m == nil {
		return nil
	}
	b := &CountBound{}
	for _, f := range []struct {
		key string
		dst **uint64
	}{{"at_least", &b.AtLeast}, {"at_most", &b.AtMost}, {"exactly", &b.Exactly}} {
		if m.vals[f.key] != nil {
			u := d.u64(m.vals[f.key], path+"."+f.key)
			*f.dst = &u
		}
	}
	return b
}

func (d *decoder) rangeBound(v any, path string) *RangeBound {
	m := d.object(v, path, nil, "at_least", "at_most")
	if m == nil {
		return nil
	}
	return &RangeBound{AtLeast: d.optF64(m, "at_least", path), AtMost: d.optF64(m, "at_most", path)}
}

func (d *decoder) matcher(v any, path string) *Matcher {
	m := d.object(v, path, nil, "exact", "contains", "glob", "regex", "equals")
	if m == nil {
		return nil
	}
	if len(m.keys) != 1 {
		d.failf("`%s`: a matcher takes exactly one of `contains`, `equals`, `exact`, `glob`, `regex`, found %d", path, len(m.keys))
		return nil
	}
	op := m.keys[0]
	if op == "equals" {
		switch x := m.vals[op].(type) {
		case bool, int64, float64, string:
			return &Matcher{Op: op, Value: x}
		}
		d.failf("`%s.equals`: expected a boolean, an integer or a string, found %s", path, typeName(m.vals[op]))
		return nil
	}
	return &Matcher{Op: op, Text: d.str(m.vals[op], path+"."+op)}
}

// decodeSpec reads the document into the model without validating it.
func decodeSpec(data []byte) (*Spec, error) {
	v, err := toGeneric(data)
	if err != nil {
		return nil, err
	}
	d := &decoder{}
	top := d.object(v, "document", []string{"format", "id"}, "title", "expectations")
	if top == nil {
		return nil, d.err
	}
	s := &Spec{
		Format: d.str(top.vals["format"], "format"),
		ID:     d.str(top.vals["id"], "id"),
		Title:  d.optStr(top, "title", ""),
	}
	if top.has("expectations") {
		arr, ok := top.vals["expectations"].([]any)
		if !ok {
			d.failf("`expectations`: expected a sequence, found %s", typeName(top.vals["expectations"]))
		}
		for i, e := range arr {
			s.Expectations = append(s.Expectations, d.expectation(e, fmt.Sprintf("expectations[%d]", i)))
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return s, nil
}

func (d *decoder) expectation(v any, path string) Expectation {
	m := d.object(v, path, []string{"id", "expect"}, "statement", "severity", "on_unknown")
	e := Expectation{Severity: SeverityGate, OnUnknown: OnUnknownUnknown}
	if m == nil {
		return e
	}
	e.ID = d.str(m.vals["id"], path+".id")
	e.Statement = d.optStr(m, "statement", path)
	if m.has("severity") {
		e.Severity = d.enum(m.vals["severity"], path+".severity", SeverityGate, SeverityAdvisory)
	}
	if m.has("on_unknown") {
		e.OnUnknown = d.enum(m.vals["on_unknown"], path+".on_unknown", OnUnknownUnknown, OnUnknownGap)
	}
	ex, ok := m.vals["expect"].(*gmap)
	if !ok {
		d.failf("`%s.expect`: expected a mapping with one kind, found %s", path, typeName(m.vals["expect"]))
		return e
	}
	if len(ex.keys) != 1 {
		d.failf("`%s.expect`: expected exactly one kind, found %d", path, len(ex.keys))
		return e
	}
	name := ex.keys[0]
	sh, known := kindShapes[KindName(name)]
	if !known {
		d.failf("`%s.expect`: unknown kind `%s`", path, name)
		return e
	}
	e.written = name
	e.Kind = d.kind(KindName(name), sh, ex.vals[name], path+".expect."+name)
	return e
}

func (d *decoder) enum(v any, path string, options ...string) string {
	s := d.str(v, path)
	if d.err == nil && !contains(options, s) {
		d.failf("`%s`: unknown variant `%s`, expected one of %s", path, s, backtickList(options))
	}
	return s
}

var selectorKeys = []string{"tool", "tools", "operations", "subject", "args"}

func (d *decoder) selector(m *gmap, path string) *Selector {
	if m == nil {
		return nil
	}
	s := &Selector{
		Tool:       d.optStr(m, "tool", path),
		Tools:      d.optStrList(m, "tools", path),
		Operations: d.optStrList(m, "operations", path),
		Args:       map[string]*Matcher{},
	}
	if m.vals["subject"] != nil {
		s.Subject = d.matcher(m.vals["subject"], path+".subject")
	}
	if m.has("args") {
		s.Args = d.matcherMap(m.vals["args"], path+".args")
	}
	return s
}

func (d *decoder) matcherMap(v any, path string) map[string]*Matcher {
	out := map[string]*Matcher{}
	m, ok := v.(*gmap)
	if !ok {
		d.failf("`%s`: expected a mapping of field matchers, found %s", path, typeName(v))
		return out
	}
	for _, k := range m.keys {
		out[k] = d.matcher(m.vals[k], path+"."+k)
	}
	return out
}

// kind reads a kind's parameters by its shape.
func (d *decoder) kind(name KindName, sh shape, v any, path string) Kind {
	if name == kindSkillAvailableAlias {
		name = KindEnvSkillAvailable
	}
	k := Kind{Name: name}
	obj := func(required []string, allowed ...string) *gmap { return d.object(v, path, required, allowed...) }
	// count reads an optional bound: absent or null is no bound (the
	// kind's default, if it has one).
	count := func(m *gmap, key string) *CountBound {
		if m == nil || m.vals[key] == nil {
			return nil
		}
		return d.countBound(m.vals[key], path+"."+key)
	}
	// bound reads a required bound: null is refused like any other
	// non-mapping, since no default stands in for it.
	bound := func(m *gmap, key string) *CountBound {
		if m == nil {
			return nil
		}
		return d.countBound(m.vals[key], path+"."+key)
	}
	switch sh {
	case shapePluginLoaded:
		m := obj([]string{"plugin"}, "version", "source")
		if m != nil {
			k.Plugin = d.str(m.vals["plugin"], path+".plugin")
			k.Version, k.Source = d.optStr(m, "version", path), d.optStr(m, "source", path)
		}
	case shapePlugins:
		if m := obj([]string{"plugins"}); m != nil {
			k.Plugins = d.strList(m.vals["plugins"], path+".plugins")
		}
	case shapeEquals:
		if m := obj([]string{"equals"}); m != nil {
			s := d.str(m.vals["equals"], path+".equals")
			k.Equals = &s
		}
	case shapeEqualsBool:
		if m := obj([]string{"equals"}); m != nil {
			b := d.boolean(m.vals["equals"], path+".equals")
			k.EqualsBool = &b
		}
	case shapeSkill:
		if m := obj([]string{"skill"}); m != nil {
			k.Skill = d.str(m.vals["skill"], path+".skill")
		}
	case shapeAgent:
		if m := obj([]string{"agent"}); m != nil {
			k.Agent = d.str(m.vals["agent"], path+".agent")
		}
	case shapeToolAvailable:
		if m := obj(nil, "available", "only", "operations", "tool", "tools"); m != nil {
			a := rawAvailability{tool: d.optStr(m, "tool", path), tools: d.optStrList(m, "tools", path),
				ops: d.optStrList(m, "operations", path), only: d.optStrList(m, "only", path)}
			if m.vals["available"] != nil {
				b := d.boolean(m.vals["available"], path+".available")
				a.available = &b
			}
			k.Availability = &Availability{written: a}
		}
	case shapeCount:
		k.Count = bound(obj([]string{"count"}), "count")
	case shapeMs:
		k.Count = bound(obj([]string{"ms"}), "ms")
	case shapeSkillCount:
		if m := obj([]string{"skill"}, "count"); m != nil {
			k.Skill = d.str(m.vals["skill"], path+".skill")
			k.Count = count(m, "count")
		}
	case shapeToolCalled:
		m := obj(nil, append(selectorKeys, "count")...)
		k.Selector, k.Count = d.selector(m, path), count(m, "count")
	case shapeSelector:
		k.Selector = d.selector(obj(nil, selectorKeys...), path)
	case shapeToolResult:
		m := obj([]string{"result"}, selectorKeys...)
		k.Selector = d.selector(m, path)
		if m != nil {
			k.Result = d.matcherMap(m.vals["result"], path+".result")
		}
	case shapeToolResultBytes:
		m := obj([]string{"bytes"}, append(selectorKeys, "per")...)
		k.Selector, k.Count, k.Per = d.selector(m, path), bound(m, "bytes"), perTotal
		if m != nil && m.has("per") {
			k.Per = d.enum(m.vals["per"], path+".per", perTotal, perEach)
		}
	case shapeScopedCount:
		m := obj([]string{"count"}, selectorKeys...)
		k.Selector, k.Count = d.selector(m, path), bound(m, "count")
	case shapeToolErrorRate:
		m := obj([]string{"rate"}, selectorKeys...)
		k.Selector = d.selector(m, path)
		if m != nil {
			k.Range = d.rangeBound(m.vals["rate"], path+".rate")
		}
	case shapeOrder:
		if m := obj([]string{"first", "before"}); m != nil {
			k.First = d.selector(d.object(m.vals["first"], path+".first", nil, selectorKeys...), path+".first")
			k.Before = d.selector(d.object(m.vals["before"], path+".before", nil, selectorKeys...), path+".before")
		}
	case shapeRunResult:
		k.Run = d.runResult(obj(nil, "is_error", "subtype", "stop_reason", "terminal_reason", "api_error_status"), path)
	case shapeMatcher:
		k.Matcher = d.matcher(v, path)
	case shapeAllowed:
		if m := obj([]string{"allowed"}); m != nil {
			k.Allowed = d.strList(m.vals["allowed"], path+".allowed")
		}
	case shapeRange:
		k.Range = d.rangeBound(v, path)
	case shapeModelCount:
		m := obj([]string{"count"}, "model")
		k.Count, k.Model = bound(m, "count"), d.optStr(m, "model", path)
	case shapeCostTotal:
		if m := obj(nil, "at_least_usd", "at_most_usd", "model"); m != nil {
			k.Range = &RangeBound{AtLeast: d.optF64(m, "at_least_usd", path), AtMost: d.optF64(m, "at_most_usd", path)}
			k.Model = d.optStr(m, "model", path)
		}
	case shapeUsageTrend:
		if m := obj([]string{"field", "trend"}); m != nil {
			k.Field = d.usageField(m.vals["field"], path+".field")
			k.Trend = d.enum(m.vals["trend"], path+".trend", trendNonDecreasing, trendNonIncreasing)
		}
	case shapeUsageShare:
		if m := obj([]string{"field"}, "at_least", "at_most"); m != nil {
			k.Field = d.usageField(m.vals["field"], path+".field")
			k.Range = &RangeBound{AtLeast: d.optF64(m, "at_least", path), AtMost: d.optF64(m, "at_most", path)}
		}
	case shapeStepMs:
		m := obj([]string{"ms"}, selectorKeys...)
		k.Selector, k.Count = d.selector(m, path), bound(m, "ms")
	}
	return k
}

// usageFields are the per-request fields the usage series kinds read.
var usageFields = []string{"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"}

func (d *decoder) usageField(v any, path string) string {
	return d.enum(v, path, usageFields...)
}

func (d *decoder) runResult(m *gmap, path string) *RunResult {
	if m == nil {
		return nil
	}
	r := &RunResult{
		Subtype: d.optStr(m, "subtype", path), StopReason: d.optStr(m, "stop_reason", path),
		TerminalReason: d.optStr(m, "terminal_reason", path),
	}
	if m.vals["is_error"] != nil {
		b := d.boolean(m.vals["is_error"], path+".is_error")
		r.IsError = &b
	}
	switch x := m.vals["api_error_status"].(type) {
	case nil:
	case string:
		if x != "absent" {
			d.failf("`%s.api_error_status`: expected `absent` or `{equals: …}`, found %s", path, typeName(x))
		}
		r.APIErrorStatus = &APIErrorStatus{Absent: true}
	default:
		if e := d.object(x, path+".api_error_status", []string{"equals"}); e != nil {
			r.APIErrorStatus = &APIErrorStatus{Equals: d.str(e.vals["equals"], path+".api_error_status.equals")}
		}
	}
	return r
}
