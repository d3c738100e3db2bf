package engine

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
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

// ParseHorizon reads a horizon: `7d`, `7 d`, `7D` or `7`, 1..3650 days.
// It is workflow.ParseHorizon, the rule the shared decoder applies to
// `horizon`, in the engine's int days.
func ParseHorizon(s string) (int, bool) {
	days, ok := workflow.ParseHorizon(s)
	return int(days), ok
}

func slugState(s string) string {
	return strings.NewReplacer(".", "-", "/", "-").Replace(s)
}
