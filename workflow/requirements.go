package workflow

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// RequirementSet is what must hold (documents.md §6.3, engine.md §4.1). The
// engine evaluates its items in field order: predicates, evidence,
// artifacts, reviews, approvals, conditionals, advisory items. This package
// only reads its shape.
type RequirementSet struct {
	// Predicates are the predicate items, in document order. Keys of a set
	// mapping that name no item list are gathered, in byte order, into one
	// more predicate appended last (`{change.architectural: true}`).
	Predicates []predicate.Predicate
	// Evidence lists the evidence items.
	Evidence []EvidenceReq
	// Artifacts lists the artifact items (`artifacts` or `artifact`).
	Artifacts []ArtifactReq
	// Reviews lists the review items (`reviews` or `review`).
	Reviews []ReviewReq
	// Approvals lists the approval items (`approvals` or `approval`).
	Approvals []ApprovalReq
	// Conditional lists the conditional items (`conditional` or
	// `conditional_requirements`).
	Conditional []ConditionalReq
	// Advisory lists the advisory items.
	Advisory []AdvisoryReq
	// Pos is the position of the set's node (zero when absent).
	Pos diag.Pos
}

// IsEmpty reports whether the set holds no item at all.
func (s RequirementSet) IsEmpty() bool {
	return len(s.Predicates) == 0 && len(s.Evidence) == 0 && len(s.Artifacts) == 0 &&
		len(s.Reviews) == 0 && len(s.Approvals) == 0 && len(s.Conditional) == 0 && len(s.Advisory) == 0
}

// FactPaths returns every fact path the set's predicates, conditions and
// nested sets reference, byte-sorted and de-duplicated.
func (s RequirementSet) FactPaths() []string {
	var out []string
	for _, p := range s.Predicates {
		out = append(out, predicate.FactPaths(p)...)
	}
	for _, c := range s.Conditional {
		out = append(out, predicate.FactPaths(c.When)...)
		out = append(out, c.Require.FactPaths()...)
	}
	for _, a := range s.Advisory {
		out = append(out, a.Require.FactPaths()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// EvidenceReq asks for evidence records (engine.md §4.4).
type EvidenceReq struct {
	// Kind is the canonical evidence kind (legacy spellings normalised).
	Kind string
	// AtLeast is how many matching records are needed (default 1).
	AtLeast uint32
	// Subject, when set, is the `<kind>:<id>` subject records must carry.
	Subject string
	// Verifier, when set, is the verifier class or external tool that must
	// have produced the records.
	Verifier string
	// Independent says the producer must not be the agent.
	Independent bool
	// HorizonDays is the age in days past which a record stops counting
	// (1–3650); 0 means no horizon.
	HorizonDays uint32
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// ArtifactReq asks for artifacts (engine.md §4.5).
type ArtifactReq struct {
	// Kind is the artifact kind (kebab charset).
	Kind string
	// Status, when set, is the status the artifact must have reached
	// (`in-review` reads as `in_review`).
	Status string
	// AtLeast is how many matching artifacts are needed (default 1).
	AtLeast uint32
	// Relation, when set, is an edge the artifact must have.
	Relation *RelationReq
	// Fresh says retired artifacts do not count (default true).
	Fresh bool
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// RelationReq is an artifact-graph edge an artifact must have.
type RelationReq struct {
	// Kind is the relation kind, e.g. `specifies`.
	Kind string
	// TargetKind, when set, is the artifact kind the edge must point at.
	TargetKind string
	// Target is `task` when the edge must land on the task's declared work,
	// else empty.
	Target string
}

// ReviewReq asks for a review record.
type ReviewReq struct {
	// SubjectKind, when set, is the artifact kind reviewed (`subject_kind`
	// or `kind`).
	SubjectKind string
	// Subject, when set, is the artifact reference reviewed.
	Subject string
	// Result is the verdict asked for: `approved` (default),
	// `changes_requested` or `rejected`.
	Result string
	// Human says a person must have reviewed.
	Human bool
	// Fresh says stale reviews do not count (default true).
	Fresh bool
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// ApprovalReq asks for a granted approval.
type ApprovalReq struct {
	// ID is the approval id (kebab charset; `approval` or `id`).
	ID string
	// Human says a person must have granted it.
	Human bool
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// ConditionalReq is a nested set that applies only when When holds.
type ConditionalReq struct {
	// When is the condition (simplified).
	When predicate.Predicate
	// Require is what is owed when it holds (`require` or `requires`).
	Require RequirementSet
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// AdvisoryReq is a nested set tagged with who owns it and when it stops
// applying (engine.md §4.1); it blocks like any other item.
type AdvisoryReq struct {
	// Owner is who answers for the items.
	Owner string
	// ExitCriterion says when the advisory ends.
	ExitCriterion string
	// Require is the advisory set.
	Require RequirementSet
	// Pos is the position of the item's node.
	Pos diag.Pos
}

// setKeys are the keys of a requirement-set mapping that name item lists;
// any other key is a fact predicate.
var setKeys = []string{
	"advisory", "approval", "approvals", "artifact", "artifacts", "conditional",
	"conditional_requirements", "evidence", "predicates", "review", "reviews",
}

// DecodeRequirementSet reads a requirement set at node n, found at path: a
// predicate (string, bool or list: one predicate item), null or nil (the
// empty set), or a mapping of item lists whose other keys are fact
// predicates. Problems are reported through r.
func DecodeRequirementSet(r *yamldoc.Reader, n *yaml.Node, path string) RequirementSet {
	s := RequirementSet{Pos: yamldoc.PosOf(n)}
	switch {
	case yamldoc.IsNull(n):
	case n.Kind == yaml.MappingNode:
		decodeSetMap(r, n, path, &s)
	case n.Kind == yaml.SequenceNode || (n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!bool")):
		s.Predicates = []predicate.Predicate{parsePredicate(r, n, path)}
	default:
		r.WrongType(n, path, "a requirement set (a predicate, a mapping or null)")
	}
	return s
}

func decodeSetMap(r *yamldoc.Reader, n *yaml.Node, path string, s *RequirementSet) {
	m := r.Map(n, path, false)
	if pn := m.Get("predicates"); pn != nil {
		items, _ := r.Seq(pn, yamldoc.Key(path, "predicates"), true)
		for i, it := range items {
			s.Predicates = append(s.Predicates, parsePredicate(r, it, itemPath(pn, yamldoc.Key(path, "predicates"), i)))
		}
	}
	s.Predicates = appendFactPredicate(r, n, path, s.Predicates)
	decodeItems(r, &m, path, "evidence", "", &s.Evidence, decodeEvidence)
	decodeItems(r, &m, path, "artifacts", "artifact", &s.Artifacts, decodeArtifact)
	decodeItems(r, &m, path, "reviews", "review", &s.Reviews, decodeReview)
	decodeItems(r, &m, path, "approvals", "approval", &s.Approvals, decodeApproval)
	decodeItems(r, &m, path, "conditional", "conditional_requirements", &s.Conditional, decodeConditional)
	decodeItems(r, &m, path, "advisory", "", &s.Advisory, decodeAdvisory)
}

// appendFactPredicate gathers the keys of a set mapping that name no item
// list into one mapping predicate (the predicate parser takes its entries
// in byte order) and appends it.
func appendFactPredicate(r *yamldoc.Reader, n *yaml.Node, path string, preds []predicate.Predicate) []predicate.Predicate {
	facts := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || slices.Contains(setKeys, k.Value) {
			continue
		}
		facts.Content = append(facts.Content, k, n.Content[i+1])
	}
	if len(facts.Content) == 0 {
		return preds
	}
	return append(preds, parsePredicate(r, facts, path))
}

// decodeItems decodes every item under key (or its alias) with decode and
// appends those that decode to dst.
func decodeItems[T any](r *yamldoc.Reader, m *yamldoc.Map, path, key, alias string, dst *[]T,
	decode func(*yamldoc.Reader, *yaml.Node, string) (T, bool)) {
	eachItem(r, m, path, key, alias, func(it *yaml.Node, p string) {
		if v, ok := decode(r, it, p); ok {
			*dst = append(*dst, v)
		}
	})
}

// eachItem calls f for every item under key (or its alias), which holds one
// item or a list of them.
func eachItem(r *yamldoc.Reader, m *yamldoc.Map, path, key, alias string, f func(*yaml.Node, string)) {
	var n *yaml.Node
	used := key
	if alias == "" {
		n = m.Get(key)
	} else {
		n, used = m.GetAlias(key, alias)
	}
	if n == nil {
		return
	}
	p := yamldoc.Key(path, used)
	items, _ := r.Seq(n, p, true)
	for i, it := range items {
		f(it, itemPath(n, p, i))
	}
}

// itemPath is the path of the i-th item of a one-or-list value: indexed
// only when the value is a list.
func itemPath(n *yaml.Node, path string, i int) string {
	if n.Kind == yaml.SequenceNode {
		return yamldoc.Index(path, i)
	}
	return path
}

// isString reports whether n is a string scalar (a short-form item).
func isString(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!timestamp")
}

// checkID reports invalid_identifier when s is not of charset c; what names
// the identifier kind for the message.
func checkID(r *yamldoc.Reader, n *yaml.Node, path string, c ident.Charset, what, s string) bool {
	if err := ident.Check(c, s); err != nil {
		r.Report(n, path, diag.Errorf(CodeInvalidIdentifier, "invalid %s `%s`: %v", what, s, err))
		return false
	}
	return true
}

// evidenceKind reads an evidence kind, normalising legacy spellings.
func evidenceKind(r *yamldoc.Reader, n *yaml.Node, path string) (string, bool) {
	s, ok := r.String(n, path)
	if !ok {
		return "", false
	}
	kind, known := vocab.CanonicalKind(s)
	if !known {
		kinds := slices.Sorted(slices.Values(vocab.EvidenceKinds))
		r.Invalid(n, path, "unknown evidence kind `%s`; expected one of %s", s, strings.Join(kinds, ", "))
		return "", false
	}
	return kind, true
}

func decodeEvidence(r *yamldoc.Reader, n *yaml.Node, path string) (EvidenceReq, bool) {
	e := EvidenceReq{AtLeast: 1, Pos: yamldoc.PosOf(n)}
	if isString(n) {
		kind, ok := evidenceKind(r, n, path)
		e.Kind = kind
		return e, ok
	}
	m := r.Map(n, path, false)
	defer m.Done()
	ok := true
	if kn := m.Require("kind"); kn != nil {
		e.Kind, ok = evidenceKind(r, kn, yamldoc.Key(path, "kind"))
	} else {
		ok = false
	}
	atLeast := m.Get("at_least")
	if atLeast != nil {
		e.AtLeast, _ = r.Uint32(atLeast, yamldoc.Key(path, "at_least"), 0)
	}
	if sn := m.Get("subject"); sn != nil {
		e.Subject, _ = subjectRef(r, sn, yamldoc.Key(path, "subject"))
	}
	if vn := m.Get("verifier"); vn != nil {
		if v, vok := r.String(vn, yamldoc.Key(path, "verifier")); vok && !vocab.ValidVerifier(v) {
			checkID(r, vn, yamldoc.Key(path, "verifier"), ident.Dotted, "verifier", v)
		} else {
			e.Verifier = v
		}
	}
	if in := m.Get("independent"); in != nil {
		e.Independent, _ = r.Bool(in, yamldoc.Key(path, "independent"))
	}
	if hn := m.Get("horizon"); hn != nil {
		e.HorizonDays = horizon(r, hn, yamldoc.Key(path, "horizon"))
		if e.HorizonDays > 0 && atLeast != nil && e.AtLeast == 0 {
			r.Invalid(atLeast, yamldoc.Key(path, "at_least"), "`at_least: 0` with a `horizon` asks for nothing that could lapse")
		}
	}
	return e, ok
}

// subjectRef reads a `<kind>:<id>` evidence subject.
func subjectRef(r *yamldoc.Reader, n *yaml.Node, path string) (string, bool) {
	s, ok := r.String(n, path)
	if !ok {
		return "", false
	}
	if !ident.ValidSubject(s) {
		r.Invalid(n, path, "invalid subject `%s`; expected `<kind>:<id>` (a kebab-case kind, a colon, a loose id)", s)
		return "", false
	}
	return s, true
}

var horizonPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*0*([1-9][0-9]*)\s*[dD]?\s*$`) })

// horizon reads `7d`, `7 d`, `7D` or `7`: whole days from 1 to 3650. It
// returns 0 after reporting a problem.
func horizon(r *yamldoc.Reader, n *yaml.Node, path string) uint32 {
	var days uint32
	var ok bool
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!int":
		v, err := strconv.ParseUint(n.Value, 10, 32)
		days, ok = uint32(v), err == nil && v >= 1 && v <= 3650
	case isString(n):
		days, ok = ParseHorizon(n.Value)
	default:
		r.WrongType(n, path, "a number of days (`7d` or `7`)")
		return 0
	}
	if !ok {
		r.Invalid(n, path, "invalid horizon `%s`; expected whole days from 1 to 3650, written `7d` or `7`", n.Value)
		return 0
	}
	return days
}

// ParseHorizon reads a horizon written as text, `7d`, `7 d`, `7D` or `7`
// (leading zeros and surrounding blanks allowed), as whole days from 1 to
// 3650. It reports false for anything else.
func ParseHorizon(s string) (uint32, bool) {
	m := horizonPattern().FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseUint(m[1], 10, 32)
	if err != nil || v < 1 || v > 3650 {
		return 0, false
	}
	return uint32(v), true
}

// artifactStatuses are the named statuses an artifact item may ask for.
var artifactStatuses = []string{
	"accepted", "active", "approved", "archived", "draft", "implemented",
	"in_review", "proposed", "rejected", "superseded",
}

// relationKinds are the artifact-graph edge kinds.
var relationKinds = []string{
	"blocks", "decides", "decomposes", "delivers", "depends_on", "derived_from", "designs",
	"implements", "informed_by", "reviews", "serves", "specifies", "supersedes", "verifies",
}

func decodeArtifact(r *yamldoc.Reader, n *yaml.Node, path string) (ArtifactReq, bool) {
	a := ArtifactReq{AtLeast: 1, Fresh: true, Pos: yamldoc.PosOf(n)}
	if isString(n) {
		a.Kind = n.Value
		return a, checkID(r, n, path, ident.Kebab, "artifact kind", n.Value)
	}
	m := r.Map(n, path, false)
	defer m.Done()
	ok := false
	if kn := m.Require("kind"); kn != nil {
		if s, sok := r.String(kn, yamldoc.Key(path, "kind")); sok {
			a.Kind, ok = s, checkID(r, kn, yamldoc.Key(path, "kind"), ident.Kebab, "artifact kind", s)
		}
	}
	if sn := m.Get("status"); sn != nil {
		if s, sok := r.String(sn, yamldoc.Key(path, "status")); sok {
			a.Status, _ = enum(r, sn, yamldoc.Key(path, "status"), "artifact status", strings.ReplaceAll(s, "-", "_"), artifactStatuses)
		}
	}
	if an := m.Get("at_least"); an != nil {
		a.AtLeast, _ = r.Uint32(an, yamldoc.Key(path, "at_least"), 0)
	}
	if rn := m.Get("relation"); rn != nil {
		a.Relation = decodeRelation(r, rn, yamldoc.Key(path, "relation"))
	}
	if fn := m.Get("fresh"); fn != nil {
		a.Fresh, _ = r.Bool(fn, yamldoc.Key(path, "fresh"))
	}
	return a, ok
}

// enum checks that s is one of allowed (sorted), reporting invalid_value.
func enum(r *yamldoc.Reader, n *yaml.Node, path, what, s string, allowed []string) (string, bool) {
	if !slices.Contains(allowed, s) {
		r.Invalid(n, path, "unknown %s `%s`; expected one of %s", what, n.Value, strings.Join(allowed, ", "))
		return "", false
	}
	return s, true
}

func decodeRelation(r *yamldoc.Reader, n *yaml.Node, path string) *RelationReq {
	rel := &RelationReq{}
	if isString(n) {
		if _, ok := enum(r, n, path, "relation", n.Value, relationKinds); !ok {
			return nil
		}
		rel.Kind = n.Value
		return rel
	}
	m := r.Map(n, path, false)
	defer m.Done()
	if kn := m.Require("kind"); kn != nil {
		if s, ok := r.String(kn, yamldoc.Key(path, "kind")); ok {
			rel.Kind, _ = enum(r, kn, yamldoc.Key(path, "kind"), "relation", s, relationKinds)
		}
	}
	if tk := m.Get("target_kind"); tk != nil {
		if s, ok := r.String(tk, yamldoc.Key(path, "target_kind")); ok && checkID(r, tk, yamldoc.Key(path, "target_kind"), ident.Kebab, "artifact kind", s) {
			rel.TargetKind = s
		}
	}
	if tn := m.Get("target"); tn != nil {
		if s, ok := r.String(tn, yamldoc.Key(path, "target")); ok {
			rel.Target, _ = enum(r, tn, yamldoc.Key(path, "target"), "relation target", s, []string{"task"})
		}
	}
	return rel
}

var reviewResults = []string{"approved", "changes_requested", "rejected"}

func decodeReview(r *yamldoc.Reader, n *yaml.Node, path string) (ReviewReq, bool) {
	v := ReviewReq{Result: "approved", Fresh: true, Pos: yamldoc.PosOf(n)}
	if isString(n) {
		v.SubjectKind = n.Value
		return v, checkID(r, n, path, ident.Kebab, "artifact kind", n.Value)
	}
	m := r.Map(n, path, false)
	defer m.Done()
	kn, kkey := m.GetAlias("subject_kind", "kind")
	sn := m.Get("subject")
	if kn == nil && sn == nil {
		if m.Node() != nil {
			r.Report(n, path, diag.Errorf(yamldoc.CodeMissingField, "a review needs `subject_kind`, `kind` or `subject`"))
		}
		return v, false
	}
	if kn != nil {
		if s, ok := r.String(kn, yamldoc.Key(path, kkey)); ok && checkID(r, kn, yamldoc.Key(path, kkey), ident.Kebab, "artifact kind", s) {
			v.SubjectKind = s
		}
	}
	if sn != nil {
		v.Subject, _ = artifactRef(r, sn, yamldoc.Key(path, "subject"))
	}
	if rn := m.Get("result"); rn != nil {
		if s, ok := r.String(rn, yamldoc.Key(path, "result")); ok {
			v.Result, _ = enum(r, rn, yamldoc.Key(path, "result"), "review result", s, reviewResults)
		}
	}
	if hn := m.Get("human"); hn != nil {
		v.Human, _ = r.Bool(hn, yamldoc.Key(path, "human"))
	}
	if fn := m.Get("fresh"); fn != nil {
		v.Fresh, _ = r.Bool(fn, yamldoc.Key(path, "fresh"))
	}
	return v, true
}

var artifactRefPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*:[A-Za-z0-9][A-Za-z0-9._/-]*(@[^@]+)?$`)
})

// artifactRef reads an artifact reference `<kind>:<id>[@<version>]`.
func artifactRef(r *yamldoc.Reader, n *yaml.Node, path string) (string, bool) {
	s, ok := r.String(n, path)
	if !ok {
		return "", false
	}
	if !artifactRefPattern().MatchString(s) {
		r.Report(n, path, diag.Errorf(CodeInvalidReference, "invalid artifact reference `%s`: expected `<kind>:<id>`, optionally pinned with `@<version>`", s))
		return "", false
	}
	return s, true
}

func decodeApproval(r *yamldoc.Reader, n *yaml.Node, path string) (ApprovalReq, bool) {
	a := ApprovalReq{Pos: yamldoc.PosOf(n)}
	if isString(n) {
		a.ID = n.Value
		return a, checkID(r, n, path, ident.Kebab, "approval id", n.Value)
	}
	m := r.Map(n, path, false)
	defer m.Done()
	idn, key := m.GetAlias("approval", "id")
	if idn == nil {
		if m.Node() != nil {
			r.Report(n, path, diag.Errorf(yamldoc.CodeMissingField, "the required key `approval` (or `id`) is missing"))
		}
		return a, false
	}
	s, ok := r.String(idn, yamldoc.Key(path, key))
	ok = ok && checkID(r, idn, yamldoc.Key(path, key), ident.Kebab, "approval id", s)
	a.ID = s
	if hn := m.Get("human"); hn != nil {
		a.Human, _ = r.Bool(hn, yamldoc.Key(path, "human"))
	}
	return a, ok
}

func decodeConditional(r *yamldoc.Reader, n *yaml.Node, path string) (ConditionalReq, bool) {
	c := ConditionalReq{When: predicate.Always{}, Pos: yamldoc.PosOf(n)}
	m := r.Map(n, path, false)
	defer m.Done()
	if m.Node() == nil {
		return c, false
	}
	wn := m.Require("when")
	if wn != nil {
		c.When = parsePredicate(r, wn, yamldoc.Key(path, "when"))
	}
	rn, key := m.GetAlias("require", "requires")
	if rn == nil {
		r.Report(n, path, diag.Errorf(yamldoc.CodeMissingField, "the required key `require` (or `requires`) is missing"))
		return c, false
	}
	c.Require = DecodeRequirementSet(r, rn, yamldoc.Key(path, key))
	return c, wn != nil
}

func decodeAdvisory(r *yamldoc.Reader, n *yaml.Node, path string) (AdvisoryReq, bool) {
	a := AdvisoryReq{Pos: yamldoc.PosOf(n)}
	m := r.Map(n, path, false)
	defer m.Done()
	if m.Node() == nil {
		return a, false
	}
	ok := true
	for _, f := range []struct {
		key string
		dst *string
	}{{"owner", &a.Owner}, {"exit_criterion", &a.ExitCriterion}} {
		fn := m.Require(f.key)
		if fn == nil {
			ok = false
			continue
		}
		s, sok := r.String(fn, yamldoc.Key(path, f.key))
		*f.dst, ok = s, ok && sok
	}
	if rn := m.Require("require"); rn != nil {
		a.Require = DecodeRequirementSet(r, rn, yamldoc.Key(path, "require"))
	} else {
		ok = false
	}
	return a, ok
}
