package evidence

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Any is a JSON-like value inside a payload: nil, bool, float64, string,
// []Any or map[string]Any. Numbers are float64 so that every reader agrees.
type Any = any

// fromNode converts a YAML node into an Any, reporting unsupported nodes.
func fromNode(r *yamldoc.Reader, n *yaml.Node, path string) (Any, bool) {
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, true
		case "!!bool":
			return strings.ToLower(n.Value) == "true", true
		}
		// One reading of numbers (yamldoc.Number): an integer beyond 2^53
		// is refused, not rounded, and 1e400 is a number out of range,
		// not the string YAML leaves it.
		switch f, class := yamldoc.Number(n); class {
		case yamldoc.FiniteNumber:
			return f, true
		case yamldoc.NonFiniteNumber, yamldoc.NumberOutOfRange:
			r.Invalid(n, path, "%s", yamldoc.NumberProblem(r.NameOf(n, path), n, class))
			return nil, false
		}
		return n.Value, true
	case yaml.SequenceNode:
		out := make([]Any, 0, len(n.Content))
		ok := true
		for i, c := range n.Content {
			v, good := fromNode(r, c, yamldoc.Index(path, i))
			ok = ok && good
			out = append(out, v)
		}
		return out, ok
	case yaml.MappingNode:
		out := map[string]Any{}
		ok := true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			v, good := fromNode(r, n.Content[i+1], yamldoc.Key(path, k))
			ok = ok && good
			out[k] = v
		}
		return out, ok
	}
	r.WrongType(n, path, "a value")
	return nil, false
}

// writeAny writes v as canonical JSON: object keys sorted, numbers in the
// display form, strings escaped without HTML escaping.
//
// It looks like trace.Compact but differs on purpose, so the two are not
// merged: numbers here are the engine's display form (engine.md §2.1:
// integral values as `1`, never `1.0` or an exponent), where trace.md §1.9
// demands serde_json's (`1.0`, `1e16`); strings here go through
// encoding/json, which escapes U+2028/9 and replaces invalid UTF-8, where
// §1.9 forbids both. Snapshots written with this encoding must re-encode to
// the same bytes (engine.md §6.1), so it cannot change to the trace form.
func writeAny(b *bytes.Buffer, v Any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case float64:
		b.WriteString(predicate.FormatNumber(v))
	case string:
		writeString(b, v)
	case []Any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeAny(b, x)
		}
		b.WriteByte(']')
	case map[string]Any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeAny(b, v[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// writeString writes s as a JSON string.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// FromNode converts a YAML/JSON node into an Any (nil, bool, float64,
// string, []Any, map[string]Any), reporting unsupported nodes.
func FromNode(r *yamldoc.Reader, n *yaml.Node, path string) (Any, bool) { return fromNode(r, n, path) }

// AppendAny appends v as canonical JSON (object keys sorted).
func AppendAny(b *bytes.Buffer, v Any) { writeAny(b, v) }

// AppendString appends s as a JSON string (no HTML escaping).
func AppendString(b *bytes.Buffer, s string) { writeString(b, s) }
