package analysis

import (
	"slices"
	"strings"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/vocab"
)

// Domain is the set of values one fact path can take (analysis.md §3.3),
// ⊥ included unless the path is always observed. When Int is set the
// numbers it holds are integers only.
type Domain struct {
	Set VSet
	Int bool
}

// union returns the domain of a path two rows both match.
func (d Domain) union(e Domain) Domain {
	intOnly := (d.Int || len(d.Set.nums) == 0) && (e.Int || len(e.Set.nums) == 0)
	return Domain{Set: d.Set.Union(e.Set), Int: intOnly && (len(d.Set.nums) > 0 || len(e.Set.nums) > 0)}
}

// restrict returns x narrowed to the domain: intersected, and its numbers
// narrowed to the integers they hold when the domain has integers only.
func (d Domain) restrict(x VSet) VSet {
	x = x.Intersect(d.Set)
	if d.Int && len(x.nums) > 0 {
		x.nums = x.nums.integers(x.nums[0].lo)
	}
	return x
}

// The value domains of §3.3.
var (
	domN0   = Domain{Set: atLeast(0), Int: true}
	domN1   = Domain{Set: atLeast(1), Int: true}
	domR    = Domain{Set: setNum}
	domB    = Domain{Set: setBool}
	domTrue = Domain{Set: setTrue}
	domT    = Domain{Set: setText}
	domA    = Domain{Set: setValues}
)

func domE(items ...string) Domain { return Domain{Set: enum(items...)} }

// Row sources: where the engine binds a family from.
const (
	srcEvidence = "evidence"
	srcGraph    = "graph"
	srcDerived  = "derived"
	srcPlan     = "plan"
)

// row is one line of the tables of §3.3: a path pattern, the evidence kind
// that binds it (for evidence rows), its domain and whether it is always
// observed. Pattern segments: a literal; `<s>` a canonical suite; `<k>` an
// artifact kind; `<st>` a status; `<…>` one or more segments; `<s>_tests`
// a suite followed by `_tests`; `<x>_verified` any segment ending in
// `_verified`; `<state>` a declared state id's segments; `<kind>` a
// declared evidence kind; `<principle>` a principle of the tree.
type row struct {
	kind   string
	src    string
	pat    []string
	dom    Domain
	always bool
}

func evRow(kind, pattern string, dom Domain) row {
	return row{kind: kind, src: srcEvidence, pat: strings.Split(pattern, "."), dom: dom}
}

var (
	resultTest = domE("inconclusive", "passed", "failed")
	passFail   = domE("passed", "failed")
	statusFour = domE("passed", "failed", "inconclusive", "skipped")
	reviewRes  = domE("approved", "changes_requested", "rejected")
)

// rows are the families of §3.3, evidence first, in the table's order.
var rows = []row{
	evRow("test_result", "tests.<s>.passed", domN0),
	evRow("test_result", "tests.<s>.failed", domN0),
	evRow("test_result", "tests.<s>.skipped", domN0),
	evRow("test_result", "tests.<s>.total", domN0),
	evRow("test_result", "tests.<s>.result", resultTest),
	evRow("test_result", "<s>_tests.result", resultTest),
	evRow("test_result", "test.result", resultTest),
	evRow("test_result", "regression_suite.result", resultTest),
	evRow("test_result", "tests.<s>.exists", domTrue),
	evRow("test_result", "test.exists", domTrue),
	evRow("test_result", "<s>_tests.failed", domN0),
	evRow("test_result", "<s>_tests.passed", domN0),
	evRow("static_analysis", "static_analysis.errors", domN0),
	evRow("static_analysis", "static_analysis.warnings", domN0),
	evRow("static_analysis", "static_analysis.result", passFail),
	evRow("static_analysis", "static_analysis.exists", domTrue),
	evRow("contract_result", "contracts.checked", domN0),
	evRow("contract_result", "contracts.failed", domN0),
	evRow("contract_result", "contracts.breaking_changes", domN0),
	evRow("contract_result", "tests.contract.failed", domN0),
	evRow("contract_result", "contract_tests.failed", domN0),
	evRow("contract_result", "contracts.result", passFail),
	evRow("contract_result", "contracts.exists", domTrue),
	evRow("property_test_result", "property_test.<…>.result", statusFour),
	evRow("property_test_result", "property_test.<…>.passed", domB),
	evRow("property_test_result", "property_test.<…>.seed.exists", domB),
	evRow("property_test_result", "property_test.<…>.cases", domN0),
	evRow("property_test_result", "property_test.<…>.exists", domTrue),
	evRow("property_test_result", "property_test.<…>.seed", domT),
	evRow("diff", "diff.files_changed", domN0),
	evRow("diff", "diff.lines_added", domN0),
	evRow("diff", "diff.lines_removed", domN0),
	evRow("diff", "diff.exists", domTrue),
	evRow("diff", "source_diff.exists", domTrue),
	evRow("verification", "verification.<…>.status", statusFour),
	evRow("verification", "verification.<…>.passed", domB),
	evRow("verification", "<x>_verified", domB),
	evRow("specification", "specification.satisfied", domB),
	evRow("specification", "specification.exists", domTrue),
	evRow("specification", "specification.unsatisfied.count", domN0),
	evRow("specification", "specification.requirements.total", domN0),
	evRow("specification", "specification.requirements.satisfied", domN0),
	evRow("review", "review.<k>.result", reviewRes),
	evRow("review", "review.result", reviewRes),
	evRow("review", "review.<k>.approved", domB),
	evRow("review", "review.<k>.by_human", domB),
	evRow("review", "review.approved", domB),
	evRow("review", "review.<k>.blocking_findings", domN0),
	evRow("approval", "approval.<…>.granted", domB),
	evRow("approval", "approval.<…>.by_human", domB),
	evRow("approval", "approval.<…>.decision", domE("granted", "denied")),
	evRow("artifact", "artifact.<k>.<…>", domB),
	evRow("deployment_result", "deployment.status", domT),
	evRow("deployment_result", "deployment.environment", domT),
	evRow("deployment_result", "deployment.revision", domT),
	evRow("deployment_result", "deployment.previous_revision", domT),
	evRow("deployment_result", "deployment.development.status", domT),
	evRow("deployment_result", "deployment.staging.status", domT),
	evRow("deployment_result", "deployment.production.status", domT),
	evRow("deployment_result", "deployment.succeeded", domB),
	evRow("deployment_result", "deployment.previous_revision.exists", domB),
	evRow("metric_observation", "metric.<…>", domR),
	evRow("health_observation", "service.health", domT),
	evRow("health_observation", "service.<…>.health", domT),
	evRow("ess_conformance", "ess_conformance.status", statusFour),
	evRow("ess_conformance", "ess_conformance.passed", domB),
	evRow("ess_conformance", "ess_conformance.spec_version", domT),
	evRow("ess_conformance", "ess_conformance.spec_digest", domT),
	evRow("ess_conformance", "ess_conformance.scenarios.total", domN0),
	evRow("ess_conformance", "ess_conformance.scenarios.failed", domN0),
	evRow("trace_conformance", "trace_conformance.status", domE("passed", "failed", "inconclusive")),
	evRow("trace_conformance", "trace_conformance.passed", domB),
	evRow("trace_conformance", "trace_conformance.specification", domT),
	evRow("trace_conformance", "trace_conformance.spec_digest", domT),
	evRow("trace_conformance", "trace_conformance.transcript_digest", domT),
	evRow("trace_conformance", "trace_conformance.expectations.total", domN0),
	evRow("trace_conformance", "trace_conformance.expectations.gapped", domN0),
	evRow("trace_conformance", "trace_conformance.expectations.unknown", domN0),

	{src: srcGraph, pat: []string{"artifact", "total"}, dom: domN0, always: true},
	{src: srcGraph, pat: []string{"artifact", "<k>", "exists"}, dom: domTrue},
	{src: srcGraph, pat: []string{"artifact", "<k>", "count"}, dom: domN1},
	{src: srcGraph, pat: []string{"artifact", "<k>", "<st>", "count"}, dom: domN1},
	{src: srcGraph, pat: []string{"artifact", "<k>", "approved"}, dom: domB},
	{src: srcGraph, pat: []string{"artifact", "<k>", "approved", "count"}, dom: domN0},
	{src: srcDerived, pat: []string{"state", "current"}, always: true},
	{src: srcDerived, pat: []string{"state", "<state>", "entered"}, dom: domTrue},
	{src: srcDerived, pat: []string{"workflow", "terminal"}, dom: domB, always: true},
	{src: srcDerived, pat: []string{"evidence", "count", "<kind>"}, dom: domN1},
	{src: srcDerived, pat: []string{"evidence", "first_seq", "<kind>"}, dom: domN1},
	{src: srcDerived, pat: []string{"evidence", "last_seq", "<kind>"}, dom: domN1},
	{kind: "test_result", src: srcDerived, pat: []string{"test", "first_result"}, dom: resultTest},
	{src: srcDerived, pat: []string{"approvals", "granted"}, dom: domN0, always: true},
	{src: srcDerived, pat: []string{"evidence", "lapsed"}, dom: domN0, always: true},
	{src: srcDerived, pat: []string{"evidence", "missing"}, dom: domN0, always: true},
	{src: srcDerived, pat: []string{"required_evidence", "missing"}, dom: domN0, always: true},
	{src: srcPlan, pat: []string{"task", "id"}, dom: domT, always: true},
	{src: srcPlan, pat: []string{"task", "kind"}, dom: domT, always: true},
	{src: srcPlan, pat: []string{"task", "objective"}, dom: domT, always: true},
	{src: srcPlan, pat: []string{"task", "profile"}, dom: domT, always: true},
	{src: srcPlan, pat: []string{"task", "subject"}, dom: domT},
	{src: srcPlan, pat: []string{"principle", "<principle>", "active"}, dom: domTrue},
}

// ownedFirst are the first segments of owned namespaces (§3.4); a first
// segment ending in `_tests` is owned too.
var ownedFirst = map[string]bool{
	"tests": true, "test": true, "static_analysis": true, "contracts": true, "regression_suite": true,
	"property_test": true, "diff": true, "source_diff": true, "verification": true, "specification": true,
	"review": true, "approval": true, "approvals": true, "artifact": true, "deployment": true, "metric": true,
	"service": true, "ess_conformance": true, "trace_conformance": true, "state": true, "workflow": true,
	"evidence": true, "required_evidence": true, "principle": true,
}

// owned reports whether path lies in an owned namespace.
func owned(path string) bool {
	first, _, _ := strings.Cut(path, ".")
	return ownedFirst[first] || strings.HasSuffix(first, "_tests")
}

// capture holds what a row's parameter segments matched: the suite, the
// artifact kind and the free text of `<…>` (or `x` of `<x>_verified`).
type capture struct {
	suite, kind, free string
}

// scope is what a row's special segments are checked against: the declared
// states' segment paths, the declared evidence kinds and the principles.
type scope struct {
	stateSegs  map[string]bool
	kinds      map[string]bool
	principles map[string]bool
}

// match reports whether path's segments match the row, and what its
// parameters captured.
func (r *row) match(segs []string, sc *scope) (capture, bool) {
	var c capture
	if len(r.pat) == 1 && r.pat[0] == "<x>_verified" {
		// A verification record of claim c binds `<c>_verified`, and a
		// claim may hold dots: any path whose last segment is `x_verified`.
		last := segs[len(segs)-1]
		x, ok := strings.CutSuffix(last, "_verified")
		c.free = strings.Join(append(slices.Clone(segs[:len(segs)-1]), x), ".")
		return c, ok && x != ""
	}
	free := -1
	for i, p := range r.pat {
		if p == "<…>" || p == "<state>" {
			free = i
		}
	}
	fixed := len(r.pat)
	if free >= 0 {
		fixed--
		if len(segs) < fixed+1 {
			return c, false
		}
	} else if len(segs) != fixed {
		return c, false
	}
	j := 0
	for i, p := range r.pat {
		if i == free {
			n := len(segs) - fixed
			part := strings.Join(segs[j:j+n], ".")
			if p == "<state>" && !sc.stateSegs[part] {
				return c, false
			}
			c.free = part
			j += n
			continue
		}
		s := segs[j]
		j++
		if !matchSeg(p, s, sc, &c) {
			return c, false
		}
	}
	return c, true
}

// matchSeg matches one pattern segment that is not a free run.
func matchSeg(p, s string, sc *scope, c *capture) bool {
	switch p {
	case "<s>":
		c.suite = s
		return canonicalSuite(s)
	case "<k>":
		c.kind = s
		return ident.Valid(ident.Kebab, s)
	case "<st>":
		return artifact.ValidStatus(s)
	case "<kind>":
		c.kind = s
		return sc.kinds[s]
	case "<principle>":
		return sc.principles[s]
	case "<s>_tests":
		suite, ok := strings.CutSuffix(s, "_tests")
		c.suite = suite
		return ok && canonicalSuite(suite)
	case "<x>_verified":
		x, ok := strings.CutSuffix(s, "_verified")
		c.free = x
		return ok && x != ""
	}
	if strings.HasPrefix(p, "<s>_") {
		suite, ok := strings.CutSuffix(s, p[3:])
		c.suite = suite
		return ok && canonicalSuite(suite)
	}
	return p == s
}

// canonicalSuite reports whether s is a suite as records carry it: kebab,
// and not a spelling that is recorded as `e2e`.
func canonicalSuite(s string) bool {
	c, ok := vocab.CanonicalSuite(s)
	return ok && c == s
}
