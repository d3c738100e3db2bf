package engine

import (
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// EvidenceReq is an evidence requirement (engine.md §4.4). Kind is
// canonical; Horizon is in days (0 = none).
type EvidenceReq struct {
	Kind        string
	AtLeast     int
	Subject     string
	Verifier    string
	Independent bool
	Horizon     int
}

// Relation constrains an artifact requirement to one outgoing edge.
type Relation struct {
	Kind       string
	TargetKind string
	TargetTask bool
}

// ArtifactReq is an artifact requirement (engine.md §4.5).
type ArtifactReq struct {
	Kind     string
	Status   string
	AtLeast  int
	Relation *Relation
	Fresh    bool
}

// ReviewReq is a review requirement (peripheral).
type ReviewReq struct {
	SubjectKind string
	Subject     string
	Result      string
	Human       bool
	Fresh       bool
}

// ApprovalReq is an approval requirement (peripheral).
type ApprovalReq struct {
	ID    string
	Human bool
}

// Conditional is `{when, require}`.
type Conditional struct {
	When    predicate.Predicate
	Require *ReqSet
}

// Advisory is `{owner, exit_criterion, require}`: its items block like any
// other and render tagged with owner and exit criterion.
type Advisory struct {
	Owner         string
	ExitCriterion string
	Require       *ReqSet
}

// ReqSet is a requirement set (engine.md §4.1), each flavour in document
// order.
type ReqSet struct {
	Predicates  []predicate.Predicate
	Evidence    []EvidenceReq
	Artifacts   []ArtifactReq
	Reviews     []ReviewReq
	Approvals   []ApprovalReq
	Conditional []Conditional
	Advisory    []Advisory
}

// Empty reports whether the set holds no item.
func (s *ReqSet) Empty() bool {
	return s == nil || len(s.Predicates)+len(s.Evidence)+len(s.Artifacts)+len(s.Reviews)+
		len(s.Approvals)+len(s.Conditional)+len(s.Advisory) == 0
}

// Concat returns a set holding s's items followed by t's, flavour by
// flavour (used for profile completion: base then child).
func (s *ReqSet) Concat(t *ReqSet) *ReqSet {
	if s == nil {
		return t
	}
	if t == nil {
		return s
	}
	return &ReqSet{
		Predicates:  append(slices.Clone(s.Predicates), t.Predicates...),
		Evidence:    append(slices.Clone(s.Evidence), t.Evidence...),
		Artifacts:   append(slices.Clone(s.Artifacts), t.Artifacts...),
		Reviews:     append(slices.Clone(s.Reviews), t.Reviews...),
		Approvals:   append(slices.Clone(s.Approvals), t.Approvals...),
		Conditional: append(slices.Clone(s.Conditional), t.Conditional...),
		Advisory:    append(slices.Clone(s.Advisory), t.Advisory...),
	}
}

// setKeys are the requirement-set keys; any other key is a fact predicate.
var setKeys = []string{"predicates", "evidence", "artifacts", "artifact", "reviews", "review", "approvals", "approval", "conditional", "conditional_requirements", "advisory"}

// decoder decodes engine documents from strict YAML nodes.
type decoder struct {
	r *yamldoc.Reader
}

// predicate parses a predicate node, reporting into the reader's list.
func (d decoder) predicate(n *yaml.Node, path string) predicate.Predicate {
	p, ds := predicate.Parse(n, d.r.File, path)
	d.r.Diags.Extend(ds)
	if p == nil {
		return predicate.Never{}
	}
	return p
}

// ReqSet decodes a requirement set (engine.md §4.1). Null is the empty set;
// a string, bool or list is its predicates.
func (d decoder) reqSet(n *yaml.Node, path string) *ReqSet {
	s := &ReqSet{}
	switch {
	case yamldoc.IsNull(n):
		return s
	case n.Kind == yaml.SequenceNode:
		for i, it := range n.Content {
			s.Predicates = append(s.Predicates, d.predicate(it, yamldoc.Index(path, i)))
		}
		return s
	case n.Kind == yaml.ScalarNode:
		s.Predicates = append(s.Predicates, d.predicate(n, path))
		return s
	case n.Kind != yaml.MappingNode:
		d.r.WrongType(n, path, "a requirement set")
		return s
	}
	m := d.r.Map(n, path, false)
	for i, it := range d.items(m.Get("predicates"), yamldoc.Key(path, "predicates")) {
		s.Predicates = append(s.Predicates, d.predicate(it, yamldoc.Index(yamldoc.Key(path, "predicates"), i)))
	}
	rest := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !slices.Contains(setKeys, n.Content[i].Value) {
			m.Allow(n.Content[i].Value)
			rest.Content = append(rest.Content, n.Content[i], n.Content[i+1])
		}
	}
	if len(rest.Content) > 0 {
		s.Predicates = append(s.Predicates, d.predicate(rest, path))
	}
	ev := yamldoc.Key(path, "evidence")
	for i, it := range d.items(m.Get("evidence"), ev) {
		if e, ok := d.evidenceReq(it, yamldoc.Index(ev, i)); ok {
			s.Evidence = append(s.Evidence, e)
		}
	}
	an, ak := m.GetAlias("artifacts", "artifact")
	for i, it := range d.items(an, yamldoc.Key(path, ak)) {
		if a, ok := d.artifactReq(it, yamldoc.Index(yamldoc.Key(path, ak), i)); ok {
			s.Artifacts = append(s.Artifacts, a)
		}
	}
	rn, rk := m.GetAlias("reviews", "review")
	for i, it := range d.items(rn, yamldoc.Key(path, rk)) {
		if rv, ok := d.reviewReq(it, yamldoc.Index(yamldoc.Key(path, rk), i)); ok {
			s.Reviews = append(s.Reviews, rv)
		}
	}
	pn, pk := m.GetAlias("approvals", "approval")
	for i, it := range d.items(pn, yamldoc.Key(path, pk)) {
		if a, ok := d.approvalReq(it, yamldoc.Index(yamldoc.Key(path, pk), i)); ok {
			s.Approvals = append(s.Approvals, a)
		}
	}
	cn, ck := m.GetAlias("conditional", "conditional_requirements")
	for i, it := range d.items(cn, yamldoc.Key(path, ck)) {
		p := yamldoc.Index(yamldoc.Key(path, ck), i)
		cm := d.r.Map(it, p, false)
		c := Conditional{When: predicate.Never{}, Require: &ReqSet{}}
		if w := cm.Require("when"); w != nil {
			c.When = d.predicate(w, yamldoc.Key(p, "when"))
		}
		rq, rqk := cm.GetAlias("require", "requires")
		if rq == nil && cm.Node() != nil {
			d.r.Report(cm.Node(), p, diag.Errorf(yamldoc.CodeMissingField, "the required key `require` is missing"))
		} else if rq != nil {
			c.Require = d.reqSet(rq, yamldoc.Key(p, rqk))
		}
		cm.Done()
		s.Conditional = append(s.Conditional, c)
	}
	for i, it := range d.items(m.Get("advisory"), yamldoc.Key(path, "advisory")) {
		p := yamldoc.Index(yamldoc.Key(path, "advisory"), i)
		am := d.r.Map(it, p, false)
		a := Advisory{Require: &ReqSet{}}
		a.Owner, _ = d.r.String(am.Require("owner"), yamldoc.Key(p, "owner"))
		a.ExitCriterion, _ = d.r.String(am.Require("exit_criterion"), yamldoc.Key(p, "exit_criterion"))
		if rq := am.Require("require"); rq != nil {
			a.Require = d.reqSet(rq, yamldoc.Key(p, "require"))
		}
		am.Done()
		s.Advisory = append(s.Advisory, a)
	}
	m.Done()
	return s
}

// items reads "a list or one item" (null = none).
func (d decoder) items(n *yaml.Node, path string) []*yaml.Node {
	if n == nil {
		return nil
	}
	items, _ := d.r.Seq(n, path, true)
	return items
}

// evidenceKind reads a requirement's evidence kind (aliases accepted).
func (d decoder) evidenceKind(n *yaml.Node, path string) (string, bool) {
	k, ok := d.r.String(n, path)
	if !ok {
		return "", false
	}
	c, known := vocab.CanonicalKind(k)
	if !known {
		d.r.Invalid(n, path, "unknown evidence kind `%s`; expected one of %s", k, strings.Join(sortedCopy(vocab.EvidenceKinds), ", "))
		return "", false
	}
	return c, true
}

func (d decoder) evidenceReq(n *yaml.Node, path string) (EvidenceReq, bool) {
	e := EvidenceReq{AtLeast: 1}
	if n.Kind == yaml.ScalarNode {
		var ok bool
		e.Kind, ok = d.evidenceKind(n, path)
		return e, ok
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	kn := m.Require("kind")
	if kn == nil {
		return e, false
	}
	var ok bool
	if e.Kind, ok = d.evidenceKind(kn, yamldoc.Key(path, "kind")); !ok {
		return e, false
	}
	if v := m.Get("at_least"); v != nil {
		n, good := d.r.Uint32(v, yamldoc.Key(path, "at_least"), 0)
		ok = ok && good
		e.AtLeast = int(n)
	}
	if v := m.Get("subject"); v != nil {
		e.Subject, _ = d.r.String(v, yamldoc.Key(path, "subject"))
	}
	if v := m.Get("verifier"); v != nil {
		e.Verifier, _ = d.r.String(v, yamldoc.Key(path, "verifier"))
		if e.Verifier != "" && !vocab.ValidVerifier(e.Verifier) {
			d.r.Invalid(v, yamldoc.Key(path, "verifier"), "`verifier` must be a named verifier or a dotted tool name, found %q", e.Verifier)
		}
	}
	if v := m.Get("independent"); v != nil {
		e.Independent, _ = d.r.Bool(v, yamldoc.Key(path, "independent"))
	}
	if v := m.Get("horizon"); v != nil {
		h, good := ParseHorizon(v.Value)
		if v.Kind != yaml.ScalarNode || !good {
			d.r.Invalid(v, yamldoc.Key(path, "horizon"), "`horizon` must be a number of days from 1 to 3650 (`7d` or `7`), found %q", v.Value)
			return e, false
		}
		if e.AtLeast == 0 {
			d.r.Invalid(v, yamldoc.Key(path, "horizon"), "`at_least: 0` with a `horizon` asks for nothing; drop one of the two")
		}
		e.Horizon = h
	}
	return e, ok
}

// ParseHorizon reads a horizon: `7d`, `7 d`, `7D` or `7`, 1..3650 days.
func ParseHorizon(s string) (int, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "d"), "D"))
	if s == "" || strings.ContainsAny(s, "+-_ ") {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 3650 {
		return 0, false
	}
	return n, true
}

func (d decoder) artifactKind(n *yaml.Node, path string) (string, bool) {
	k, ok := d.r.String(n, path)
	if !ok {
		return "", false
	}
	c, valid := artifact.CanonicalKind(k)
	if !valid {
		d.r.Invalid(n, path, "`%s` is not an artifact kind (kebab-case)", k)
	}
	return c, valid
}

func (d decoder) artifactReq(n *yaml.Node, path string) (ArtifactReq, bool) {
	a := ArtifactReq{AtLeast: 1, Fresh: true}
	if n.Kind == yaml.ScalarNode {
		var ok bool
		a.Kind, ok = d.artifactKind(n, path)
		return a, ok
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	kn := m.Require("kind")
	if kn == nil {
		return a, false
	}
	var ok bool
	if a.Kind, ok = d.artifactKind(kn, yamldoc.Key(path, "kind")); !ok {
		return a, false
	}
	if v := m.Get("status"); v != nil {
		s, _ := d.r.String(v, yamldoc.Key(path, "status"))
		s = strings.ReplaceAll(s, "-", "_")
		if !slices.Contains(artifact.NamedStatuses, s) {
			d.r.Invalid(v, yamldoc.Key(path, "status"), "`status` must be one of %s, found %q", strings.Join(sortedCopy(artifact.NamedStatuses), ", "), v.Value)
			ok = false
		}
		a.Status = s
	}
	if v := m.Get("at_least"); v != nil {
		n, _ := d.r.Uint32(v, yamldoc.Key(path, "at_least"), 0)
		a.AtLeast = int(n)
	}
	if v := m.Get("fresh"); v != nil {
		a.Fresh, _ = d.r.Bool(v, yamldoc.Key(path, "fresh"))
	}
	if v := m.Get("relation"); v != nil {
		a.Relation = d.relation(v, yamldoc.Key(path, "relation"))
		ok = ok && a.Relation != nil
	}
	return a, ok
}

func (d decoder) relation(n *yaml.Node, path string) *Relation {
	rel := &Relation{}
	kindAt := func(v *yaml.Node, p string) bool {
		k, ok := d.r.String(v, p)
		if ok && !slices.Contains(artifact.Relations, k) {
			d.r.Invalid(v, p, "unknown relation `%s`; expected one of %s", k, strings.Join(sortedCopy(artifact.Relations), ", "))
			return false
		}
		rel.Kind = k
		return ok
	}
	if n.Kind == yaml.ScalarNode {
		if !kindAt(n, path) {
			return nil
		}
		return rel
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	kn := m.Require("kind")
	if kn == nil || !kindAt(kn, yamldoc.Key(path, "kind")) {
		return nil
	}
	if v := m.Get("target_kind"); v != nil {
		rel.TargetKind, _ = d.artifactKind(v, yamldoc.Key(path, "target_kind"))
	}
	if v := m.Get("target"); v != nil {
		t, _ := d.r.String(v, yamldoc.Key(path, "target"))
		if t != "task" {
			d.r.Invalid(v, yamldoc.Key(path, "target"), "`target` must be `task`, found %q", t)
			return nil
		}
		rel.TargetTask = true
	}
	return rel
}

func (d decoder) reviewReq(n *yaml.Node, path string) (ReviewReq, bool) {
	rv := ReviewReq{Result: "approved", Fresh: true}
	if n.Kind == yaml.ScalarNode {
		var ok bool
		rv.SubjectKind, ok = d.artifactKind(n, path)
		return rv, ok
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	if v, k := m.GetAlias("subject_kind", "kind"); v != nil {
		rv.SubjectKind, _ = d.artifactKind(v, yamldoc.Key(path, k))
	}
	if v := m.Get("subject"); v != nil {
		rv.Subject, _ = d.r.String(v, yamldoc.Key(path, "subject"))
	}
	if rv.Subject == "" && rv.SubjectKind == "" && m.Node() != nil {
		d.r.Report(m.Node(), path, diag.Errorf(yamldoc.CodeMissingField, "a review requirement needs `subject_kind`, `kind` or `subject`"))
		return rv, false
	}
	if v := m.Get("result"); v != nil {
		rv.Result, _ = d.r.String(v, yamldoc.Key(path, "result"))
		if !slices.Contains([]string{"approved", "changes_requested", "rejected"}, rv.Result) {
			d.r.Invalid(v, yamldoc.Key(path, "result"), "`result` must be one of approved, changes_requested, rejected, found %q", rv.Result)
		}
	}
	if v := m.Get("human"); v != nil {
		rv.Human, _ = d.r.Bool(v, yamldoc.Key(path, "human"))
	}
	if v := m.Get("fresh"); v != nil {
		rv.Fresh, _ = d.r.Bool(v, yamldoc.Key(path, "fresh"))
	}
	return rv, true
}

func (d decoder) approvalReq(n *yaml.Node, path string) (ApprovalReq, bool) {
	var a ApprovalReq
	if n.Kind == yaml.ScalarNode {
		var ok bool
		a.ID, ok = d.r.String(n, path)
		return a, ok
	}
	m := d.r.Map(n, path, false)
	defer m.Done()
	v, k := m.GetAlias("approval", "id")
	if v == nil {
		if m.Node() != nil {
			d.r.Report(m.Node(), path, diag.Errorf(yamldoc.CodeMissingField, "the required key `approval` is missing"))
		}
		return a, false
	}
	var ok bool
	a.ID, ok = d.r.String(v, yamldoc.Key(path, k))
	if hv := m.Get("human"); hv != nil {
		a.Human, _ = d.r.Bool(hv, yamldoc.Key(path, "human"))
	}
	return a, ok
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

func slugState(s string) string {
	return strings.NewReplacer(".", "-", "/", "-").Replace(s)
}
