package protocol

import (
	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Profile is a profile document: a protocol, a workflow and the principles
// a task works under.
type Profile struct {
	Header
	// Protocol is the pinned protocol the profile is written against.
	Protocol ident.Ref
	// Workflow is the workflow reference (nil when inherited through
	// Extends); it may be unpinned.
	Workflow *ident.Ref
	// Extends is the id of the profile this one extends ("" for none).
	Extends string
	// Principles lists principle references in document order.
	Principles []ident.Ref
	// WithoutPrinciples is `without_principles` (alias
	// `remove_principles`).
	WithoutPrinciples []ident.Ref
	// Capabilities is what the profile grants.
	Capabilities workflow.CapabilityPolicy
	// Completion is the profile's completion set.
	Completion workflow.RequirementSet
	// Facts maps a fact path to the value the profile presets; FactPaths
	// lists the paths in byte order.
	Facts     map[string]predicate.Value
	FactPaths []string

	// ProtocolPos, WorkflowPos and ExtendsPos are where the references
	// are written (zero when absent), PrinciplePos where each of
	// Principles is, in order: validation blames a reference the tree
	// cannot resolve at its own line.
	ProtocolPos, WorkflowPos, ExtendsPos diag.Pos
	PrinciplePos                         []diag.Pos
}

// Location returns the profile's location prefix, `profile <id>`.
func (p *Profile) Location() string { return "profile " + p.ID }

// DecodeProfile reads a parsed document as a profile.
func DecodeProfile(doc *yamldoc.Document, diags *diag.List) *Profile {
	r := yamldoc.NewReader(doc, diags)
	p := &Profile{Facts: map[string]predicate.Value{}}
	m := decodeHeader(r, doc, "profile", ident.Dotted, &p.Header)
	path := p.Location()
	if n := m.Require("protocol"); n != nil {
		if ref, ok := decodeRef(r, n, yamldoc.Key(path, "protocol"), ident.Kebab, true, "protocol"); ok {
			p.Protocol, p.ProtocolPos = ref, yamldoc.PosOf(n)
		}
	}
	if n := m.Get("workflow"); !yamldoc.IsNull(n) {
		if ref, ok := decodeRef(r, n, yamldoc.Key(path, "workflow"), ident.Dotted, false, "workflow"); ok {
			p.Workflow, p.WorkflowPos = &ref, yamldoc.PosOf(n)
		}
	}
	if n := m.Get("extends"); !yamldoc.IsNull(n) {
		if s, ok := r.String(n, yamldoc.Key(path, "extends")); ok {
			p.Extends, p.ExtendsPos = s, yamldoc.PosOf(n)
			checkID(r, n, yamldoc.Key(path, "extends"), ident.Dotted, "profile id", s)
		}
	}
	p.Principles, p.PrinciplePos = decodeRefsAt(r, m.Get("principles"), yamldoc.Key(path, "principles"))
	if n, key := m.GetAlias("without_principles", "remove_principles"); n != nil {
		p.WithoutPrinciples = decodeRefs(r, n, yamldoc.Key(path, key))
	}
	if n := m.Get("capabilities"); !yamldoc.IsNull(n) {
		p.Capabilities = workflow.DecodeCapabilityPolicy(r, n, yamldoc.Key(path, "capabilities"))
	}
	if n := m.Get("completion"); n != nil {
		p.Completion = workflow.DecodeRequirementSet(r, n, yamldoc.Key(path, "completion"))
	}
	p.decodeFacts(r, m.Get("facts"), yamldoc.Key(path, "facts"))
	m.Done()
	return p
}

func decodeRef(r *yamldoc.Reader, n *yaml.Node, path string, cs ident.Charset, pinned bool, what string) (ident.Ref, bool) {
	s, ok := r.String(n, path)
	if !ok {
		return ident.Ref{}, false
	}
	parse := ident.ParseRef
	if pinned {
		parse = ident.ParsePinnedRef
	}
	ref, err := parse(cs, s)
	if err != nil {
		r.Report(n, path, diag.Errorf(CodeInvalidReference, "the %s reference `%s` is invalid: %v", what, s, err))
		return ident.Ref{}, false
	}
	return ref, true
}

func decodeRefs(r *yamldoc.Reader, n *yaml.Node, path string) []ident.Ref {
	out, _ := decodeRefsAt(r, n, path)
	return out
}

// decodeRefsAt is decodeRefs that also returns where each reference is.
func decodeRefsAt(r *yamldoc.Reader, n *yaml.Node, path string) ([]ident.Ref, []diag.Pos) {
	items, _ := r.Seq(n, path, false)
	var out []ident.Ref
	var pos []diag.Pos
	for i, it := range items {
		if ref, ok := decodeRef(r, it, yamldoc.Index(path, i), ident.Kebab, false, "principle"); ok {
			out = append(out, ref)
			pos = append(pos, yamldoc.PosOf(it))
		}
	}
	return out, pos
}

// decodeFacts reads `facts`: a mapping from fact path to a scalar.
func (p *Profile) decodeFacts(r *yamldoc.Reader, n *yaml.Node, path string) {
	m := r.Map(n, path, true)
	for _, k := range m.Keys() {
		val, ok := DecodeFact(r, k, m.Get(k.Value), yamldoc.Key(path, k.Value))
		if !ok {
			continue
		}
		if _, dup := p.Facts[k.Value]; !dup {
			p.FactPaths = append(p.FactPaths, k.Value)
		}
		p.Facts[k.Value] = val
	}
	sortStrings(p.FactPaths)
	m.Done()
}
