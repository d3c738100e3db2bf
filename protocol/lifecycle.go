package protocol

import (
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Lifecycle is an artifact lifecycle: the statuses an artifact kind moves
// through and the evidence a status costs.
type Lifecycle struct {
	// Kind is the artifact kind (kebab); it is the lifecycle's identity.
	Kind string
	// Initial is the status a new artifact starts in ("" when not given).
	Initial string
	// Transitions maps a status to the statuses it may move to, in
	// document order; Statuses lists its keys in byte order.
	Transitions map[string][]string
	Statuses    []string
	// Requires maps a status to the evidence entering it costs.
	Requires map[string][]StatusRequirement
	// File is the file it was read from; Pos the root node's position.
	File string
	Pos  diag.Pos
}

// StatusRequirement is one `{evidence: <kind>, at_least: n}` entry.
type StatusRequirement struct {
	// Evidence is the canonical evidence kind.
	Evidence string
	// AtLeast is the number of records needed (default 1).
	AtLeast uint32
}

// Location returns the lifecycle's location prefix, `lifecycle <kind>`.
func (l *Lifecycle) Location() string { return "lifecycle " + l.Kind }

// DecodeLifecycle reads a parsed document as an artifact lifecycle. A
// lifecycle without `kind` is refused with missing_field.
func DecodeLifecycle(doc *yamldoc.Document, diags *diag.List) *Lifecycle {
	r := yamldoc.NewReader(doc, diags)
	l := &Lifecycle{File: doc.File, Pos: yamldoc.PosOf(doc.Root), Transitions: map[string][]string{}, Requires: map[string][]StatusRequirement{}}
	path := "lifecycle"
	if k := value(doc.Root, "kind"); k != nil && k.Kind == yaml.ScalarNode && k.Tag == "!!str" {
		path = "lifecycle " + k.Value
	}
	m := r.Map(doc.Root, path, false)
	if n := m.Require("kind"); n != nil {
		if s, ok := r.String(n, yamldoc.Key(path, "kind")); ok {
			l.Kind = s
			checkID(r, n, yamldoc.Key(path, "kind"), ident.Kebab, "artifact kind", s)
		}
	}
	if n := m.Get("initial"); !yamldoc.IsNull(n) {
		l.Initial, _ = r.String(n, yamldoc.Key(path, "initial"))
	}
	tm := r.Map(m.Get("transitions"), yamldoc.Key(path, "transitions"), true)
	for _, k := range tm.Keys() {
		if _, dup := l.Transitions[k.Value]; dup {
			continue
		}
		l.Transitions[k.Value] = r.Strings(tm.Get(k.Value), yamldoc.Key(yamldoc.Key(path, "transitions"), k.Value), false)
		l.Statuses = append(l.Statuses, k.Value)
	}
	slices.Sort(l.Statuses)
	tm.Done()
	l.decodeRequires(r, m.Get("requires"), yamldoc.Key(path, "requires"))
	m.Done()
	return l
}

func (l *Lifecycle) decodeRequires(r *yamldoc.Reader, n *yaml.Node, path string) {
	rm := r.Map(n, path, true)
	for _, k := range rm.Keys() {
		sp := yamldoc.Key(path, k.Value)
		items, _ := r.Seq(rm.Get(k.Value), sp, false)
		var reqs []StatusRequirement
		for i, it := range items {
			if req, ok := decodeStatusRequirement(r, it, yamldoc.Index(sp, i)); ok {
				reqs = append(reqs, req)
			}
		}
		if _, dup := l.Requires[k.Value]; !dup {
			l.Requires[k.Value] = reqs
		}
	}
	rm.Done()
}

func decodeStatusRequirement(r *yamldoc.Reader, n *yaml.Node, path string) (StatusRequirement, bool) {
	req := StatusRequirement{AtLeast: 1}
	m := r.Map(n, path, false)
	defer m.Done()
	v := m.Require("evidence")
	if v == nil {
		return req, false
	}
	s, ok := r.String(v, yamldoc.Key(path, "evidence"))
	if !ok {
		return req, false
	}
	kind, known := vocab.CanonicalKind(s)
	if !known {
		r.Invalid(v, yamldoc.Key(path, "evidence"), "`%s` is not an evidence kind", s)
		return req, false
	}
	req.Evidence = kind
	if a := m.Get("at_least"); a != nil {
		if n, ok := r.Uint32(a, yamldoc.Key(path, "at_least"), 0); ok {
			req.AtLeast = n
		}
	}
	return req, true
}
