package vocab_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/vocab"
)

// samples are payloads that make each kind bind every fact it can.
var samples = map[string]map[string]any{
	"test_result":          {"suite": "regression", "passed": 1.0, "failed": 0.0, "skipped": 0.0},
	"static_analysis":      {"errors": 0.0, "warnings": 1.0},
	"contract_result":      {"checked": 1.0, "failed": 0.0, "breaking_changes": 0.0},
	"property_test_result": {"property": "idempotent", "status": "passed", "cases": 5.0, "seed": "42"},
	"deployment_result":    {"environment": "staging", "revision": "r2", "previous_revision": "r1", "status": "succeeded"},
	"metric_observation":   {"metric": "latency.p99", "value": 3.0},
	"health_observation":   {"service": "api.gateway", "health": "ok"},
	"approval":             {"approval": "release", "decision": "granted", "approver": map[string]any{"approver": "human"}},
	"diff":                 {"files_changed": 1.0, "lines_added": 2.0, "lines_removed": 3.0},
	"artifact":             {"artifact": "a", "artifact_kind": "module", "observation": "builds", "holds": true},
	"review":               {"subject": "s", "subject_kind": "module", "disposition": "approved", "reviewer": map[string]any{"reviewer": "human"}},
	"verification":         {"claim": "safe", "verifier": "model-checker", "status": "passed"},
	"specification":        {"satisfied": true, "requirements_total": 3.0, "requirements_satisfied": 2.0},
	"ess_conformance":      {"status": "passed", "spec_version": "1", "spec_digest": "d", "scenarios_total": 2.0, "scenarios_failed": 0.0},
	"trace_conformance":    {"specification": "s", "spec_digest": "d", "transcript_digest": "t", "status": "passed", "expectations_total": 1.0, "expectations_gapped": 0.0, "expectations_unknown": 0.0},
}

// dottedSamples are payloads whose free-text parameters (a property, an
// approval id, an observation, a claim) hold dots: the engine binds them
// as they are, so the fact paths have more segments.
var dottedSamples = map[string]map[string]any{
	"property_test_result": {"property": "parse.idempotent", "status": "passed", "cases": 5.0, "seed": "42"},
	"approval":             {"approval": "release.prod", "decision": "granted", "approver": map[string]any{"approver": "human"}},
	"artifact":             {"artifact": "a", "artifact_kind": "module", "observation": "builds.clean", "holds": true},
	"verification":         {"claim": "review.security", "verifier": "model-checker", "status": "passed"},
}

// TestDottedParametersFollowTheEngine: every fact a record with dotted
// parameters binds matches a pattern of its kind, and KindsProducing
// names the kind (the editor's hover said no kind produced
// `review.security_verified`).
func TestDottedParametersFollowTheEngine(t *testing.T) {
	for kind, fields := range dottedSamples {
		r := evidence.Record{Value: evidence.Payload{Kind: kind, Fields: fields}}
		r.Project(func(path string, _ predicate.Value) {
			if !slices.ContainsFunc(vocab.FactPatterns, func(f vocab.FactPattern) bool { return f.Kind == kind && f.Matches(path) }) {
				t.Errorf("%s binds %s, which no pattern of %s matches", kind, path, kind)
			}
			if !slices.Contains(vocab.KindsProducing(path), kind) {
				t.Errorf("KindsProducing(%s) = %v, without %s", path, vocab.KindsProducing(path), kind)
			}
		})
	}
}

// TestFactPatternsFollowTheEngine: every fact the engine binds from a
// record matches a pattern of the record's kind in vocab.FactPatterns, and
// every pattern is bound by some record; so the editor's account of which
// evidence produces a fact cannot drift from what the engine does.
func TestFactPatternsFollowTheEngine(t *testing.T) {
	used := map[vocab.FactPattern]bool{}
	type sample struct {
		kind   string
		fields map[string]any
	}
	var all []sample
	for _, kind := range vocab.EvidenceKinds {
		if fields, ok := samples[kind]; ok { // the other kinds project nothing
			all = append(all, sample{kind, fields})
		}
	}
	// A deployment binds a status under its environment's name for the
	// built-in environments only: one record per environment.
	for _, env := range evidence.BuiltinEnvironments {
		fields := maps.Clone(samples["deployment_result"])
		fields["environment"] = env
		all = append(all, sample{"deployment_result", fields})
	}
	for _, smp := range all {
		kind, fields := smp.kind, smp.fields
		r := evidence.Record{Value: evidence.Payload{Kind: kind, Fields: fields}}
		bound := 0
		r.Project(func(path string, _ predicate.Value) {
			bound++
			if kind == "metric_observation" && path == fields["metric"] {
				return // the metric under its own name (documented)
			}
			i := slices.IndexFunc(vocab.FactPatterns, func(f vocab.FactPattern) bool { return f.Kind == kind && f.Matches(path) })
			if i < 0 {
				t.Errorf("%s binds %s, which no pattern of %s matches", kind, path, kind)
				return
			}
			used[vocab.FactPatterns[i]] = true
		})
		if bound == 0 {
			t.Errorf("%s bound nothing from its sample", kind)
		}
	}
	for _, f := range vocab.FactPatterns {
		if !used[f] {
			t.Errorf("pattern %s of %s is bound by no record", f.Pattern, f.Kind)
		}
	}
}

func TestKindsProducing(t *testing.T) {
	tests := map[string][]string{
		"tests.unit.failed":        {"test_result"},
		"tests.contract.failed":    {"test_result", "contract_result"},
		"unit_tests.passed":        {"test_result"},
		"_tests.passed":            nil,
		"service.api.gw.health":    {"health_observation"},
		"approval.release.granted": {"approval"},
		"review.approved":          {"review"},
		"nothing.here":             nil,
		"tests.unit":               nil,
		"review.security_verified": {"verification"},
		"_verified":                nil,
		"a._verified":              nil,
	}
	for path, want := range tests {
		if got := vocab.KindsProducing(path); !slices.Equal(got, want) {
			t.Errorf("KindsProducing(%s) = %v, want %v", path, got, want)
		}
	}
}
