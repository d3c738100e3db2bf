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

// legacyKind returns the canonical kind a legacy evidence-kind spelling
// stands for. It, like the other tables of this package, is written so
// that the linker lays it out as data: a map would be built at the start
// of every process that links the package (the transition hook's too).
func legacyKind(kind string) (string, bool) {
	switch kind {
	case "test_execution":
		return "test_result", true
	case "source_diff":
		return "diff", true
	case "artifact_evidence":
		return "artifact", true
	case "review_result":
		return "review", true
	case "verification_record":
		return "verification", true
	case "specification_record":
		return "specification", true
	case "ess_conformance_result":
		return "ess_conformance", true
	}
	return "", false
}

// CanonicalKind returns the canonical spelling of an evidence kind (legacy
// spellings normalised) and whether it is a known kind at all.
func CanonicalKind(kind string) (string, bool) {
	if c, ok := legacyKind(kind); ok {
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

// defaultVerifiers lists, for each canonical kind, the verifier classes
// that establish it by default.
var defaultVerifiers = []struct {
	kind      string
	verifiers []string
}{
	{"test_result", []string{"test-runner"}},
	{"static_analysis", []string{"static-analyzer", "compiler"}},
	{"contract_result", []string{"contract-runner"}},
	{"property_test_result", []string{"property-tester", "model-checker"}},
	{"deployment_result", []string{"policy-engine", "telemetry-query"}},
	{"metric_observation", []string{"telemetry-query"}},
	{"health_observation", []string{"telemetry-query"}},
	{"approval", []string{"human-approval"}},
	{"diff", []string{"compiler", "static-analyzer"}},
	{"artifact", []string{"artifact-validator"}},
	{"review", []string{"human-review"}},
	{"verification", []string{"policy-engine", "model-checker"}},
	{"specification", []string{"test-runner", "human-review"}},
	{"ess_conformance", []string{"conformance-runner"}},
	{"ess_conformance_v2", []string{"conformance-runner"}},
	{"ess_conformance_coverage_v1", []string{"conformance-runner"}},
	{"trace_conformance", []string{"trace-checker"}},
}

// verifiersOf returns the default verifier classes of kind (shared: not to
// be modified).
func verifiersOf(kind string) []string {
	for _, d := range defaultVerifiers {
		if d.kind == kind {
			return d.verifiers
		}
	}
	return nil
}

// DefaultVerifiers returns the verifier classes that establish a canonical
// kind by default (nil for a kind with none, such as review_outcome).
func DefaultVerifiers(kind string) []string { return slices.Clone(verifiersOf(kind)) }

// KindsEstablishedBy returns, in specification order, the canonical kinds
// whose default verifiers include v.
func KindsEstablishedBy(v string) []string {
	var kinds []string
	for _, k := range EvidenceKinds {
		if slices.Contains(verifiersOf(k), v) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}
