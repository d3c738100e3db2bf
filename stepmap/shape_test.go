package stepmap

import (
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

// TestShapeErrorsDoNotHideTheRules: a shape error in one part of a map
// used to suppress every structural rule of the file.
func TestShapeErrorsDoNotHideTheRules(t *testing.T) {
	doc := `format: aep.driver-steps/1
id: demo.steps
workflow: demo/review/1
states:
  draft:
    steps:
      - kind: llm
        promtp: Write it.
  review:
    visit_budget: 0
    steps:
      - kind: command
        run: ["  "]
`
	m, diags := Load("m.yaml", []byte(doc))
	got := testkit.Lines(diags.Sorted())
	want := "m.yaml:8:9: unknown key `promtp`, so the required key `prompt` is missing [unknown_field]\n" +
		"m.yaml:10:19: state `review` has a visit budget of 0, so it could never be entered [empty_declaration]\n" +
		"m.yaml:13:14: the command step runs nothing: `run` is empty or every word is blank [empty_declaration]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The cross-validation of the same map still runs on what decoded.
	got = testkit.Lines(m.crossValidate("demo/review", 1, []string{"draft", "done"}))
	want = "m.yaml:9:3: state `review` is not a state of workflow `demo/review` [unknown_state]\n"
	if got != want {
		t.Errorf("cross-validation: got\n%s\nwant\n%s", got, want)
	}
}

// TestShakyPartsAreNotJudged: what did not decode is not blamed again by a
// rule that would read it as absent or empty.
func TestShakyPartsAreNotJudged(t *testing.T) {
	const head = "format: aep.driver-steps/1\nid: demo.steps\nworkflow: demo/review/1\n"
	for _, c := range []struct{ name, doc, want string }{
		{"a format that is not a string", "format: [1]\nid: demo.steps\nworkflow: demo/review/1\nstates: {a: {}}\n",
			"m.yaml:1:9: `format` must be a string, found a sequence [wrong_type]\n"},
		{"a misspelt states", head + "sates: {a: {}}\n",
			"m.yaml:4:1: unknown key `sates` [unknown_field]\n"},
		{"states that are not a mapping", head + "states: [a]\n",
			"m.yaml:4:9: `states` must be a mapping, found a sequence [wrong_type]\n"},
		{"a run word that is not a string", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [1]}\n",
			"m.yaml:7:31: `run[0]` must be a string, found an integer [wrong_type]\n"},
		{"a run that is not a list", head + "states:\n  a:\n    steps:\n      - {kind: command, run: {x: 1}}\n",
			"m.yaml:7:30: `run` must be a sequence, found a mapping [wrong_type]\n"},
		{"a prompt that is not a string", head + "states:\n  a:\n    steps:\n      - {kind: operator, prompt: [x]}\n",
			"m.yaml:7:34: `prompt` must be a string, found a sequence [wrong_type]\n"},
		{"a misspelt depends_on beside a circuit breaker", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [x], depends_om: api, circuit_breaker: 2}\n",
			"m.yaml:7:35: unknown key `depends_om` [unknown_field]\n"},
		{"an unreadable depends_on beside a circuit breaker", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [x], depends_on: [api], circuit_breaker: 2}\n",
			"m.yaml:7:47: `depends_on` must be a string, found a sequence [wrong_type]\n"},
		{"an unknown evidence kind", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: vibes, verifier: compiler}}\n",
			"m.yaml:7:52: `kind` must be an evidence kind (test_result, static_analysis, contract_result, property_test_result, deployment_result, metric_observation, health_observation, approval, diff, artifact, review, review_outcome, verification, specification, ess_conformance, ess_conformance_v2, ess_conformance_coverage_v1, trace_conformance), found `vibes` [invalid_value]\n"},
		{"a misspelt record beside a kind that needs one", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: review, verifier: human-review, recrod: r.yaml}}\n",
			"m.yaml:7:84: unknown key `recrod` [unknown_field]\n"},
		{"a misspelt suite of a minted test result", head + "states:\n  a:\n    steps:\n      - {kind: command, run: [x], evidence: {kind: test_result, verifier: test-runner, suit: unit}}\n",
			"m.yaml:7:88: unknown key `suit` [unknown_field]\n"},
		{"a last scope rule whose paths did not decode", head + "states:\n  a:\n    steps:\n      - kind: llm\n        prompt: p\n        scope:\n          - {paths: [src], write: allowed}\n          - {paths: 3, write: denied}\n",
			"m.yaml:11:21: `paths` must be a sequence, found an integer [wrong_type]\n"},
		{"a scope rule that is not a mapping", head + "states:\n  a:\n    steps:\n      - kind: llm\n        prompt: p\n        scope: [x]\n",
			"m.yaml:9:17: `scope[0]` must be a mapping, found a string [wrong_type]\n"},
		{"a context entry that is not a string, before a glob", head + "states:\n  a:\n    steps:\n      - {kind: llm, prompt: p, context: [1, \"*.go\"]}\n",
			"m.yaml:7:42: `context[0]` must be a string, found an integer [wrong_type]\n" +
				"m.yaml:7:45: context entry `*.go` is a glob; context names files [empty_declaration]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Load("m.yaml", []byte(c.doc))
			if got := testkit.Lines(diags.Sorted()); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestShakyCrossValidation: cross-validation of a map with shape errors
// does not blame what did not decode.
func TestShakyCrossValidation(t *testing.T) {
	doc := `format: aep.driver-steps/1
id: demo.steps
workflow: [demo/review/1]
states:
  Bad: {}
  draft:
    steps:
      - {kind: command, run: [x], evidence: {kind: vibes, verifier: test-runner}}
`
	m, _ := Load("m.yaml", []byte(doc))
	if got := m.crossValidate("demo/review", 1, []string{"draft"}); len(got) != 0 {
		t.Errorf("an unreadable pin: got\n%s", testkit.Lines(got))
	}
	m.Workflow.ID, m.Workflow.Major = "demo/review", 1
	if got := m.crossValidate("demo/review", 1, []string{"draft"}); len(got) != 0 {
		t.Errorf("an invalid state key and an unknown kind: got\n%s", testkit.Lines(got))
	}
}
