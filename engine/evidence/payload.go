package evidence

import (
	"bytes"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// fieldType is the type of one payload key.
type fieldType int

const (
	tUint   fieldType = iota // a non-negative integer
	tNumber                  // any finite number
	tString                  // a string
	tBool                    // a boolean
	tList                    // a list of strings
	tAny                     // any value (kept opaque)
)

// field declares one payload key: its type, whether it is required, and
// its default (materialised when absent, so a record always carries it).
type field struct {
	key      string
	typ      fieldType
	required bool
	def      Any
}

func req(k string, t fieldType) field { return field{key: k, typ: t, required: true} }
func opt(k string, t fieldType) field { return field{key: k, typ: t} }
func zero(k string) field             { return field{key: k, typ: tUint, def: float64(0)} }

// schemas are the closed payload key sets of engine.md §6.3, in encoding
// order. Kinds absent from this map (review_outcome, ess_conformance_v2,
// ess_conformance_coverage_v1) carry opaque payloads.
var schemas = map[string][]field{
	"test_result":          {req("suite", tString), zero("passed"), zero("failed"), zero("skipped"), opt("duration_ms", tUint), opt("selector", tString)},
	"static_analysis":      {opt("tool", tString), zero("errors"), zero("warnings")},
	"contract_result":      {zero("checked"), zero("failed"), zero("breaking_changes"), opt("consumer", tString), opt("provider", tString)},
	"property_test_result": {req("property", tString), zero("cases"), opt("seed", tString), req("status", tString), opt("counterexamples", tAny)},
	"diff":                 {zero("files_changed"), zero("lines_added"), zero("lines_removed"), opt("revision_before", tString), opt("revision_after", tString), opt("paths", tList)},
	"verification":         {req("claim", tString), req("verifier", tString), req("status", tString), opt("subject", tString), opt("counterexamples", tAny)},
	"specification":        {opt("artifact", tString), req("satisfied", tBool), opt("requirements_total", tUint), opt("requirements_satisfied", tUint), opt("unsatisfied", tAny)},
	"review":               {req("subject", tString), opt("subject_kind", tString), req("reviewer", tAny), req("disposition", tString), opt("findings", tAny), opt("reviewed_version", tString), opt("reviewed_revision", tString)},
	"approval":             {req("approval", tString), req("approver", tAny), req("decision", tString), opt("subject", tString), opt("note", tString)},
	"artifact":             {req("artifact", tString), req("artifact_kind", tString), req("observation", tString), {key: "holds", typ: tBool, def: true}, opt("detail", tString)},
	"trace_conformance":    {req("specification", tString), req("spec_digest", tString), req("transcript_digest", tString), req("status", tString), req("expectations_total", tUint), req("expectations_gapped", tUint), req("expectations_unknown", tUint), opt("advisory_overrides", tAny), opt("adapter", tAny), opt("gapped_expectations", tAny)},
	"deployment_result":    {req("environment", tString), req("revision", tString), opt("previous_revision", tString), req("status", tString)},
	"metric_observation":   {req("metric", tString), req("value", tNumber), opt("unit", tString), opt("service", tString)},
	"health_observation":   {req("service", tString), req("health", tString)},
	"ess_conformance":      {req("status", tString), opt("spec_version", tString), opt("spec_digest", tString), zero("scenarios_total"), zero("scenarios_failed")},
}

// enums restricts some string fields to a closed set of values.
var enums = map[string]map[string][]string{
	"property_test_result": {"status": statuses},
	"verification":         {"status": statuses},
	"trace_conformance":    {"status": {"passed", "failed", "inconclusive"}},
	"ess_conformance":      {"status": statuses},
	"review":               {"disposition": {"approved", "changes_requested", "rejected"}},
	"approval":             {"decision": {"granted", "denied"}},
}

var statuses = []string{"passed", "failed", "inconclusive", "skipped"}

// Payload is a record's value: its canonical Kind and its fields, defaults
// materialised. Fields must not be modified once built.
type Payload struct {
	Kind   string
	Fields map[string]Any
}

// RecordKind returns the canonical kind of a record's `kind` tag: canonical
// names plus the legacy `test_execution` and `source_diff` (engine.md §6.3).
func RecordKind(tag string) (string, bool) {
	switch tag {
	case "test_execution":
		return "test_result", true
	case "source_diff":
		return "diff", true
	}
	return tag, slices.Contains(vocab.EvidenceKinds, tag)
}

// Uint returns the number field k (0 when absent).
func (p Payload) Uint(k string) float64 {
	f, _ := p.Fields[k].(float64)
	return f
}

// Str returns the string field k ("" when absent).
func (p Payload) Str(k string) string {
	s, _ := p.Fields[k].(string)
	return s
}

// Has reports whether field k is present.
func (p Payload) Has(k string) bool {
	_, ok := p.Fields[k]
	return ok
}

// Bool returns the bool field k (false when absent).
func (p Payload) Bool(k string) bool {
	b, _ := p.Fields[k].(bool)
	return b
}

// readPayload reads the payload keys of m (every key not in skip) for kind.
func readPayload(r *yamldoc.Reader, m *yamldoc.Map, path, kind string, skip []string) (Payload, bool) {
	p := Payload{Kind: kind, Fields: map[string]Any{}}
	schema, closed := schemas[kind]
	ok := true
	for _, kn := range m.Keys() {
		k := kn.Value
		if slices.Contains(skip, k) {
			continue
		}
		if !closed {
			m.Allow(k)
			v, good := fromNode(r, m.Get(k), yamldoc.Key(path, k))
			ok = ok && good
			p.Fields[k] = v
		}
	}
	for _, f := range schema {
		n := m.Get(f.key)
		fp := yamldoc.Key(path, f.key)
		if n == nil || yamldoc.IsNull(n) {
			switch {
			case f.required:
				r.Report(m.Node(), path, missing(f.key, kind))
				ok = false
			case f.def != nil:
				p.Fields[f.key] = f.def
			}
			continue
		}
		v, good := checkField(r, n, fp, f, kind)
		if !good {
			ok = false
			continue
		}
		p.Fields[f.key] = v
	}
	if kind == "test_result" {
		if s, good := vocab.CanonicalSuite(p.Str("suite")); good {
			p.Fields["suite"] = s
		} else if p.Has("suite") {
			r.Invalid(m.Get("suite"), yamldoc.Key(path, "suite"), "`suite` must be a suite name such as `unit` (kebab-case), found %q", p.Str("suite"))
			ok = false
		}
	}
	return p, ok
}

// checkField converts and checks one schema field.
func checkField(r *yamldoc.Reader, n *yaml.Node, path string, f field, kind string) (Any, bool) {
	v, ok := fromNode(r, n, path)
	if !ok {
		return nil, false
	}
	switch f.typ {
	case tUint:
		x, isNum := v.(float64)
		if !isNum || x < 0 || x != float64(int64(x)) {
			r.Invalid(n, path, "`%s` must be a non-negative integer, found %s", f.key, yamldoc.ShapeOf(n))
			return nil, false
		}
	case tNumber:
		if _, isNum := v.(float64); !isNum {
			r.WrongType(n, path, "a number")
			return nil, false
		}
	case tString:
		if n.Kind != yaml.ScalarNode || n.Tag == "!!bool" || n.Tag == "!!null" {
			r.WrongType(n, path, "a string")
			return nil, false
		}
		v = n.Value
		if allowed := enums[kind][f.key]; allowed != nil && !slices.Contains(allowed, n.Value) {
			r.Invalid(n, path, "`%s` must be one of %s, found %q", f.key, strings.Join(allowed, ", "), n.Value)
			return nil, false
		}
	case tBool:
		if _, isBool := v.(bool); !isBool {
			r.WrongType(n, path, "a boolean")
			return nil, false
		}
	case tList:
		list, isList := v.([]Any)
		if !isList {
			r.WrongType(n, path, "a list of strings")
			return nil, false
		}
		for _, x := range list {
			if _, isStr := x.(string); !isStr {
				r.WrongType(n, path, "a list of strings")
				return nil, false
			}
		}
	}
	return v, true
}

// writePayload writes p as canonical JSON: `kind` first, then the schema's
// keys in order (an opaque payload: its keys sorted).
func writePayload(b *bytes.Buffer, p Payload) {
	b.WriteString(`{"kind":`)
	writeString(b, p.Kind)
	keys := payloadKeys(p)
	for _, k := range keys {
		b.WriteByte(',')
		writeString(b, k)
		b.WriteByte(':')
		writeAny(b, p.Fields[k])
	}
	b.WriteByte('}')
}

func payloadKeys(p Payload) []string {
	var keys []string
	if schema, ok := schemas[p.Kind]; ok {
		for _, f := range schema {
			if _, has := p.Fields[f.key]; has {
				keys = append(keys, f.key)
			}
		}
		return keys
	}
	for k := range p.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func kindList() string {
	return strings.Join(vocab.EvidenceKinds, ", ")
}
