package analysis

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// The differential soundness test: analysis.md §1.1 "never a false claim"
// judged against the engine itself, not against the analysis's own
// domains. Generated workflows are analysed; then generated runs — real
// records read by the scenario reader, artifacts, plan facts on declared
// inputs only (A1), metric names outside owned namespaces only (A2),
// named verifiers producing only their own kinds (A3) — are evaluated by
// the engine in the source state, and every claim of impossibility or
// certainty must hold in every one of them. TestFindingsSound samples
// worlds from the analysis's domains, so it cannot see a domain that
// misses what the engine binds; this test can (it found the metric
// alias binding `task.kind`, and two artifact items that print alike but
// differ in `fresh`). Every overlapping_guards witness is replayed too.
// The records cover every family the guards' paths read: tests, static
// analysis, contracts, diffs, reviews (per subject kind), specifications,
// metrics, verifications (dotted claims), approvals (dotted ids),
// property tests, artifact observations, health and deployments, some
// of them lapsed past an item's horizon.

// enginePaths are the paths the guards read: counts, enums, bools,
// always-observed facts, derived facts, metric paths, declared inputs,
// and the non-owned paths a metric's bare alias can bind.
var enginePaths = []string{
	"tests.unit.failed", "tests.unit.result", "test.result", "static_analysis.errors", "diff.files_changed",
	"review.approved", "review.result", "specification.satisfied",
	"artifact.story.exists", "artifact.story.count", "artifact.story.approved", "artifact.story.archived.count",
	"evidence.count.diff", "evidence.first_seq.test_result", "test.first_result",
	"evidence.missing", "artifact.total", "approvals.granted", "state.current", "state.s.entered", "state.a.entered",
	"workflow.terminal", "task.kind", "task.id", "metric.latency", "latency", "claim_verified", "x.claim_verified",
	"change.code",
	"contracts.failed", "tests.contract.failed", "contract_tests.failed", "contracts.result",
	"approval.release.granted", "approval.release.prod.granted", "approval.release.decision",
	"property_test.p.q.passed", "property_test.p.q.result", "artifact.story.builds", "artifact.story.builds.clean",
	"service.api.health", "service.health", "deployment.staging.status", "deployment.succeeded",
	"evidence.lapsed", "review.story.result", "review.story.approved", "review.story.by_human",
	"specification.unsatisfied.count", "evidence.count.approval", "required_evidence.missing",
}

var engineLiterals = []predicate.Value{
	predicate.Number(0), predicate.Number(1), predicate.Number(-1), predicate.Number(2), predicate.Number(0.5),
	predicate.Text("passed"), predicate.Text("failed"), predicate.Text("inconclusive"), predicate.Text("0"),
	predicate.Text(""), predicate.Text("s"), predicate.Text("simulation"), predicate.Text("approved"),
	predicate.Bool(true), predicate.Bool(false),
	predicate.Text("granted"), predicate.Text("denied"), predicate.Text("ok"), predicate.Text("succeeded"),
}

func enginePred(r *rand.Rand, depth int) predicate.Predicate {
	if depth == 0 || r.IntN(3) == 0 {
		path := enginePaths[r.IntN(len(enginePaths))]
		lit := engineLiterals[r.IntN(len(engineLiterals))]
		switch r.IntN(6) {
		case 0:
			return predicate.Truthy{Path: path}
		case 1:
			return predicate.Defined{Path: path}
		case 2:
			return predicate.In{Path: path, Values: []predicate.Value{lit, engineLiterals[r.IntN(len(engineLiterals))]}, Negated: r.IntN(2) == 0}
		}
		ops := []predicate.Op{predicate.Eq, predicate.Ne, predicate.Lt, predicate.Le, predicate.Gt, predicate.Ge}
		return predicate.Compare{Left: predicate.Fact(path), Op: ops[r.IntN(len(ops))], Right: predicate.Lit(lit)}
	}
	items := []predicate.Predicate{enginePred(r, depth-1), enginePred(r, depth-1)}
	switch r.IntN(3) {
	case 0:
		return predicate.All{Items: items}
	case 1:
		return predicate.Any{Items: items}
	}
	return predicate.Not{X: items[0]}
}

// engineSet generates a requirement set: predicates, artifact items that
// differ in `fresh` and status, evidence items with verifiers.
func engineSet(r *rand.Rand) workflow.RequirementSet {
	var s workflow.RequirementSet
	if r.IntN(3) == 0 {
		s.Predicates = []predicate.Predicate{enginePred(r, 1)}
	}
	if r.IntN(3) == 0 {
		a := workflow.ArtifactReq{Kind: "story", AtLeast: uint32(r.IntN(2)) + 1, Fresh: r.IntN(2) == 0}
		if r.IntN(3) == 0 {
			a.Status = "approved"
		}
		s.Artifacts = []workflow.ArtifactReq{a}
	}
	if r.IntN(4) == 0 {
		e := workflow.EvidenceReq{Kind: "test_result", AtLeast: uint32(r.IntN(3))}
		switch r.IntN(3) {
		case 0:
			e.Verifier = "test-runner"
		case 1:
			e.Independent = true
		}
		if r.IntN(3) == 0 {
			e.HorizonDays = 7 // records of 2024-03-01 have lapsed
		}
		s.Evidence = []workflow.EvidenceReq{e}
	}
	if r.IntN(5) == 0 {
		s.Approvals = []workflow.ApprovalReq{{ID: []string{"release", "release-prod"}[r.IntN(2)], Human: r.IntN(2) == 0}}
	}
	if r.IntN(4) == 0 {
		// A conditional whose set is not predicates only: its condition
		// on a declared input that a number and a text both print as 1.
		lit := []predicate.Value{predicate.Number(1), predicate.Text("1")}[r.IntN(2)]
		when := predicate.Compare{Left: predicate.Fact("change.code"), Op: predicate.Eq, Right: predicate.Lit(lit)}
		s.Conditional = []workflow.ConditionalReq{{When: when, Require: workflow.RequirementSet{Evidence: []workflow.EvidenceReq{{Kind: "diff", AtLeast: 1}}}}}
	}
	if r.IntN(5) == 0 {
		s.Reviews = []workflow.ReviewReq{{Subject: "story:s-1", Result: []string{"approved", "rejected"}[r.IntN(2)], Human: r.IntN(2) == 0}}
		if r.IntN(2) == 0 {
			s.Reviews[0] = workflow.ReviewReq{SubjectKind: "story", Result: "approved", Human: r.IntN(2) == 0}
		}
	}
	return s
}

// engineWorkflow is a source state `s` with three moves to terminals a, b
// and c, each target with generated entry requirements.
func engineWorkflow(r *rand.Rand) (*tree.Tree, *workflow.Workflow) {
	w := &workflow.Workflow{ID: "sound/engine", Version: 1, Initial: "s", File: "w.yaml",
		States: map[string]*workflow.State{"s": {ID: "s"}}}
	for i, to := range []string{"a", "b", "c"} {
		w.States[to] = &workflow.State{ID: to, Terminal: true, Requires: engineSet(r)}
		var when predicate.Predicate = predicate.Always{}
		if r.IntN(5) > 0 {
			when = enginePred(r, 2)
		}
		w.Transitions = append(w.Transitions, &workflow.Transition{Index: i, From: "s", To: to, When: when,
			Requires: engineSet(r), Pos: diag.Pos{Line: i + 1, Column: 1}})
	}
	return &tree.Tree{Workflows: map[string]*workflow.Workflow{w.ID: w}}, w
}

// engineScenario writes a scenario document of generated records,
// artifacts and facts, within the assumptions A1–A3.
func engineScenario(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("format: aep.scenario/1\nnow: 2024-05-01\n")
	if r.IntN(2) == 0 {
		fmt.Fprintf(&b, "facts: {change.code: %s}\n", []string{"true", "false", "0", "1", `"1"`, `""`, "x"}[r.IntN(7)])
	}
	if n := r.IntN(3); n > 0 {
		b.WriteString("artifacts:\n")
		for i := range n {
			status := []string{"draft", "approved", "archived", "active"}[r.IntN(4)]
			fmt.Fprintf(&b, "  - {id: \"story:s-%d\", kind: story, status: %s}\n", i+1, status)
		}
	}
	b.WriteString("evidence:\n")
	at := "observed_at: 2024-05-01"
	if r.IntN(4) == 0 {
		at = "observed_at: 2024-03-01"
	}
	producers := map[string][]string{
		"test_result":        {"{producer: verifier, verifier: test-runner}", "{producer: agent, id: me}", "{producer: tool, tool: pytest}"},
		"static_analysis":    {"{producer: verifier, verifier: compiler}"},
		"diff":               {"{producer: verifier, verifier: git}", "{producer: agent, id: me}"},
		"review":             {"{producer: human, id: ann}"},
		"specification":      {"{producer: human, id: ann}"},
		"metric_observation": {"{producer: verifier, verifier: telemetry-query}"},
		"verification":       {"{producer: verifier, verifier: formal-verifier}"},
		"contract_result":    {"{producer: verifier, verifier: contract-runner}", "{producer: tool, tool: pact}"},
		"approval":           {"{producer: human, id: ann}"},
		"property_test":      {"{producer: verifier, verifier: property-tester}"},
		"artifact":           {"{producer: verifier, verifier: artifact-validator}"},
		"health":             {"{producer: verifier, verifier: telemetry-query}"},
		"deployment":         {"{producer: verifier, verifier: policy-engine}"},
	}
	pick := func(kind string) string { p := producers[kind]; return p[r.IntN(len(p))] }
	count := func() int { return r.IntN(3) }
	for range r.IntN(5) {
		switch r.IntN(13) {
		case 0:
			fmt.Fprintf(&b, "  - {kind: test_result, %s, suite: %s, passed: %d, failed: %d, producer: %s}\n",
				at, []string{"unit", "contract"}[r.IntN(2)], count(), count(), pick("test_result"))
		case 1:
			fmt.Fprintf(&b, "  - {kind: static_analysis, %s, errors: %d, producer: %s}\n", at, count(), pick("static_analysis"))
		case 2:
			fmt.Fprintf(&b, "  - {kind: diff, %s, files_changed: %d, producer: %s}\n", at, count(), pick("diff"))
		case 3:
			fmt.Fprintf(&b, "  - {kind: review, %s, subject: \"story:s-1\", reviewer: {reviewer: human}, disposition: %s, producer: %s}\n",
				at, []string{"approved", "rejected", "changes_requested"}[r.IntN(3)], pick("review"))
		case 4:
			fmt.Fprintf(&b, "  - {kind: specification, %s, satisfied: %v, producer: %s}\n", at, r.IntN(2) == 0, pick("specification"))
		case 5:
			// A2: the bare alias binds a metric's own name outside owned
			// namespaces only.
			name := []string{"latency", "task.kind", "task.id", "claim_verified", "x.claim_verified", "change.code"}[r.IntN(6)]
			fmt.Fprintf(&b, "  - {kind: metric_observation, %s, metric: %s, value: %d, producer: %s}\n", at, name, r.IntN(7)-2, pick("metric_observation"))
		case 6:
			fmt.Fprintf(&b, "  - {kind: verification, %s, claim: %s, verifier: formal-verifier, status: %s, producer: %s}\n",
				at, []string{"claim", "x.claim"}[r.IntN(2)], []string{"passed", "failed"}[r.IntN(2)], pick("verification"))
		case 7:
			fmt.Fprintf(&b, "  - {kind: contract_result, %s, checked: %d, failed: %d, breaking_changes: %d, producer: %s}\n",
				at, count(), count(), count(), pick("contract_result"))
		case 8:
			fmt.Fprintf(&b, "  - {kind: approval, %s, approval: %s, approver: {approver: %s}, decision: %s, producer: %s}\n",
				at, []string{"release", "release.prod", "release-prod"}[r.IntN(3)], []string{"human", "agent"}[r.IntN(2)], []string{"granted", "denied"}[r.IntN(2)], pick("approval"))
		case 9:
			fmt.Fprintf(&b, "  - {kind: property_test_result, %s, property: p.q, status: %s, cases: %d, producer: %s}\n",
				at, []string{"passed", "failed", "inconclusive", "skipped"}[r.IntN(4)], count(), pick("property_test"))
		case 10:
			fmt.Fprintf(&b, "  - {kind: artifact, %s, artifact: \"story:s-1\", artifact_kind: story, observation: %s, holds: %v, producer: %s}\n",
				at, []string{"builds", "builds.clean", "exists", "approved", "count"}[r.IntN(5)], r.IntN(2) == 0, pick("artifact"))
		case 11:
			fmt.Fprintf(&b, "  - {kind: health_observation, %s, service: api, health: %s, producer: %s}\n", at, []string{"ok", "degraded"}[r.IntN(2)], pick("health"))
		case 12:
			fmt.Fprintf(&b, "  - {kind: deployment_result, %s, environment: %s, revision: r1, status: %s, producer: %s}\n",
				at, []string{"staging", "production", "moon"}[r.IntN(3)], []string{"succeeded", "failed"}[r.IntN(2)], pick("deployment"))
		}
	}
	out := b.String()
	if strings.HasSuffix(out, "evidence:\n") {
		out = strings.TrimSuffix(out, "evidence:\n")
	}
	return out
}

var transitionIndex = regexp.MustCompile(`\.transitions\[(\d+)\]`)

// claimIndex returns the transition a finding is about, from its path.
func claimIndex(t *testing.T, d diag.Diagnostic) int {
	m := transitionIndex.FindStringSubmatch(d.Path)
	if m == nil {
		t.Fatalf("no transition in the path of %v (%s)", d, d.Path)
	}
	i, _ := strconv.Atoi(m[1])
	return i
}

func TestClaimsHoldInTheEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	claims, runs, witnesses := 0, 0, 0
	for range 1000 {
		tr, w := engineWorkflow(r)
		result := AnalyzeWitnessed(tr, w, Options{Now: fixedNow})
		findings := result.Findings
		witnesses += replayWitnesses(t, w, result.Witnesses)
		// never[i]: move i is never permitted; guardNever / guardAlways:
		// its guard never / always holds; shadow[j] = i: j is shadowed by i.
		never, guardNever, guardAlways, shadow := map[int]string{}, map[int]bool{}, map[int]bool{}, map[int]int{}
		for _, d := range findings {
			switch d.Code {
			case CodeDisabled, CodeNeverHolds:
				i := claimIndex(t, d)
				guardNever[i], never[i] = true, d.Code
			case CodeNeverPermitted:
				never[claimIndex(t, d)] = d.Code
			case CodeAlwaysHolds:
				guardAlways[claimIndex(t, d)] = true
			case CodeShadowed:
				shadow[claimIndex(t, d)] = d.Related[0].Pos.Line - 1
			case CodeUnproducible:
				if strings.Contains(d.Path, ".transitions[") {
					never[claimIndex(t, d)] = d.Code
				} else {
					for _, x := range w.Transitions {
						if strings.Contains(d.Path, ".states."+x.To+".") {
							never[x.Index] = d.Code
						}
					}
				}
			}
		}
		if len(never)+len(guardAlways)+len(shadow) == 0 {
			continue
		}
		claims += len(never) + len(guardAlways) + len(shadow)
		for range 60 {
			doc := engineScenario(r)
			sc, ds := ReadScenarios([]ScenarioFile{{"scenario.yaml", []byte(doc)}}, w, fixedNow)
			if ds.HasErrors() {
				t.Fatalf("a generated scenario does not read:\n%s\n%v", doc, ds)
			}
			runs++
			exec := engine.NewExecution(engine.BarePlan(w, nil, sc.Facts), sc.Graph, sc.Now)
			exec.Submit(sc.Evidence...)
			ev, err := exec.Evaluate()
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range ev.Moves {
				tr := w.Transitions[i]
				fail := func(claim string) {
					t.Fatalf("transition %d (%s -> %s, guard %s, requires %s; target requires %s) is claimed %s, but the engine shows otherwise under\n%s\nfindings:\n%s",
						i, tr.From, tr.To, tr.When, setString(tr.Requires), setString(w.States[tr.To].Requires), claim, doc, lines(findings))
				}
				if code := never[i]; code != "" && m.Permitted {
					fail("never permitted (" + code + ")")
				}
				if guardNever[i] && m.Guard.Truth == predicate.True {
					fail("to have a guard that never holds")
				}
				if guardAlways[i] && m.Guard.Truth != predicate.True {
					fail("to have a guard that always holds")
				}
				if by, ok := shadow[i]; ok && m.Permitted && !ev.Moves[by].Permitted {
					fail(fmt.Sprintf("shadowed by transition %d", by))
				}
			}
		}
	}
	t.Logf("%d claims, %d runs, %d witnesses", claims, runs, witnesses)
	if claims < 50 || runs < 1000 || witnesses < 50 {
		t.Fatalf("only %d claims checked over %d runs, %d witnesses replayed", claims, runs, witnesses)
	}
}

// replayWitnesses is §11.2's replay of every overlapping_guards witness:
// saved as the scenario document the JSON carries, read back by the
// scenario reader and evaluated by the engine, both moves' guards and
// predicate items are True — what the finding claims (§6.7), not that both
// moves are permitted.
func replayWitnesses(t *testing.T, w *workflow.Workflow, ws []WitnessOf) int {
	t.Helper()
	for _, x := range ws {
		if x.Finding.Code != CodeOverlapping {
			t.Fatalf("a witness for %s", x.Finding.Code)
		}
		later, first := claimIndex(t, x.Finding), x.Finding.Related[0].Pos.Line-1
		data, err := json.Marshal(x.Witness)
		if err != nil {
			t.Fatal(err)
		}
		sc, ds := ReadScenarios([]ScenarioFile{{"witness.json", data}}, w, fixedNow)
		if ds.HasErrors() {
			t.Fatalf("the witness of %s does not read back: %v\n%s", x.Finding.Message, ds, data)
		}
		exec := engine.NewExecution(engine.BarePlan(w, nil, sc.Facts), sc.Graph, sc.Now)
		exec.Submit(sc.Evidence...)
		ev, err := exec.Evaluate()
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{first, later} {
			m, tr := ev.Moves[i], w.Transitions[i]
			unmet := m.Guard.Truth != predicate.True
			for _, it := range m.Items {
				unmet = unmet || it.Flavour == "predicate" && it.Truth != predicate.True
			}
			if unmet {
				t.Fatalf("overlap of transitions %d and %d claimed, but under its witness\n%s\nthe guard of %d (%s, requires %s; target %s) is %s or a predicate item is not True: %v",
					first, later, data, i, tr.When, setString(tr.Requires), setString(w.States[tr.To].Requires), m.Guard.Truth, m.Unmet())
			}
		}
	}
	return len(ws)
}

// TestOverlapClaimsOnlyWhatItConfirms: an overlap whose moves can never
// both be permitted (one owes a diff the other's guard rules out) is
// reported for its guards, and its message claims no more than that.
func TestOverlapClaimsOnlyWhatItConfirms(t *testing.T) {
	tr, ds := tree.Load("testdata/cases/overlap_not_permitted")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, d := range Analyze(tr, tr.Workflows["demo/w"], Options{Now: fixedNow}) {
		if d.Code != CodeOverlapping {
			continue
		}
		if strings.Contains(d.Message, "both be permitted") || !strings.HasPrefix(d.Message, "the guards of `a -> c` and `a -> b`, tried first, can hold at once") {
			t.Errorf("the message claims more than the witness confirms: %s", d.Message)
		}
		return
	}
	t.Fatal("no overlapping_guards")
}

func setString(s workflow.RequirementSet) string {
	var parts []string
	for _, p := range s.Predicates {
		parts = append(parts, p.String())
	}
	for _, a := range s.Artifacts {
		parts = append(parts, fmt.Sprintf("artifact %s x%d status=%q fresh=%v", a.Kind, a.AtLeast, a.Status, a.Fresh))
	}
	for _, e := range s.Evidence {
		parts = append(parts, fmt.Sprintf("evidence %s x%d verifier=%q independent=%v", e.Kind, e.AtLeast, e.Verifier, e.Independent))
	}
	for _, c := range s.Conditional {
		parts = append(parts, "conditional "+predicate.Key(c.When)+" "+setString(c.Require))
	}
	for _, v := range s.Reviews {
		parts = append(parts, fmt.Sprintf("review %+v", v))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}
