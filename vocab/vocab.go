// Package vocab holds AEP's closed vocabularies: evidence kinds (with their
// legacy spellings), verifier classes, test suites, the kinds a command step
// may mint, and the default verifiers of each kind (documents.md §8.2).
//
// It is a table, not a registry: protocols may narrow what a run accepts,
// and that judgement belongs to the engine.
package vocab

import (
	"slices"

	"github.com/aepflow/aepflow/ident"
)

// EvidenceKinds lists the canonical evidence kinds in the specification's
// order.
var EvidenceKinds = []string{
	"test_result", "static_analysis", "contract_result", "property_test_result",
	"deployment_result", "metric_observation", "health_observation", "approval",
	"diff", "artifact", "review", "review_outcome", "verification", "specification",
	"ess_conformance", "ess_conformance_v2", "ess_conformance_coverage_v1", "trace_conformance",
}

// legacyKinds maps legacy evidence-kind spellings to their canonical kind.
var legacyKinds = map[string]string{
	"test_execution":         "test_result",
	"source_diff":            "diff",
	"artifact_evidence":      "artifact",
	"review_result":          "review",
	"verification_record":    "verification",
	"specification_record":   "specification",
	"ess_conformance_result": "ess_conformance",
}

// CanonicalKind returns the canonical spelling of an evidence kind (legacy
// spellings normalised) and whether it is a known kind at all.
func CanonicalKind(kind string) (string, bool) {
	if c, ok := legacyKinds[kind]; ok {
		return c, true
	}
	return kind, slices.Contains(EvidenceKinds, kind)
}

// Verifiers lists the named verifier classes. Any other dotted name is an
// external tool.
var Verifiers = []string{
	"compiler", "test-runner", "contract-runner", "static-analyzer", "property-tester",
	"model-checker", "telemetry-query", "policy-engine", "human-approval", "human-review",
	"artifact-validator", "conformance-runner", "trace-checker",
}

// IsNamedVerifier reports whether v is one of the named verifier classes.
func IsNamedVerifier(v string) bool { return slices.Contains(Verifiers, v) }

// ValidVerifier reports whether v is a named class or a valid external tool
// name (a dotted identifier).
func ValidVerifier(v string) bool { return IsNamedVerifier(v) || ident.Valid(ident.Dotted, v) }

// NamedSuites lists the test suites the specification names; any kebab name
// is accepted too.
var NamedSuites = []string{"unit", "integration", "contract", "property", "regression", "mutation", "fuzz", "differential", "e2e", "smoke"}

// CanonicalSuite returns the canonical name of a test suite (`end-to-end`
// and `end_to_end` mean `e2e`) and whether the name is acceptable at all.
func CanonicalSuite(s string) (string, bool) {
	switch s {
	case "end-to-end", "end_to_end":
		return "e2e", true
	}
	return s, ident.Valid(ident.Kebab, s)
}

// MintableKinds lists the kinds a command step may establish from its exit
// status alone.
var MintableKinds = []string{"test_result", "static_analysis", "contract_result", "diff"}

// IsMintable reports whether a canonical kind is mintable.
func IsMintable(kind string) bool { return slices.Contains(MintableKinds, kind) }

// defaultVerifiers maps each canonical kind to the verifier classes that
// establish it by default.
var defaultVerifiers = map[string][]string{
	"test_result":                 {"test-runner"},
	"static_analysis":             {"static-analyzer", "compiler"},
	"contract_result":             {"contract-runner"},
	"property_test_result":        {"property-tester", "model-checker"},
	"deployment_result":           {"policy-engine", "telemetry-query"},
	"metric_observation":          {"telemetry-query"},
	"health_observation":          {"telemetry-query"},
	"approval":                    {"human-approval"},
	"diff":                        {"compiler", "static-analyzer"},
	"artifact":                    {"artifact-validator"},
	"review":                      {"human-review"},
	"verification":                {"policy-engine", "model-checker"},
	"specification":               {"test-runner", "human-review"},
	"ess_conformance":             {"conformance-runner"},
	"ess_conformance_v2":          {"conformance-runner"},
	"ess_conformance_coverage_v1": {"conformance-runner"},
	"trace_conformance":           {"trace-checker"},
}

// DefaultVerifiers returns the verifier classes that establish a canonical
// kind by default (nil for a kind with none, such as review_outcome).
func DefaultVerifiers(kind string) []string { return slices.Clone(defaultVerifiers[kind]) }

// KindsEstablishedBy returns, in specification order, the canonical kinds
// whose default verifiers include v.
func KindsEstablishedBy(v string) []string {
	var kinds []string
	for _, k := range EvidenceKinds {
		if slices.Contains(defaultVerifiers[k], v) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}
