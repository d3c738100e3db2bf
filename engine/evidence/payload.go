package evidence

import (
	"bytes"
	"math"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// fieldType is the type of one payload key.
type fieldType int

const (
	tUint     fieldType = iota // a non-negative integer
	tNumber                    // any finite number
	tString                    // a string
	tBool                      // a boolean
	tList                      // a list of strings
	tSeq                       // a list of any values (its length is read)
	tFindings                  // a list of review findings (readFinding)
	tAny                       // any value (kept opaque)
)

// field declares one payload key: its type, whether it is required, its
// default (materialised when absent, so a record always carries it) and,
// for some strings, the closed set of values it may take.
type field struct {
	key      string
	typ      fieldType
	required bool
	def      Any
	enum     []string
}

// schema is the closed payload key set of one kind, in encoding order.
type schema struct {
	kind   string
	fields []field
}

// schemas are the closed payload key sets of engine.md §6.3. Kinds absent
// from it (review_outcome, ess_conformance_v2, ess_conformance_coverage_v1)
// carry opaque payloads. A key the engine derives a fact from is typed;
// tAny is left to keys no fact reads (counterexamples, a trace record's
// lists) and to the actors (reviewer, approver), whose every value but a
// mapping naming `human` reads as not a person, which can only fail a
// check. The table is written out literally, with no
// helper calls and no map, so the linker lays it out as data: every
// process that links this package (the transition hook among them) would
// otherwise build it at start-up.
var schemas = []schema{
	{"test_result", []field{{key: "suite", typ: tString, required: true}, {key: "passed", typ: tUint, def: 0.0}, {key: "failed", typ: tUint, def: 0.0}, {key: "skipped", typ: tUint, def: 0.0}, {key: "duration_ms", typ: tUint}, {key: "selector", typ: tString}}},
	{"static_analysis", []field{{key: "tool", typ: tString}, {key: "errors", typ: tUint, def: 0.0}, {key: "warnings", typ: tUint, def: 0.0}}},
	{"contract_result", []field{{key: "checked", typ: tUint, def: 0.0}, {key: "failed", typ: tUint, def: 0.0}, {key: "breaking_changes", typ: tUint, def: 0.0}, {key: "consumer", typ: tString}, {key: "provider", typ: tString}}},
	{"property_test_result", []field{{key: "property", typ: tString, required: true}, {key: "cases", typ: tUint, def: 0.0}, {key: "seed", typ: tString}, {key: "status", typ: tString, required: true, enum: statuses}, {key: "counterexamples", typ: tAny}}},
	{"diff", []field{{key: "files_changed", typ: tUint, def: 0.0}, {key: "lines_added", typ: tUint, def: 0.0}, {key: "lines_removed", typ: tUint, def: 0.0}, {key: "revision_before", typ: tString}, {key: "revision_after", typ: tString}, {key: "paths", typ: tList}}},
	{"verification", []field{{key: "claim", typ: tString, required: true}, {key: "verifier", typ: tString, required: true}, {key: "status", typ: tString, required: true, enum: statuses}, {key: "subject", typ: tString}, {key: "counterexamples", typ: tAny}}},
	{"specification", []field{{key: "artifact", typ: tString}, {key: "satisfied", typ: tBool, required: true}, {key: "requirements_total", typ: tUint}, {key: "requirements_satisfied", typ: tUint}, {key: "unsatisfied", typ: tSeq}}},
	{"review", []field{{key: "subject", typ: tString, required: true}, {key: "subject_kind", typ: tString}, {key: "reviewer", typ: tAny, required: true}, {key: "disposition", typ: tString, required: true, enum: []string{"approved", "changes_requested", "rejected"}}, {key: "findings", typ: tFindings}, {key: "reviewed_version", typ: tString}, {key: "reviewed_revision", typ: tString}}},
	{"approval", []field{{key: "approval", typ: tString, required: true}, {key: "approver", typ: tAny, required: true}, {key: "decision", typ: tString, required: true, enum: []string{"granted", "denied"}}, {key: "subject", typ: tString}, {key: "note", typ: tString}}},
	{"artifact", []field{{key: "artifact", typ: tString, required: true}, {key: "artifact_kind", typ: tString, required: true}, {key: "observation", typ: tString, required: true}, {key: "holds", typ: tBool, def: true}, {key: "detail", typ: tString}}},
	{"trace_conformance", []field{{key: "specification", typ: tString, required: true}, {key: "spec_digest", typ: tString, required: true}, {key: "transcript_digest", typ: tString, required: true}, {key: "status", typ: tString, required: true, enum: []string{"passed", "failed", "inconclusive"}}, {key: "expectations_total", typ: tUint, required: true}, {key: "expectations_gapped", typ: tUint, required: true}, {key: "expectations_unknown", typ: tUint, required: true}, {key: "advisory_overrides", typ: tAny}, {key: "adapter", typ: tAny}, {key: "gapped_expectations", typ: tAny}}},
	{"deployment_result", []field{{key: "environment", typ: tString, required: true}, {key: "revision", typ: tString, required: true}, {key: "previous_revision", typ: tString}, {key: "status", typ: tString, required: true}}},
	{"metric_observation", []field{{key: "metric", typ: tString, required: true}, {key: "value", typ: tNumber, required: true}, {key: "unit", typ: tString}, {key: "service", typ: tString}}},
	{"health_observation", []field{{key: "service", typ: tString, required: true}, {key: "health", typ: tString, required: true}}},
	{"ess_conformance", []field{{key: "status", typ: tString, required: true, enum: statuses}, {key: "spec_version", typ: tString}, {key: "spec_digest", typ: tString}, {key: "scenarios_total", typ: tUint, def: 0.0}, {key: "scenarios_failed", typ: tUint, def: 0.0}}},
}

// statuses are the values of a verification's status and its kin.
var statuses = []string{"passed", "failed", "inconclusive", "skipped"}

// schemaOf returns kind's closed key set, or false for an opaque payload.
func schemaOf(kind string) ([]field, bool) {
	for _, s := range schemas {
		if s.kind == kind {
			return s.fields, true
		}
	}
	return nil, false
}

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
	schema, closed := schemaOf(kind)
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
		// Only an absent key takes the default: `failed: null` is not
		// "no failure" but a value of the wrong type, refused below by
		// checkField as any other (read as 0, it passed a check with no
		// data). An optional opaque field (tAny) keeps its null; a
		// required one is refused (checkField).
		if n == nil {
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
	if f.required && f.typ == tAny && yamldoc.IsNull(n) {
		// An opaque key keeps its null, but a required one is then given
		// no value: `reviewer: null` made a review with nobody behind it
		// approve its subject (review.approved), `approver: ~` grant an
		// approval. Absent, the key is missing_field; null is refused at
		// the value, as a typed key's null is.
		r.Report(n, path, diag.Errorf(yamldoc.CodeWrongType, "`%s` is required by the `%s` record, found null", f.key, kind).
			WithHint("name who it was, as a mapping such as `%s: {%s: human, id: ada}`", f.key, f.key))
		return nil, false
	}
	v, ok := fromNode(r, n, path)
	if !ok {
		return nil, false
	}
	switch f.typ {
	case tUint:
		x, isNum := v.(float64)
		switch {
		case isNum && x > yamldoc.MaxExactInteger && x == math.Trunc(x):
			// 1e300: a float, but not a count a float holds exactly
			r.Invalid(n, path, "%s", yamldoc.NumberProblem("`"+f.key+"`", n, yamldoc.NumberOutOfRange))
			return nil, false
		case !isNum || x < 0 || x != math.Trunc(x):
			// A number is named as written (-1, 2.5), as a document's
			// integer field names it; anything else by its shape.
			found := yamldoc.ShapeOf(n)
			if isNum {
				found = n.Value
			}
			r.Invalid(n, path, "`%s` must be a non-negative integer, found %s", f.key, found)
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
		if allowed := f.enum; allowed != nil && !slices.Contains(allowed, n.Value) {
			r.Invalid(n, path, "`%s` must be one of %s, found %q", f.key, strings.Join(allowed, ", "), n.Value)
			return nil, false
		}
	case tBool:
		if _, isBool := v.(bool); !isBool {
			r.WrongType(n, path, "a boolean")
			return nil, false
		}
	case tSeq:
		if n.Kind != yaml.SequenceNode {
			r.WrongType(n, path, "a list")
			return nil, false
		}
	case tFindings:
		if n.Kind != yaml.SequenceNode {
			r.WrongType(n, path, "a list of findings")
			return nil, false
		}
		ok := true
		for i, item := range n.Content {
			ok = readFinding(r, item, yamldoc.Index(path, i)) && ok
		}
		if !ok {
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

// findingKeys are the keys of a review finding (engine.md §6.3
// `{severity, summary, location?, blocking=false}`), required first.
var findingKeys = []string{"severity", "summary", "location", "blocking"}

// readFinding checks one review finding at path: a mapping with the
// strings `severity` and `summary`, an optional string `location` and an
// optional boolean `blocking`, and no other key (unknown_field, as for a
// payload key). Null is refused wherever a value is typed: `blocking:
// null`, `"yes"` or `1` read as not blocking, and the review as approved.
// The finding is kept as written: an absent `blocking` is false to
// BlockingFindings, and a snapshot re-encodes to the bytes it was read
// from.
func readFinding(r *yamldoc.Reader, n *yaml.Node, path string) bool {
	m := r.Map(n, path, false)
	if m.Node() == nil {
		return false
	}
	errs := len(*r.Diags)
	for i, k := range findingKeys {
		var v *yaml.Node
		if i < 2 {
			v = m.Require(k)
		} else {
			v = m.Get(k)
		}
		switch {
		case v == nil:
		case k == "blocking":
			r.Bool(v, yamldoc.Key(path, k))
		default:
			r.String(v, yamldoc.Key(path, k))
		}
	}
	m.Done()
	return !(*r.Diags)[errs:].HasErrors()
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
	if schema, ok := schemaOf(p.Kind); ok {
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
