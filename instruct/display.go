package instruct

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

// This file holds the display forms of §3.5 that no other printer has:
// failure policies, capabilities (and their order) and timings.

// policyText is the display of a failure policy (§3.5): `block`, `abort`,
// `escalate to <to>`, `retry <n>x then <policy>`, `roll back (requires
// <predicate>)`, the predicate in a code span since it is printed inside a
// sentence. A nil policy is `block`, the default everywhere.
func policyText(p *workflow.FailurePolicy) string {
	if p == nil {
		return string(workflow.ActionBlock)
	}
	switch p.Action {
	case workflow.ActionRetry:
		return fmt.Sprintf("retry %dx then %s", p.MaxAttempts, policyText(p.Then))
	case workflow.ActionRollback:
		req := p.Require
		if req == nil {
			req = predicate.Always{}
		}
		return "roll back (requires " + code(req.String()) + ")"
	case workflow.ActionEscalate:
		return "escalate to " + collapse(p.To)
	}
	return string(p.Action)
}

// timingText is the display of an obligation's timing (§3.3): `always`,
// `before phase <p>`, `during phase <p>`, `before state <s>`, `during state
// <s>`.
func timingText(t protocol.Timing) string {
	switch {
	case t.Kind == protocol.Always:
		return "always"
	case t.State != "":
		return string(t.Kind) + " state " + t.State
	}
	return string(t.Kind) + " phase " + t.Phase
}

// capabilityNames is the reference's vocabulary order of capabilities
// (§3.5), which is not byte order.
var capabilityNames = []string{
	"repository.read", "repository.write", "tests.execute", "command.execute",
	"network.read", "network.write", "telemetry.read", "production.read", "production.write",
	"deployment.create", "deployment.rollback", "secret.read", "artifact.read", "artifact.write",
	"planning.read", "planning.write", "review.request", "approval.request",
}

// scopeOrder lists, per capability that takes scopes, the scopes in the
// reference's order; other scopes follow in byte order.
var scopeOrder = map[string][]string{
	"network.read":        {"", "public", "private"},
	"deployment.create":   {"", "development", "test", "staging", "production"},
	"deployment.rollback": {"", "development", "test", "staging", "production"},
}

// scopeNames spells out the short environment names.
var scopeNames = map[string]string{"dev": "development", "stage": "staging", "prod": "production"}

// capability is a capability name split at its scope, normalised.
type capability struct{ name, scope string }

// parseCapability splits `name:scope`; the wildcard scopes (`*`, `any`, or
// none) become no scope and the short environment names are spelt out.
func parseCapability(s string) capability {
	name, scope, _ := strings.Cut(collapse(s), ":")
	if scope == "*" || scope == "any" {
		scope = ""
	}
	if long, ok := scopeNames[scope]; ok {
		scope = long
	}
	return capability{name, scope}
}

// String is the capability's display: its name, plus `:<scope>` when scoped.
func (c capability) String() string {
	if c.scope == "" {
		return c.name
	}
	return c.name + ":" + c.scope
}

// compareCapabilities orders capabilities as §3.5 says: by the vocabulary,
// then by the capability's own scope order, then by byte order (names
// outside the vocabulary come last, in byte order).
func compareCapabilities(a, b capability) int {
	rank := func(c capability) int {
		if i := slices.Index(capabilityNames, c.name); i >= 0 {
			return i
		}
		return len(capabilityNames)
	}
	scopeRank := func(c capability) int {
		order := scopeOrder[c.name]
		if order == nil {
			order = []string{""}
		}
		if i := slices.Index(order, c.scope); i >= 0 {
			return i
		}
		return len(order)
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.name, b.name),
		cmp.Compare(scopeRank(a), scopeRank(b)), cmp.Compare(a.scope, b.scope))
}

// capabilityList returns the displays of names in §3.5 order, duplicates
// (after normalisation) merged.
func capabilityList(names []string) []string {
	caps := make([]capability, 0, len(names))
	for _, n := range names {
		caps = append(caps, parseCapability(n))
	}
	slices.SortFunc(caps, compareCapabilities)
	caps = slices.Compact(caps)
	out := make([]string, len(caps))
	for i, c := range caps {
		out[i] = c.String()
	}
	return out
}
