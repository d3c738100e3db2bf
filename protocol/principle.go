package protocol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// TimingKind says when an obligation binds.
type TimingKind string

// The three timings of engine.md §4.6.
const (
	Always TimingKind = "always"
	Before TimingKind = "before"
	During TimingKind = "during"
)

// Timing is when an obligation binds: always, or before/during a target
// that is a phase or a state. The default timing is before phase
// `completion`.
type Timing struct {
	Kind TimingKind
	// Phase is the target phase (empty when the target is a state).
	Phase string
	// State is the target state (empty when the target is a phase).
	State string
}

// String formats the timing as `always`, `before <phase>` or
// `during state <s>`.
func (t Timing) String() string {
	switch {
	case t.Kind == Always:
		return "always"
	case t.State != "":
		return fmt.Sprintf("%s state %s", t.Kind, t.State)
	}
	return fmt.Sprintf("%s %s", t.Kind, t.Phase)
}

// DefaultTiming is the timing of a requirement set that states none.
var DefaultTiming = Timing{Kind: Before, Phase: "completion"}

// Requirement is one timed requirement set of a principle's `requires`.
type Requirement struct {
	// Key is the `requires` key it came from (`always`, `before_review`);
	// empty for the set gathered from plain requirement keys or for a list.
	Key    string
	Timing Timing
	Set    workflow.RequirementSet
	// Pos is where the timing is written: the key (`before_review`, or
	// the `before`/`during` selector), else the `requires` value.
	Pos diag.Pos
}

// Obligation is one entry of a principle's explicit `obligations` list.
type Obligation struct {
	ID          string
	Description *string
	Timing      Timing
	Set         workflow.RequirementSet
	// Pos is where the timing is written: the value of `always`, `before`
	// or `during`, else the obligation's entry.
	Pos diag.Pos
}

// Verification is one entry of a principle's `verification` list: a
// verifier that must run (for a claim, on a subject kind).
type Verification struct {
	Verifier    string
	Claim       string
	SubjectKind string
	// Timing is as stated; verification gates completion whatever it says.
	Timing *Timing
}

// Principle is a principle document: obligations a task takes on while the
// principle is in force.
type Principle struct {
	Header
	// AppliesWhen is `applies_when` (alias `applicability`); nil = always.
	AppliesWhen predicate.Predicate
	// Requires holds the timed sets of `requires`, keyed ones in key order,
	// the gathered set last.
	Requires []Requirement
	// Obligations are the explicit obligations, in document order.
	Obligations []Obligation
	// Evidence is the top-level `evidence` list (gates completion only).
	Evidence []workflow.EvidenceReq
	// Verification is the top-level `verification` list.
	Verification []Verification
	// Capabilities restricts what a task may do while it is in force.
	Capabilities workflow.CapabilityPolicy
	// OnFailure is `on_failure` (alias `failure_policy`), nil for none.
	OnFailure *workflow.FailurePolicy

	// shakyDuties: a part that could make the principle enforceable
	// (requires, obligations, evidence, verification, capabilities) did
	// not decode, or is misspelt, so whether it declares nothing
	// enforceable is unknown.
	shakyDuties bool
}

// dutyKeys are the keys whose contents make a principle enforceable.
var dutyKeys = []string{"requires", "obligations", "evidence", "verification", "capabilities"}

// Location returns the principle's location prefix, `principle <id>`.
func (p *Principle) Location() string { return "principle " + p.ID }

// DecodePrinciple reads a parsed document as a principle.
func DecodePrinciple(doc *yamldoc.Document, diags *diag.List) *Principle {
	r := yamldoc.NewReader(doc, diags)
	p := &Principle{}
	m := decodeHeader(r, doc, "principle", ident.Kebab, &p.Header)
	path := p.Location()
	if n, key := m.GetAlias("applies_when", "applicability"); !yamldoc.IsNull(n) {
		p.AppliesWhen = parsePredicate(r, n, yamldoc.Key(path, key))
	}
	// Errors reported from here to the capabilities are in the parts that
	// make a principle enforceable.
	dutiesFrom := len(*r.Diags)
	if n := m.Get("requires"); !yamldoc.IsNull(n) {
		p.Requires = decodeRequires(r, n, yamldoc.Key(path, "requires"))
	}
	if n := m.Get("obligations"); n != nil {
		items, _ := r.Seq(n, yamldoc.Key(path, "obligations"), false)
		for i, it := range items {
			if o, ok := decodeObligation(r, it, yamldoc.Index(yamldoc.Key(path, "obligations"), i)); ok {
				p.Obligations = append(p.Obligations, o)
			}
		}
	}
	if n := m.Get("evidence"); !yamldoc.IsNull(n) {
		p.Evidence = workflow.DecodeRequirementSet(r, wrap("evidence", n), path).Evidence
	}
	if n := m.Get("verification"); n != nil {
		items, _ := r.Seq(n, yamldoc.Key(path, "verification"), true)
		for i, it := range items {
			p.Verification = append(p.Verification, decodeVerification(r, it, yamldoc.Index(yamldoc.Key(path, "verification"), i)))
		}
	}
	if n := m.Get("capabilities"); !yamldoc.IsNull(n) {
		p.Capabilities = workflow.DecodeCapabilityPolicy(r, n, yamldoc.Key(path, "capabilities"))
	}
	p.shakyDuties = m.Node() == nil || (*r.Diags)[min(dutiesFrom, len(*r.Diags)):].HasErrors()
	if n, key := m.GetAlias("on_failure", "failure_policy"); !yamldoc.IsNull(n) {
		p.OnFailure = workflow.DecodeFailurePolicy(r, n, yamldoc.Key(path, key))
	}
	m.Done()
	for _, k := range dutyKeys {
		p.shakyDuties = p.shakyDuties || (m.Get(k) == nil && m.Misspelt(k))
	}
	return p
}

// Enforceable reports whether the principle declares anything a run could
// be held to: a non-empty requirement, obligation, evidence or verification
// item, or a capability restriction.
func (p *Principle) Enforceable() bool {
	for _, rq := range p.Requires {
		if !rq.Set.IsEmpty() {
			return true
		}
	}
	for _, o := range p.Obligations {
		if !o.Set.IsEmpty() {
			return true
		}
	}
	return len(p.Evidence) > 0 || len(p.Verification) > 0 || !p.Capabilities.IsEmpty()
}

// Validate reports a principle that declares nothing enforceable. On a
// principle decoded with shape errors it says nothing when one of the
// parts that would make it enforceable did not decode or is misspelt: that
// part's own diagnostic is the cause.
func (p *Principle) Validate() diag.List {
	if p.Enforceable() || p.shakyDuties {
		return nil
	}
	name := "the principle" // its id is missing or did not decode: that has its own diagnostic
	if p.ID != "" {
		name = "principle `" + p.ID + "`"
	}
	return diag.List{diag.Errorf(CodeEmptyDeclaration, "%s declares nothing enforceable", name).
		At(p.File, p.Pos).WithPath(p.Location()).
		WithHint("add `requires`, `obligations`, `evidence`, `verification` or `capabilities`")}
}

// wrap builds the one-key mapping {key: n}, so that a list found elsewhere
// can be read by the requirement-set decoder under its own key.
func wrap(key string, n *yaml.Node) *yaml.Node {
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: n.Line, Column: n.Column}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, n}, Line: n.Line, Column: n.Column}
}

// decodeRequires reads a principle's `requires` (engine.md §4.6): a list is
// one set with the default timing; a mapping's keys are read in byte order.
func decodeRequires(r *yamldoc.Reader, n *yaml.Node, path string) []Requirement {
	if n.Kind != yaml.MappingNode {
		return []Requirement{{Timing: DefaultTiming, Set: workflow.DecodeRequirementSet(r, n, path), Pos: yamldoc.PosOf(n)}}
	}
	m := r.Map(n, path, false)
	keys := m.Keys()
	slices.SortFunc(keys, func(a, b *yaml.Node) int { return strings.Compare(a.Value, b.Value) })
	var out []Requirement
	var selector *Timing
	var selectorKey *yaml.Node
	gathered := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for _, k := range keys {
		v := m.Get(k.Value)
		kp := yamldoc.Key(path, k.Value)
		switch {
		case k.Value == "always":
			out = append(out, Requirement{Key: k.Value, Timing: Timing{Kind: Always}, Set: workflow.DecodeRequirementSet(r, v, kp), Pos: yamldoc.PosOf(k)})
		case k.Value == "before" || k.Value == "during":
			if t, ok := decodeTarget(r, TimingKind(k.Value), v, kp); ok {
				selector, selectorKey = &t, k
			}
		case strings.HasPrefix(k.Value, "before_") || strings.HasPrefix(k.Value, "during_"):
			kind, rest, _ := strings.Cut(k.Value, "_")
			phase := strings.ReplaceAll(rest, "_", "-")
			if err := ident.Check(ident.Kebab, phase); err != nil {
				r.Report(k, kp, diag.Errorf(CodeUnknownPhase, "`%s` does not name a phase: the phase `%s` is invalid: %v", k.Value, phase, err).
					WithHint("write `before_<phase>` or `during_<phase>` with a kebab-case phase, underscores standing for hyphens"))
				continue
			}
			out = append(out, Requirement{Key: k.Value, Timing: Timing{Kind: TimingKind(kind), Phase: phase}, Set: workflow.DecodeRequirementSet(r, v, kp), Pos: yamldoc.PosOf(k)})
		default:
			gathered.Content = append(gathered.Content, k, v)
		}
	}
	if len(gathered.Content) > 0 {
		t, pos := DefaultTiming, yamldoc.PosOf(n)
		if selector != nil {
			t, pos = *selector, yamldoc.PosOf(selectorKey)
		}
		out = append(out, Requirement{Timing: t, Set: workflow.DecodeRequirementSet(r, gathered, path), Pos: pos})
	} else if selector != nil {
		r.Report(selectorKey, yamldoc.Key(path, selectorKey.Value), diag.Errorf(CodeEmptyDeclaration,
			"`%s` selects a timing but no requirement follows it to be timed", selectorKey.Value))
	}
	m.Done()
	return out
}

// decodeTarget reads a timing target: `{phase: P}`, `{state: S}` or a bare
// phase name.
func decodeTarget(r *yamldoc.Reader, kind TimingKind, n *yaml.Node, path string) (Timing, bool) {
	t := Timing{Kind: kind}
	if n != nil && n.Kind == yaml.ScalarNode {
		s, ok := r.String(n, path)
		if ok && checkID(r, n, path, ident.Kebab, "phase", s) {
			t.Phase = s
			return t, true
		}
		return t, false
	}
	m := r.Map(n, path, false)
	defer m.Done()
	ph, st := m.Get("phase"), m.Get("state")
	switch {
	case ph != nil && st != nil:
		r.Report(m.KeyNode("state"), yamldoc.Key(path, "state"), diag.Errorf(yamldoc.CodeConflictingAlias, "a timing target names a `phase` and a `state`; give one"))
	case ph != nil:
		s, ok := r.String(ph, yamldoc.Key(path, "phase"))
		if ok && checkID(r, ph, yamldoc.Key(path, "phase"), ident.Kebab, "phase", s) {
			t.Phase = s
			return t, true
		}
	case st != nil:
		s, ok := r.String(st, yamldoc.Key(path, "state"))
		if ok && checkID(r, st, yamldoc.Key(path, "state"), ident.DottedSnake, "state", s) {
			t.State = s
			return t, true
		}
	case m.Node() != nil:
		r.Report(m.Node(), path, diag.Errorf(yamldoc.CodeMissingField, "a timing target needs `phase` or `state`"))
	}
	return t, false
}

func checkID(r *yamldoc.Reader, n *yaml.Node, path string, cs ident.Charset, what, s string) bool {
	if err := ident.Check(cs, s); err != nil {
		code := CodeInvalidIdentifier
		if what == "phase" {
			code = CodeUnknownPhase
		}
		r.Report(n, path, diag.Errorf(code, "the %s `%s` is invalid: %v", what, s, err))
		return false
	}
	return true
}

func decodeObligation(r *yamldoc.Reader, n *yaml.Node, path string) (Obligation, bool) {
	o := Obligation{Timing: DefaultTiming, Pos: yamldoc.PosOf(n)}
	m := r.Map(n, path, false)
	if m.Node() == nil {
		return o, false
	}
	if v := m.Require("id"); v != nil {
		if s, ok := r.String(v, yamldoc.Key(path, "id")); ok {
			o.ID = s
			checkID(r, v, yamldoc.Key(path, "id"), ident.DottedSnake, "obligation id", s)
		}
	}
	if v := m.Get("description"); v != nil {
		if s, ok := r.OptString(v, yamldoc.Key(path, "description")); ok {
			o.Description = &s
		}
	}
	timings := 0
	for _, k := range []string{"always", "before", "during"} {
		v := m.Get(k)
		if v == nil {
			continue
		}
		if timings++; timings > 1 {
			r.Report(m.KeyNode(k), yamldoc.Key(path, k), diag.Errorf(yamldoc.CodeConflictingAlias, "an obligation has one timing; `%s` is a second", k))
			continue
		}
		if k == "always" {
			if b, ok := r.Bool(v, yamldoc.Key(path, k)); ok && b {
				o.Timing, o.Pos = Timing{Kind: Always}, yamldoc.PosOf(v)
			}
			continue
		}
		if t, ok := decodeTarget(r, TimingKind(k), v, yamldoc.Key(path, k)); ok {
			o.Timing, o.Pos = t, yamldoc.PosOf(v)
		}
	}
	req, key := m.GetAlias("requires", "require")
	o.Set = workflow.DecodeRequirementSet(r, req, yamldoc.Key(path, key))
	m.Done()
	return o, true
}

func decodeVerification(r *yamldoc.Reader, n *yaml.Node, path string) Verification {
	var v Verification
	if n != nil && n.Kind == yaml.ScalarNode {
		v.Verifier, _ = r.String(n, path)
		checkID(r, n, path, ident.Dotted, "verifier", v.Verifier)
		return v
	}
	m := r.Map(n, path, false)
	if x := m.Require("verifier"); x != nil {
		if s, ok := r.String(x, yamldoc.Key(path, "verifier")); ok {
			v.Verifier = s
			checkID(r, x, yamldoc.Key(path, "verifier"), ident.Dotted, "verifier", s)
		}
	}
	if x := m.Get("claim"); x != nil {
		if s, ok := r.OptString(x, yamldoc.Key(path, "claim")); ok {
			v.Claim = s
			checkID(r, x, yamldoc.Key(path, "claim"), ident.Kebab, "claim", s)
		}
	}
	if x := m.Get("subject_kind"); x != nil {
		if s, ok := r.OptString(x, yamldoc.Key(path, "subject_kind")); ok {
			v.SubjectKind = s
			checkID(r, x, yamldoc.Key(path, "subject_kind"), ident.Kebab, "artifact kind", s)
		}
	}
	for _, k := range []string{"before", "during"} {
		if x := m.Get(k); x != nil {
			if t, ok := decodeTarget(r, TimingKind(k), x, yamldoc.Key(path, k)); ok {
				v.Timing = &t
			}
		}
	}
	m.Done()
	return v
}
