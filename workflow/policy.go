package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Action is what a failure policy does (documents.md §6.1).
type Action string

// The failure actions.
const (
	// ActionBlock does not advance; the default everywhere.
	ActionBlock Action = "block"
	// ActionAbort stops the execution.
	ActionAbort Action = "abort"
	// ActionRetry tries again, then falls back to its Then policy.
	ActionRetry Action = "retry"
	// ActionRollback rolls back when its Require predicate holds.
	ActionRollback Action = "rollback"
	// ActionEscalate hands the failure over to To.
	ActionEscalate Action = "escalate"
)

// actionNames lists the actions in byte order, for messages.
const actionNames = "abort, block, escalate, retry, rollback"

// FailurePolicy says what to do when a requirement is not met: `block`,
// `abort`, `retry` (MaxAttempts, Then), `rollback` (Require) or `escalate`
// (To). Fields that do not belong to the Action are zero.
type FailurePolicy struct {
	// Action is the policy's action.
	Action Action
	// MaxAttempts is the total number of attempts of a retry (≥ 1, default 1).
	MaxAttempts uint32
	// Then is the policy a retry falls back to (never nil for a retry;
	// `block` by default).
	Then *FailurePolicy
	// Require is a rollback's precondition (never nil for a rollback:
	// predicate.Always{} when absent, which validation refuses as
	// incomplete_rollback_policy).
	Require predicate.Predicate
	// To is who an escalation hands the failure to.
	To string
	// Pos is the position of the policy's node.
	Pos diag.Pos
}

// InvolvesRollback reports whether the policy is a rollback or a retry whose
// Then (recursively) involves rollback.
func (p *FailurePolicy) InvolvesRollback() bool { return p.innermostRollback() != nil }

// RollbackRequirement returns the precondition of the innermost rollback
// the policy involves, or nil when it involves none.
func (p *FailurePolicy) RollbackRequirement() predicate.Predicate {
	if rb := p.innermostRollback(); rb != nil {
		return rb.Require
	}
	return nil
}

func (p *FailurePolicy) innermostRollback() *FailurePolicy {
	for q := p; q != nil; q = q.Then {
		switch q.Action {
		case ActionRollback:
			return q
		case ActionRetry:
			continue
		}
		return nil
	}
	return nil
}

// DecodeFailurePolicy reads a failure policy (documents.md §6.1) at node n,
// found at path. A nil or null node gives nil (no policy). Problems are
// reported through r; the result is then best effort, or nil.
func DecodeFailurePolicy(r *yamldoc.Reader, n *yaml.Node, path string) *FailurePolicy {
	if yamldoc.IsNull(n) {
		return nil
	}
	return decodePolicy(r, n, path)
}

func decodePolicy(r *yamldoc.Reader, n *yaml.Node, path string) *FailurePolicy {
	p := &FailurePolicy{Pos: yamldoc.PosOf(n)}
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		return decodeBarePolicy(r, n, path, p)
	case n.Kind == yaml.MappingNode:
		return decodePolicyMap(r, n, path, p)
	}
	r.WrongType(n, path, "a policy name or a mapping with `action`")
	return nil
}

func decodeBarePolicy(r *yamldoc.Reader, n *yaml.Node, path string, p *FailurePolicy) *FailurePolicy {
	p.Action = Action(n.Value)
	switch p.Action {
	case ActionBlock, ActionAbort:
	case ActionRetry:
		p.MaxAttempts, p.Then = 1, &FailurePolicy{Action: ActionBlock, Pos: p.Pos}
	case ActionRollback:
		p.Require = predicate.Always{}
	case ActionEscalate:
		r.Report(n, path, diag.Errorf(yamldoc.CodeInvalidValue, "a bare `escalate` names nobody to hand the failure to").
			WithHint("write `{action: escalate, to: <who>}`"))
		return nil
	default:
		r.Invalid(n, path, "unknown failure policy `%s`; expected one of %s", n.Value, actionNames)
		return nil
	}
	return p
}

func decodePolicyMap(r *yamldoc.Reader, n *yaml.Node, path string, p *FailurePolicy) *FailurePolicy {
	m := r.Map(n, path, false)
	defer m.Done()
	an := m.Require("action")
	if an == nil {
		m.Allow("max_attempts", "then", "require", "rollback", "to")
		return nil
	}
	action, ok := r.String(an, yamldoc.Key(path, "action"))
	if !ok {
		m.Allow("max_attempts", "then", "require", "rollback", "to")
		return nil
	}
	p.Action = Action(action)
	switch p.Action {
	case ActionBlock, ActionAbort:
	case ActionRetry:
		decodeRetry(r, &m, path, p)
	case ActionRollback:
		p.Require = decodeRollbackRequire(r, &m, path)
	case ActionEscalate:
		if to := m.Require("to"); to != nil {
			p.To, _ = r.String(to, yamldoc.Key(path, "to"))
		}
	default:
		r.Invalid(an, yamldoc.Key(path, "action"), "unknown failure action `%s`; expected one of %s", action, actionNames)
		m.Allow("max_attempts", "then", "require", "rollback", "to")
		return nil
	}
	return p
}

func decodeRetry(r *yamldoc.Reader, m *yamldoc.Map, path string, p *FailurePolicy) {
	p.MaxAttempts = 1
	if n := m.Get("max_attempts"); n != nil {
		if v, ok := r.Uint32(n, yamldoc.Key(path, "max_attempts"), 1); ok {
			p.MaxAttempts = v
		}
	}
	p.Then = DecodeFailurePolicy(r, m.Get("then"), yamldoc.Key(path, "then"))
	if p.Then == nil {
		p.Then = &FailurePolicy{Action: ActionBlock, Pos: p.Pos}
	}
}

// decodeRollbackRequire reads `require` or the nested `rollback.require`;
// giving both is conflicting_alias, giving neither means always.
func decodeRollbackRequire(r *yamldoc.Reader, m *yamldoc.Map, path string) predicate.Predicate {
	req, reqPath := m.Get("require"), yamldoc.Key(path, "require")
	if nested := m.Get("rollback"); nested != nil {
		nm := r.Map(nested, yamldoc.Key(path, "rollback"), true)
		inner := nm.Get("require")
		nm.Done()
		if inner != nil && req != nil {
			r.Report(nm.KeyNode("require"), yamldoc.Key(path, "rollback.require"),
				diag.Errorf(yamldoc.CodeConflictingAlias, "`require` and its nested spelling `rollback.require` are both given").
					WithHint("keep one of the two spellings"))
		} else if inner != nil {
			req, reqPath = inner, yamldoc.Key(path, "rollback.require")
		}
	}
	if req == nil {
		return predicate.Always{}
	}
	return parsePredicate(r, req, reqPath)
}

// parsePredicate parses a predicate node and reports its problems through
// r. On error it returns predicate.Always{} so that the model stays usable;
// the caller's list already holds the error.
func parsePredicate(r *yamldoc.Reader, n *yaml.Node, path string) predicate.Predicate {
	p, diags := predicate.Parse(n, r.File, path)
	r.Diags.Extend(diags)
	if p == nil {
		return predicate.Always{}
	}
	return p
}

// CapabilityPolicy lists the capabilities an execution may exercise
// (documents.md §6.2). Each list keeps document order and holds no
// duplicates.
type CapabilityPolicy struct {
	// Allow lists capabilities that may be exercised.
	Allow []string
	// Deny lists capabilities that must never be exercised.
	Deny []string
	// ApprovalRequired lists capabilities that need a recorded approval
	// (`approval_required` or `require_approval`).
	ApprovalRequired []string
}

// IsEmpty reports whether the policy changes nothing.
func (c CapabilityPolicy) IsEmpty() bool {
	return len(c.Allow) == 0 && len(c.Deny) == 0 && len(c.ApprovalRequired) == 0
}

// DecodeCapabilityPolicy reads a capability policy (a mapping with `allow`,
// `deny` and `approval_required`, alias `require_approval`) at node n, found
// at path. A nil node gives the empty policy.
func DecodeCapabilityPolicy(r *yamldoc.Reader, n *yaml.Node, path string) CapabilityPolicy {
	var c CapabilityPolicy
	if n == nil {
		return c
	}
	m := r.Map(n, path, false)
	c.Allow = capabilityList(r, m.Get("allow"), yamldoc.Key(path, "allow"))
	c.Deny = capabilityList(r, m.Get("deny"), yamldoc.Key(path, "deny"))
	ar, key := m.GetAlias("approval_required", "require_approval")
	c.ApprovalRequired = capabilityList(r, ar, yamldoc.Key(path, key))
	m.Done()
	return c
}

// capabilityList reads a list of unique, non-blank capability names.
func capabilityList(r *yamldoc.Reader, n *yaml.Node, path string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.WrongType(n, path, "a sequence")
		return nil
	}
	var out []string
	for i, it := range n.Content {
		s, ok := r.String(it, yamldoc.Index(path, i))
		switch {
		case !ok:
		case strings.TrimSpace(s) == "":
			r.Invalid(it, yamldoc.Index(path, i), "a capability name must not be blank")
		case slices.Contains(out, s):
			r.Invalid(it, yamldoc.Index(path, i), "the capability `%s` is listed twice", s)
		default:
			out = append(out, s)
		}
	}
	return out
}

// String renders a failure policy in its bare or compact form, for
// messages: `block`, `retry(3) then block`, `escalate to oncall`.
func (p *FailurePolicy) String() string {
	switch p.Action {
	case ActionRetry:
		return fmt.Sprintf("retry(%d) then %s", p.MaxAttempts, p.Then)
	case ActionRollback:
		return "rollback when " + p.Require.String()
	case ActionEscalate:
		return "escalate to " + p.To
	}
	return string(p.Action)
}
