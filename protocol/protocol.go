// Package protocol holds the shape models of the AEP documents that govern a
// workflow rather than describe it: protocols, principles, profiles and
// artifact lifecycles (documents.md §9, engine.md §1.1–§1.2). Each is decoded
// strictly: unknown keys, key/alias conflicts and bad identifiers are
// refused with positioned diagnostics.
//
// It reads shapes only. What a principle obliges, how profiles merge along
// `extends` and which facts a protocol lets a guard read is the engine's
// judgement (package engine); this package keeps everything the engine needs
// to make it. It also recognises documents that never belong in a tree
// (tasks, artifact manifests, evidence lists, projects) so that the tree can
// refuse them by name.
package protocol

import (
	"fmt"
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Codes this package reports beyond the shared shape codes of yamldoc.
const (
	CodeInvalidIdentifier     = "invalid_identifier"
	CodeInvalidReference      = "invalid_reference"
	CodeUnknownPhase          = "unknown_phase"
	CodeEmptyDeclaration      = "empty_declaration"
	CodeNoVerifierForEvidence = "no_verifier_for_evidence"
)

// Header is what every governing document starts with.
type Header struct {
	// ID is the document's identifier.
	ID string
	// Version is its major version, 1 when not given.
	Version uint32
	// Title is its short human title (empty when absent).
	Title string
	// Summary says what it is for (nil when absent or null).
	Summary *string
	// File is the file it was read from, as reported in diagnostics.
	File string
	// Pos is the position of the document's root node.
	Pos diag.Pos
}

// Protocol is a protocol document: the vocabulary a profile, its principles
// and its workflow are checked against.
type Protocol struct {
	Header
	// Extends is the pinned protocol this one extends (nil for none);
	// ExtendsPos is where it is written.
	Extends    *ident.Ref
	ExtendsPos diag.Pos
	// Capabilities, ApprovalFloor, Verifiers, ArtifactKinds, Phases and
	// Observables keep document order.
	Capabilities  []string
	ApprovalFloor []string
	// EvidenceKinds holds canonical kinds (legacy spellings normalised).
	EvidenceKinds []string
	Verifiers     []string
	ArtifactKinds []string
	Phases        []string
	// Observables are fact patterns: `*` is one segment, a final `**` one
	// or more.
	Observables []string
	// Scales maps a scale name to its ordered values; ScaleNames lists the
	// names in byte order.
	Scales     map[string][]string
	ScaleNames []string
	// DefaultFailurePolicy is the protocol's failure policy (nil for none).
	DefaultFailurePolicy *workflow.FailurePolicy

	kindNodes []*yaml.Node
	// shakyVerifiers: `verifiers` did not decode whole, or is misspelt, so
	// a missing verifier may be its consequence. shakyExtends: `extends`
	// is given but did not decode, so the verifiers it inherits are
	// unknown.
	shakyVerifiers, shakyExtends bool
}

// ExtendsUnreadable reports whether the protocol's `extends` is given but
// did not decode (Extends is then nil although the protocol extends
// something): its verifier rule cannot be applied.
func (p *Protocol) ExtendsUnreadable() bool { return p.shakyExtends }

// Ref returns the protocol's identity, `<id>/<version>`.
func (p *Protocol) Ref() ident.Ref { return ident.Ref{ID: p.ID, Major: p.Version} }

// Location returns the protocol's location prefix, `protocol <id>/<version>`.
func (p *Protocol) Location() string { return "protocol " + p.Ref().String() }

var protocolLists = []string{"capabilities", "approval_floor", "verifiers", "artifact_kinds", "phases", "observables"}

// DecodeProtocol reads a parsed document as a protocol.
func DecodeProtocol(doc *yamldoc.Document, diags *diag.List) *Protocol {
	r := yamldoc.NewReader(doc, diags)
	p := &Protocol{Scales: map[string][]string{}}
	m := decodeHeader(r, doc, "protocol", ident.Kebab, &p.Header)
	path := p.Location()
	if n := m.Get("extends"); !yamldoc.IsNull(n) {
		p.shakyExtends = true
		if s, ok := r.String(n, yamldoc.Key(path, "extends")); ok {
			ref, err := ident.ParsePinnedRef(ident.Kebab, s)
			if err != nil {
				r.Report(n, yamldoc.Key(path, "extends"), diag.Errorf(CodeInvalidReference, "the protocol reference `%s` is invalid: %v", s, err))
			} else {
				p.Extends, p.ExtendsPos, p.shakyExtends = &ref, yamldoc.PosOf(n), false
			}
		}
	}
	lists := map[string]*[]string{
		"capabilities": &p.Capabilities, "approval_floor": &p.ApprovalFloor, "verifiers": &p.Verifiers,
		"artifact_kinds": &p.ArtifactKinds, "phases": &p.Phases, "observables": &p.Observables,
	}
	for _, key := range protocolLists {
		before := len(*r.Diags)
		*lists[key] = r.Strings(m.Get(key), yamldoc.Key(path, key), false)
		if key == "verifiers" {
			p.shakyVerifiers = (*r.Diags)[before:].HasErrors()
		}
	}
	p.checkNames(r, m, path)
	p.decodeEvidenceKinds(r, m.Get("evidence_kinds"), yamldoc.Key(path, "evidence_kinds"))
	p.decodeScales(r, m.Get("scales"), yamldoc.Key(path, "scales"))
	if n := m.Get("default_failure_policy"); !yamldoc.IsNull(n) {
		p.DefaultFailurePolicy = workflow.DecodeFailurePolicy(r, n, yamldoc.Key(path, "default_failure_policy"))
	}
	m.Done()
	p.shakyVerifiers = p.shakyVerifiers || m.Node() == nil || (m.Get("verifiers") == nil && m.Misspelt("verifiers"))
	return p
}

// checkNames checks the identifier lists whose charset is fixed: phases and
// artifact kinds are kebab, verifiers are named classes or tool names.
func (p *Protocol) checkNames(r *yamldoc.Reader, m *yamldoc.Map, path string) {
	check := func(key string, cs ident.Charset, what string) {
		n := m.Get(key)
		if n == nil || n.Kind != yaml.SequenceNode {
			return
		}
		for i, it := range n.Content {
			if it.Kind != yaml.ScalarNode || it.Tag != "!!str" {
				continue
			}
			if err := ident.Check(cs, it.Value); err != nil {
				r.Report(it, yamldoc.Index(yamldoc.Key(path, key), i), diag.Errorf(CodeInvalidIdentifier, "the %s `%s` is invalid: %v", what, it.Value, err))
			}
		}
	}
	check("phases", ident.Kebab, "phase id")
	check("artifact_kinds", ident.Kebab, "artifact kind")
	check("verifiers", ident.Dotted, "verifier")
}

func (p *Protocol) decodeEvidenceKinds(r *yamldoc.Reader, n *yaml.Node, path string) {
	items, _ := r.Seq(n, path, false)
	for i, it := range items {
		s, ok := r.String(it, yamldoc.Index(path, i))
		if !ok {
			continue
		}
		c, known := vocab.CanonicalKind(s)
		if !known {
			r.Invalid(it, yamldoc.Index(path, i), "`%s` is not an evidence kind", s)
			continue
		}
		p.EvidenceKinds = append(p.EvidenceKinds, c)
		p.kindNodes = append(p.kindNodes, it)
	}
}

func (p *Protocol) decodeScales(r *yamldoc.Reader, n *yaml.Node, path string) {
	sm := r.Map(n, path, true)
	for _, k := range sm.Keys() {
		if _, dup := p.Scales[k.Value]; dup {
			continue
		}
		p.Scales[k.Value] = r.Strings(sm.Get(k.Value), yamldoc.Key(path, k.Value), false)
		p.ScaleNames = append(p.ScaleNames, k.Value)
	}
	slices.Sort(p.ScaleNames)
	sm.Done()
}

// ValidateVerifiers applies the protocol rule of documents.md §9: every
// evidence kind the protocol declares needs one of its default verifiers
// among the verifiers the protocol declares, its own or inherited (pass the
// verifiers of its extends chain as inherited; nil when unresolved). On a
// protocol decoded with shape errors it checks the evidence kinds that
// decoded, and says nothing when its own `verifiers` did not decode whole
// or is misspelt (a missing verifier may be the consequence).
func (p *Protocol) ValidateVerifiers(inherited []string) diag.List {
	if p.shakyVerifiers {
		return nil
	}
	var diags diag.List
	have := append(slices.Clone(inherited), p.Verifiers...)
	for i, kind := range p.EvidenceKinds {
		defaults := vocab.DefaultVerifiers(kind)
		if slices.ContainsFunc(defaults, func(v string) bool { return slices.Contains(have, v) }) {
			continue
		}
		d := diag.Errorf(CodeNoVerifierForEvidence, "protocol `%s` declares evidence kind `%s` but no verifier that establishes it", p.Ref(), kind).
			At(p.File, yamldoc.PosOf(p.kindNodes[i])).WithPath(fmt.Sprintf("%s.evidence_kinds[%d]", p.Location(), i))
		if len(defaults) > 0 {
			d = d.WithHint("declare one of %s under `verifiers`", joinTicks(defaults))
		} else {
			d = d.WithHint("no verifier establishes `%s`; remove it from `evidence_kinds`", kind)
		}
		diags.Add(d)
	}
	return diags
}

// decodeHeader reads id (required, charset cs), version, title and summary,
// and returns the top mapping for the caller's own keys.
func decodeHeader(r *yamldoc.Reader, doc *yamldoc.Document, kind string, cs ident.Charset, h *Header) *yamldoc.Map {
	h.File, h.Version, h.Pos = doc.File, 1, yamldoc.PosOf(doc.Root)
	path := kind
	if id := value(doc.Root, "id"); id != nil && id.Kind == yaml.ScalarNode && id.Tag == "!!str" {
		path = kind + " " + id.Value
		if v := value(doc.Root, "version"); kind == "protocol" && v != nil && v.Tag == "!!int" {
			path += "/" + v.Value
		} else if kind == "protocol" {
			path += "/1"
		}
	}
	m := r.Map(doc.Root, path, false)
	if n := m.Require("id"); n != nil {
		if s, ok := r.String(n, yamldoc.Key(path, "id")); ok {
			h.ID = s
			if err := ident.Check(cs, s); err != nil {
				r.Report(n, yamldoc.Key(path, "id"), diag.Errorf(CodeInvalidIdentifier, "the %s id `%s` is invalid: %v", kind, s, err))
			}
		}
	}
	if n := m.Get("version"); n != nil {
		if v, ok := r.Uint32(n, yamldoc.Key(path, "version"), 1); ok {
			h.Version = v
		}
	}
	if n := m.Require("title"); n != nil {
		h.Title, _ = r.String(n, yamldoc.Key(path, "title"))
	}
	if n := m.Get("summary"); n != nil {
		if s, ok := r.OptString(n, yamldoc.Key(path, "summary")); ok {
			h.Summary = &s
		}
	}
	return &m
}

func joinTicks(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += ", "
		}
		out += "`" + s + "`"
	}
	return out
}

// parsePredicate parses a predicate and reports its diagnostics through r.
func parsePredicate(r *yamldoc.Reader, n *yaml.Node, path string) predicate.Predicate {
	p, diags := predicate.Parse(n, r.File, path)
	r.Diags.Extend(diags)
	return p
}
