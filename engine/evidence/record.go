package evidence

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Diagnostic codes of the evidence readers.
const (
	// CodeFuture: an observation dated more than FutureTolerance after now.
	CodeFuture = "evidence_in_future"
	// CodeUnknownKind: a record's kind tag names no evidence kind.
	CodeUnknownKind = "unknown_evidence_kind"
)

// FutureTolerance is how far past now an observed_at may lie: 14 hours, the
// span in which a calendar day has begun somewhere (engine.md §6.3).
const FutureTolerance = 14 * time.Hour

// producerKey returns the key that names a producer of class (a switch, not
// a map, so that nothing is built at start-up), and whether class is one of
// the producer tags.
func producerKey(class string) (string, bool) {
	switch class {
	case "verifier", "tool":
		return class, true
	case "agent", "human", "harness":
		return "id", true
	}
	return "", false
}

var producerOrder = []string{"agent", "harness", "human", "tool", "verifier"}

// Producer says who produced a record: Class is one of verifier, agent,
// human, tool, harness; Name is the verifier, id or tool.
type Producer struct {
	Class string
	Name  string
}

// Provenance is where a record came from; empty fields are absent.
type Provenance struct {
	Command, Tool, Revision, Workspace, Environment, Digest string
	Inputs                                                  []string
}

// provenanceKeys lists the provenance keys in encoding order.
var provenanceKeys = []string{"command", "tool", "revision", "workspace", "environment", "digest", "inputs"}

func (p *Provenance) field(k string) *string {
	switch k {
	case "command":
		return &p.Command
	case "tool":
		return &p.Tool
	case "revision":
		return &p.Revision
	case "workspace":
		return &p.Workspace
	case "environment":
		return &p.Environment
	case "digest":
		return &p.Digest
	}
	return nil
}

// Record is one evidence record (engine.md §6.1): times are epoch
// milliseconds; Subject is the envelope subject (`about`).
type Record struct {
	ID         string
	ObservedAt int64
	ProducedAt int64
	Producer   Producer
	Subject    string
	Value      Payload
	Provenance *Provenance
}

// Kind returns the record's canonical kind.
func (r Record) Kind() string { return r.Value.Kind }

// ParseDate reads an observed_at scalar: non-negative epoch milliseconds
// or YYYY-MM-DD (midnight UTC) from 1970-01-01 on. An earlier date would
// be a negative time, which the snapshot of the records refuses when it is
// read back.
func ParseDate(n *yaml.Node) (int64, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if n.Tag == "!!int" {
		v, err := strconv.ParseInt(n.Value, 10, 64)
		return v, err == nil && v >= 0
	}
	t, err := time.Parse("2006-01-02", n.Value)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), t.UnixMilli() >= 0
}

// FormatDate formats epoch milliseconds as YYYY-MM-DD (UTC).
func FormatDate(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02") }

func missing(key, what string) diag.Diagnostic {
	return diag.Errorf(yamldoc.CodeMissingField, "the required key `%s` is missing from the `%s` record", key, what)
}

// ReadDocument reads an evidence document (engine.md §6.3): a YAML or JSON
// list whose entries hold a payload beside `kind`, plus `observed_at` and
// `producer` (required), `about` (alias `envelope_subject`) and
// `provenance`. Records get no id or produced_at here (the execution that
// admits them assigns both). An observed_at more than FutureTolerance after
// now is refused. Records are nil whenever the list holds errors.
func ReadDocument(file string, data []byte, now time.Time) ([]Record, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil || diags.HasErrors() {
		return nil, diags
	}
	r := yamldoc.NewReader(doc, &diags)
	if yamldoc.IsNull(doc.Root) {
		// Empty, only comments or null: not the list §6.3 asks for, and
		// most likely the wrong file. `[]` is the empty list.
		r.WrongType(doc.Root, "", "a list of records")
		return nil, diags
	}
	items, ok := r.Seq(doc.Root, "", false)
	if !ok {
		return nil, diags
	}
	var out []Record
	for i, it := range items {
		p := yamldoc.Index("", i)
		m := r.Map(it, p, false)
		rec, ok := readEntry(r, &m, p, now)
		m.Done()
		if ok {
			out = append(out, rec)
		}
	}
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	return out, diags
}

func readEntry(r *yamldoc.Reader, m *yamldoc.Map, path string, now time.Time) (Record, bool) {
	var rec Record
	kn := m.Require("kind")
	if kn == nil {
		allowRest(m)
		return rec, false
	}
	tag, ok := r.String(kn, yamldoc.Key(path, "kind"))
	if !ok {
		allowRest(m)
		return rec, false
	}
	kind, known := RecordKind(tag)
	if !known {
		r.Report(kn, yamldoc.Key(path, "kind"), diag.Errorf(CodeUnknownKind, "unknown evidence kind `%s`", tag).
			WithHint("expected one of %s", kindList()))
		allowRest(m)
		return rec, false
	}
	good := true
	if on := m.Require("observed_at"); on != nil {
		ms, valid := ParseDate(on)
		switch {
		case !valid:
			r.Invalid(on, yamldoc.Key(path, "observed_at"), "`observed_at` must be a date `YYYY-MM-DD` or epoch milliseconds, found %q", on.Value)
			good = false
		case ms > now.Add(FutureTolerance).UnixMilli():
			r.Report(on, yamldoc.Key(path, "observed_at"), diag.Errorf(CodeFuture, "`observed_at` %s lies in the future", on.Value).
				WithHint("an observation may be dated at most 14 hours after now"))
			good = false
		default:
			rec.ObservedAt = ms
		}
	} else {
		good = false
	}
	if pn := m.Require("producer"); pn != nil {
		rec.Producer, ok = readProducer(r, pn, yamldoc.Key(path, "producer"))
		good = good && ok
	} else {
		good = false
	}
	if sn, key := m.GetAlias("about", "envelope_subject"); sn != nil {
		rec.Subject, ok = r.String(sn, yamldoc.Key(path, key))
		good = good && ok
	}
	if pn := m.Get("provenance"); pn != nil {
		rec.Provenance, ok = readProvenance(r, pn, yamldoc.Key(path, "provenance"))
		good = good && ok
	}
	rec.Value, ok = readPayload(r, m, path, kind, []string{"kind", "observed_at", "producer", "about", "envelope_subject", "provenance"})
	return rec, good && ok
}

func readProducer(r *yamldoc.Reader, n *yaml.Node, path string) (Producer, bool) {
	m := r.Map(n, path, false)
	defer m.Done()
	cn := m.Require("producer")
	if cn == nil {
		return Producer{}, false
	}
	class, ok := r.String(cn, yamldoc.Key(path, "producer"))
	if !ok {
		return Producer{}, false
	}
	key, known := producerKey(class)
	if !known {
		r.Invalid(cn, yamldoc.Key(path, "producer"), "`producer` must be one of %s, found %q", strings.Join(producerOrder, ", "), class)
		return Producer{}, false
	}
	nn := m.Require(key)
	name, ok := r.String(nn, yamldoc.Key(path, key))
	if !ok {
		return Producer{}, false
	}
	if name == "" {
		// Refused at the value: returned without a diagnostic, the
		// record was left out of its document in silence, and a failing
		// run given no name let the passing one before it stand.
		r.Invalid(nn, yamldoc.Key(path, key), "`%s` must name who produced the record, found an empty string", key)
		return Producer{}, false
	}
	return Producer{Class: class, Name: name}, true
}

func readProvenance(r *yamldoc.Reader, n *yaml.Node, path string) (*Provenance, bool) {
	m := r.Map(n, path, false)
	defer m.Done()
	p := &Provenance{}
	ok := true
	for _, k := range provenanceKeys {
		v := m.Get(k)
		if v == nil {
			continue
		}
		if k == "inputs" {
			p.Inputs = r.Strings(v, yamldoc.Key(path, k), false)
			continue
		}
		s, good := r.String(v, yamldoc.Key(path, k))
		ok = ok && good
		*p.field(k) = s
	}
	return p, ok
}

// AppendJSON appends the record's canonical JSON (engine.md §6.1 key order).
func (r Record) AppendJSON(b *bytes.Buffer) {
	b.WriteString(`{"id":`)
	writeString(b, r.ID)
	fmt.Fprintf(b, `,"observed_at":%d,"produced_at":%d,"producer":{"producer":`, r.ObservedAt, r.ProducedAt)
	writeString(b, r.Producer.Class)
	b.WriteByte(',')
	key, _ := producerKey(r.Producer.Class)
	writeString(b, key)
	b.WriteByte(':')
	writeString(b, r.Producer.Name)
	b.WriteByte('}')
	if r.Subject != "" {
		b.WriteString(`,"subject":`)
		writeString(b, r.Subject)
	}
	b.WriteString(`,"value":`)
	writePayload(b, r.Value)
	if p := r.Provenance; p != nil {
		b.WriteString(`,"provenance":{`)
		first := true
		for _, k := range provenanceKeys {
			var v Any
			if k == "inputs" {
				if p.Inputs == nil {
					continue
				}
				list := make([]Any, len(p.Inputs))
				for i, s := range p.Inputs {
					list[i] = s
				}
				v = list
			} else if s := *p.field(k); s != "" {
				v = s
			} else {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeString(b, k)
			b.WriteByte(':')
			writeAny(b, v)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
}

// ReadRecord reads one snapshot record (engine.md §6.1) from mapping node n:
// keys exactly `id observed_at produced_at producer subject? value
// provenance?`, `value` tagged by kind with a closed payload.
func ReadRecord(r *yamldoc.Reader, n *yaml.Node, path string) (Record, bool) {
	m := r.Map(n, path, false)
	defer m.Done()
	var rec Record
	good := true
	var ok bool
	if rec.ID, ok = r.String(m.Require("id"), yamldoc.Key(path, "id")); !ok {
		good = false
	}
	if on := m.Require("observed_at"); on != nil {
		if rec.ObservedAt, ok = ParseDate(on); !ok {
			r.Invalid(on, yamldoc.Key(path, "observed_at"), "`observed_at` must be epoch milliseconds or `YYYY-MM-DD`, found %q", on.Value)
			good = false
		}
	} else {
		good = false
	}
	if pn := m.Require("produced_at"); pn != nil {
		if pn.Tag != "!!int" {
			r.WrongType(pn, yamldoc.Key(path, "produced_at"), "epoch milliseconds")
			good = false
		} else if rec.ProducedAt, ok = ParseDate(pn); !ok {
			r.Invalid(pn, yamldoc.Key(path, "produced_at"), "`produced_at` must be epoch milliseconds, found %q", pn.Value)
			good = false
		}
	} else {
		good = false
	}
	if pn := m.Require("producer"); pn != nil {
		rec.Producer, ok = readProducer(r, pn, yamldoc.Key(path, "producer"))
		good = good && ok
	} else {
		good = false
	}
	if sn := m.Get("subject"); sn != nil {
		rec.Subject, ok = r.String(sn, yamldoc.Key(path, "subject"))
		good = good && ok
	}
	if pn := m.Get("provenance"); pn != nil {
		rec.Provenance, ok = readProvenance(r, pn, yamldoc.Key(path, "provenance"))
		good = good && ok
	}
	vn := m.Require("value")
	if vn == nil {
		return rec, false
	}
	vp := yamldoc.Key(path, "value")
	vm := r.Map(vn, vp, false)
	defer vm.Done()
	kn := vm.Require("kind")
	if kn == nil {
		allowRest(&vm)
		return rec, false
	}
	tag, ok := r.String(kn, yamldoc.Key(vp, "kind"))
	if !ok {
		allowRest(&vm)
		return rec, false
	}
	kind, known := RecordKind(tag)
	if !known {
		r.Report(kn, yamldoc.Key(vp, "kind"), diag.Errorf(CodeUnknownKind, "unknown evidence kind `%s`", tag))
		allowRest(&vm)
		return rec, false
	}
	rec.Value, ok = readPayload(r, &vm, vp, kind, []string{"kind"})
	return rec, good && ok
}

// allowRest allows every key m holds: without a known `kind` the keys a
// record may carry are unknown, and blaming each of them as unknown_field
// would bury the cause (the kind) under its consequences.
func allowRest(m *yamldoc.Map) {
	for _, k := range m.Keys() {
		m.Allow(k.Value)
	}
}

// ReadEntries reads a list of evidence-document entries found at node n
// inside another document (a simulation scenario's `evidence`), with the
// rules of ReadDocument; problems go to r and bad entries are left out.
// Each record comes with where its entry stands, for the checks its
// reader makes later (a kind the run does not declare).
func ReadEntries(r *yamldoc.Reader, n *yaml.Node, path string, now time.Time) ([]Record, []Entry) {
	items, ok := r.Seq(n, path, false)
	if !ok {
		return nil, nil
	}
	var out []Record
	var at []Entry
	for i, it := range items {
		p := yamldoc.Index(path, i)
		m := r.Map(it, p, false)
		rec, ok := readEntry(r, &m, p, now)
		if ok {
			out = append(out, rec)
			at = append(at, Entry{File: r.File, Path: p, KindPos: yamldoc.PosOf(m.Get("kind"))})
		}
		m.Done()
	}
	return out, at
}

// Entry is where an evidence-document entry stands: its file, its
// document path and the position of its `kind` value (1-based, columns in
// code points).
type Entry struct {
	File    string
	Path    string
	KindPos diag.Pos
}
