package vocab

import (
	"slices"
	"strings"
)

// FactPattern is one fact path an evidence kind's record projects
// (engine.md §2.5). In Pattern, a segment `<name>` stands for one path
// segment taken from the record (a suite, a subject kind), `<name…>` for
// one or more (a free-text parameter the engine binds as it is, dots
// included: a property, an approval id, an observation, a claim), and
// `<name…>_suffix` for one or more whose last ends in the suffix. The
// table serves people reading a guard (the editor's hover, the fact
// completion); the engine binds the facts itself, and a test keeps the
// two in step.
type FactPattern struct {
	// Kind is the canonical evidence kind whose records bind the fact.
	Kind string
	// Pattern is the fact path, with placeholders.
	Pattern string
}

// FactPatterns lists the fact paths each evidence kind projects, in the
// specification's order of kinds. A metric_observation also binds its
// metric under the metric's own name, which may be any path; that binding
// is left out here (it would match every fact).
var FactPatterns = []FactPattern{
	{"test_result", "tests.<suite>.passed"}, {"test_result", "tests.<suite>.failed"},
	{"test_result", "tests.<suite>.skipped"}, {"test_result", "tests.<suite>.total"},
	{"test_result", "tests.<suite>.result"}, {"test_result", "tests.<suite>.exists"},
	{"test_result", "<suite>_tests.failed"}, {"test_result", "<suite>_tests.passed"},
	{"test_result", "<suite>_tests.result"}, {"test_result", "test.result"},
	{"test_result", "test.exists"}, {"test_result", "regression_suite.result"},
	{"static_analysis", "static_analysis.errors"}, {"static_analysis", "static_analysis.warnings"},
	{"static_analysis", "static_analysis.exists"}, {"static_analysis", "static_analysis.result"},
	{"contract_result", "contracts.checked"}, {"contract_result", "contracts.failed"},
	{"contract_result", "contracts.breaking_changes"}, {"contract_result", "contracts.result"},
	{"contract_result", "contracts.exists"}, {"contract_result", "tests.contract.failed"},
	{"contract_result", "contract_tests.failed"},
	{"property_test_result", "property_test.<property…>.result"}, {"property_test_result", "property_test.<property…>.passed"},
	{"property_test_result", "property_test.<property…>.cases"}, {"property_test_result", "property_test.<property…>.seed"},
	{"property_test_result", "property_test.<property…>.seed.exists"}, {"property_test_result", "property_test.<property…>.exists"},
	{"deployment_result", "deployment.status"}, {"deployment_result", "deployment.succeeded"},
	{"deployment_result", "deployment.environment"}, {"deployment_result", "deployment.revision"},
	{"deployment_result", "deployment.previous_revision"}, {"deployment_result", "deployment.previous_revision.exists"},
	// Only the built-in environments get a status fact (engine/evidence.BuiltinEnvironments).
	{"deployment_result", "deployment.development.status"}, {"deployment_result", "deployment.staging.status"},
	{"deployment_result", "deployment.production.status"},
	{"metric_observation", "metric.<metric…>"},
	{"health_observation", "service.health"}, {"health_observation", "service.<service…>.health"},
	{"approval", "approval.<approval…>.granted"}, {"approval", "approval.<approval…>.decision"},
	{"approval", "approval.<approval…>.by_human"},
	{"diff", "diff.exists"}, {"diff", "diff.files_changed"}, {"diff", "diff.lines_added"},
	{"diff", "diff.lines_removed"}, {"diff", "source_diff.exists"},
	{"artifact", "artifact.<artifact_kind>.<observation…>"},
	{"review", "review.result"}, {"review", "review.approved"},
	{"review", "review.<subject_kind>.result"}, {"review", "review.<subject_kind>.approved"},
	{"review", "review.<subject_kind>.blocking_findings"}, {"review", "review.<subject_kind>.by_human"},
	{"verification", "verification.<claim…>.status"}, {"verification", "verification.<claim…>.passed"},
	{"verification", "<claim…>_verified"},
	{"specification", "specification.satisfied"}, {"specification", "specification.exists"},
	{"specification", "specification.unsatisfied.count"}, {"specification", "specification.requirements.total"},
	{"specification", "specification.requirements.satisfied"},
	{"ess_conformance", "ess_conformance.status"}, {"ess_conformance", "ess_conformance.passed"},
	{"ess_conformance", "ess_conformance.spec_version"}, {"ess_conformance", "ess_conformance.spec_digest"},
	{"ess_conformance", "ess_conformance.scenarios.total"}, {"ess_conformance", "ess_conformance.scenarios.failed"},
	{"trace_conformance", "trace_conformance.status"}, {"trace_conformance", "trace_conformance.passed"},
	{"trace_conformance", "trace_conformance.specification"}, {"trace_conformance", "trace_conformance.spec_digest"},
	{"trace_conformance", "trace_conformance.transcript_digest"}, {"trace_conformance", "trace_conformance.expectations.total"},
	{"trace_conformance", "trace_conformance.expectations.gapped"}, {"trace_conformance", "trace_conformance.expectations.unknown"},
}

// Matches reports whether the fact path matches the pattern.
func (f FactPattern) Matches(path string) bool {
	return matchSegments(strings.Split(f.Pattern, "."), strings.Split(path, "."))
}

func matchSegments(pattern, path []string) bool {
	if len(pattern) == 0 {
		return len(path) == 0
	}
	p := pattern[0]
	if name, suffix, ok := strings.Cut(p, "…>"); ok && strings.HasPrefix(name, "<") {
		for n := 1; n <= len(path); n++ {
			last := path[n-1]
			if suffix != "" && (len(last) <= len(suffix) || !strings.HasSuffix(last, suffix)) {
				continue
			}
			if matchSegments(pattern[1:], path[n:]) {
				return true
			}
		}
		return false
	}
	if len(path) == 0 {
		return false
	}
	if i := strings.IndexByte(p, '>'); strings.HasPrefix(p, "<") && i > 0 {
		suffix := p[i+1:]
		if len(path[0]) <= len(suffix) || !strings.HasSuffix(path[0], suffix) {
			return false
		}
	} else if p != path[0] {
		return false
	}
	return matchSegments(pattern[1:], path[1:])
}

// KindsProducing returns, in the specification's order, the evidence
// kinds whose records bind the fact path (by FactPatterns).
func KindsProducing(path string) []string {
	var kinds []string
	for _, f := range FactPatterns {
		if f.Matches(path) && !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	return kinds
}
