package evidence

import (
	"strings"

	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/predicate"
)

// Bind receives one projected fact; a later binding of a path wins.
type Bind func(path string, v predicate.Value)

// BuiltinEnvironments are the deployment environments that get a
// `deployment.<env>.status` fact.
var BuiltinEnvironments = []string{"development", "staging", "production"}

func num(f float64) predicate.Value { return predicate.Number(f) }
func text(s string) predicate.Value { return predicate.Text(s) }
func boolean(b bool) predicate.Value {
	return predicate.Bool(b)
}

// Project binds the facts the record projects (engine.md §2.5), in a fixed
// order. Kinds that project nothing (review_outcome, ess_conformance_v2,
// ess_conformance_coverage_v1) bind nothing.
func (r Record) Project(bind Bind) {
	p := r.Value
	switch p.Kind {
	case "test_result":
		projectTests(p, bind)
	case "static_analysis":
		bind("static_analysis.errors", num(p.Uint("errors")))
		bind("static_analysis.warnings", num(p.Uint("warnings")))
		bind("static_analysis.exists", boolean(true))
		bind("static_analysis.result", text(passedIf(p.Uint("errors") == 0)))
	case "contract_result":
		bind("contracts.checked", num(p.Uint("checked")))
		bind("contracts.failed", num(p.Uint("failed")))
		bind("contracts.breaking_changes", num(p.Uint("breaking_changes")))
		bind("contracts.result", text(passedIf(p.Uint("failed") == 0 && p.Uint("breaking_changes") == 0)))
		bind("contracts.exists", boolean(true))
		bind("tests.contract.failed", num(p.Uint("failed")))
		bind("contract_tests.failed", num(p.Uint("failed")))
	case "property_test_result":
		base := "property_test." + p.Str("property")
		bind(base+".result", text(p.Str("status")))
		bind(base+".passed", boolean(p.Str("status") == "passed"))
		bind(base+".cases", num(p.Uint("cases")))
		bind(base+".seed.exists", boolean(p.Has("seed")))
		bind(base+".exists", boolean(true))
		if p.Has("seed") {
			bind(base+".seed", text(p.Str("seed")))
		}
	case "diff":
		bind("diff.exists", boolean(true))
		bind("diff.files_changed", num(p.Uint("files_changed")))
		bind("diff.lines_added", num(p.Uint("lines_added")))
		bind("diff.lines_removed", num(p.Uint("lines_removed")))
		bind("source_diff.exists", boolean(true))
	case "verification":
		c := p.Str("claim")
		bind("verification."+c+".status", text(p.Str("status")))
		bind("verification."+c+".passed", boolean(p.Str("status") == "passed"))
		bind(c+"_verified", boolean(p.Str("status") == "passed"))
	case "specification":
		projectSpecification(p, bind)
	case "review":
		projectReview(p, bind)
	case "approval":
		a := "approval." + p.Str("approval")
		bind(a+".granted", boolean(p.Str("decision") == "granted"))
		bind(a+".decision", text(p.Str("decision")))
		bind(a+".by_human", boolean(actorClass(p.Fields["approver"], "approver") == "human"))
	case "artifact":
		kind, _ := artifact.CanonicalKind(p.Str("artifact_kind"))
		for _, k := range artifact.Lineage(kind) {
			bind("artifact."+k+"."+p.Str("observation"), boolean(p.Bool("holds")))
		}
	case "deployment_result":
		projectDeployment(p, bind)
	case "metric_observation":
		bind("metric."+p.Str("metric"), num(p.Uint("value")))
		bind(p.Str("metric"), num(p.Uint("value")))
	case "health_observation":
		bind("service.health", text(p.Str("health")))
		segs := strings.FieldsFunc(p.Str("service"), func(c rune) bool { return c == '.' || c == '/' })
		bind("service."+strings.Join(segs, ".")+".health", text(p.Str("health")))
	case "ess_conformance":
		bind("ess_conformance.status", text(p.Str("status")))
		bind("ess_conformance.passed", boolean(p.Str("status") == "passed" && p.Uint("scenarios_failed") == 0))
		if p.Has("spec_version") {
			bind("ess_conformance.spec_version", text(p.Str("spec_version")))
		}
		if p.Has("spec_digest") {
			bind("ess_conformance.spec_digest", text(p.Str("spec_digest")))
		}
		bind("ess_conformance.scenarios.total", num(p.Uint("scenarios_total")))
		bind("ess_conformance.scenarios.failed", num(p.Uint("scenarios_failed")))
	case "trace_conformance":
		t := "trace_conformance."
		bind(t+"status", text(p.Str("status")))
		bind(t+"passed", boolean(p.Str("status") == "passed" && p.Uint("expectations_gapped") == 0))
		bind(t+"specification", text(p.Str("specification")))
		bind(t+"spec_digest", text(p.Str("spec_digest")))
		bind(t+"transcript_digest", text(p.Str("transcript_digest")))
		bind(t+"expectations.total", num(p.Uint("expectations_total")))
		bind(t+"expectations.gapped", num(p.Uint("expectations_gapped")))
		bind(t+"expectations.unknown", num(p.Uint("expectations_unknown")))
	}
}

func passedIf(ok bool) string {
	if ok {
		return "passed"
	}
	return "failed"
}

// TestOutcome returns a test_result's result: inconclusive when it ran no
// test, passed with no failure, failed otherwise.
func TestOutcome(p Payload) string {
	switch {
	case p.Uint("passed")+p.Uint("failed")+p.Uint("skipped") == 0:
		return "inconclusive"
	case p.Uint("failed") == 0:
		return "passed"
	}
	return "failed"
}

func projectTests(p Payload, bind Bind) {
	s := p.Str("suite")
	result := TestOutcome(p)
	base := "tests." + s
	bind(base+".passed", num(p.Uint("passed")))
	bind(base+".failed", num(p.Uint("failed")))
	bind(base+".skipped", num(p.Uint("skipped")))
	bind(base+".total", num(p.Uint("passed")+p.Uint("failed")+p.Uint("skipped")))
	bind(base+".result", text(result))
	bind(base+".exists", boolean(true))
	bind(s+"_tests.failed", num(p.Uint("failed")))
	bind(s+"_tests.passed", num(p.Uint("passed")))
	bind(s+"_tests.result", text(result))
	bind("test.result", text(result))
	bind("test.exists", boolean(true))
	if s == "regression" {
		bind("regression_suite.result", text(result))
	}
}

// projectSpecification binds the specification facts. unsatisfied.count is
// the length of an `unsatisfied` list, else total − satisfied when both
// counts are given, else 0 (the spec leaves it open; docs/engine.md).
func projectSpecification(p Payload, bind Bind) {
	bind("specification.satisfied", boolean(p.Bool("satisfied")))
	bind("specification.exists", boolean(true))
	unsat := 0.0
	if list, ok := p.Fields["unsatisfied"].([]Any); ok {
		unsat = float64(len(list))
	} else if p.Has("requirements_total") && p.Has("requirements_satisfied") && p.Uint("requirements_total") > p.Uint("requirements_satisfied") {
		unsat = p.Uint("requirements_total") - p.Uint("requirements_satisfied")
	}
	bind("specification.unsatisfied.count", num(unsat))
	if p.Has("requirements_total") {
		bind("specification.requirements.total", num(p.Uint("requirements_total")))
	}
	if p.Has("requirements_satisfied") {
		bind("specification.requirements.satisfied", num(p.Uint("requirements_satisfied")))
	}
}

// actorClass reads a reviewer or approver: a mapping's class key
// (`reviewer: human`), or "" for anything else.
func actorClass(v Any, key string) string {
	if m, ok := v.(map[string]Any); ok {
		s, _ := m[key].(string)
		return s
	}
	return ""
}

// BlockingFindings counts a review's findings marked `blocking: true`. The
// reader admits no other `blocking` than true, false or absent
// (readFinding), so a finding not counted here does not block.
func BlockingFindings(p Payload) int {
	list, _ := p.Fields["findings"].([]Any)
	n := 0
	for _, f := range list {
		if m, ok := f.(map[string]Any); ok && m["blocking"] == true {
			n++
		}
	}
	return n
}

func projectReview(p Payload, bind Bind) {
	blocking := BlockingFindings(p)
	approved := p.Str("disposition") == "approved" && blocking == 0
	human := actorClass(p.Fields["reviewer"], "reviewer") == "human"
	if p.Has("subject_kind") {
		kind, _ := artifact.CanonicalKind(p.Str("subject_kind"))
		for _, k := range artifact.Lineage(kind) {
			base := "review." + k
			bind(base+".result", text(p.Str("disposition")))
			bind(base+".approved", boolean(approved))
			bind(base+".blocking_findings", num(float64(blocking)))
			bind(base+".by_human", boolean(human))
		}
	}
	bind("review.result", text(p.Str("disposition")))
	bind("review.approved", boolean(approved))
}

func projectDeployment(p Payload, bind Bind) {
	bind("deployment.status", text(p.Str("status")))
	bind("deployment.succeeded", boolean(p.Str("status") == "succeeded"))
	bind("deployment.environment", text(p.Str("environment")))
	bind("deployment.revision", text(p.Str("revision")))
	bind("deployment.previous_revision.exists", boolean(p.Has("previous_revision")))
	if p.Has("previous_revision") {
		bind("deployment.previous_revision", text(p.Str("previous_revision")))
	}
	for _, env := range BuiltinEnvironments {
		if env == p.Str("environment") {
			bind("deployment."+env+".status", text(p.Str("status")))
		}
	}
}
