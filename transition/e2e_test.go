package transition

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/project/projecttest"
)

// driver stands in for the reference's driver: it owns the run, commits a
// new generation whenever the run changes, and enters a state when the
// hook let the flow enter it. The hook itself never writes.
type driver struct {
	t    *testing.T
	dir  string
	exec *engine.Execution
	gen  uint64
}

func (d *driver) commit() {
	d.gen++
	projecttest.WriteGeneration(d.t, d.dir, d.gen, d.exec.Snapshot().Encode())
}

func (d *driver) submit(recs ...evidence.Record) {
	d.exec.Submit(recs...)
	d.commit()
}

// TestEndToEnd walks the fixture workflow's projected flow the way the
// harness does (flow-format.md §7.1, §7.5): root, receive, specify,
// establish_verifiers, the retreat group implement-to-verify holding
// implement and verify (2 attempts), adversarial_verify and review. The
// run's evidence changes between attempts; a refused leave of `verify`
// fails the first attempt of the retreat group, which then repeats.
func TestEndToEnd(t *testing.T) {
	project := t.TempDir()
	ownFixture().Build(t, project, projectF)
	plan, graph := planFor(t, filepath.Join(project, "tree"), project)
	d := &driver{t: t, dir: filepath.Join(project, ".engineering", "runs", "E2E", "1"), exec: engine.NewExecution(plan, graph, testNow)}
	// The run belongs to the project's task; its id is its own.
	d.exec.ID = "DRIVE-1.9"
	d.commit()

	staticClean := verifierRecord("static-analyzer", evidence.Payload{Kind: "static_analysis", Fields: map[string]any{"errors": 0.0, "warnings": 0.0}})
	contract := func(failed float64) evidence.Record {
		return verifierRecord("contract-runner", evidence.Payload{Kind: "contract_result", Fields: map[string]any{"checked": 4.0, "failed": failed, "breaking_changes": 0.0}})
	}
	review := verifierRecord("human-review", evidence.Payload{Kind: "review", Fields: map[string]any{
		"subject": "change", "reviewer": map[string]any{"reviewer": "human", "id": "ana"}, "disposition": "approved"}})

	satisfied := verifierRecord("artifact-validator", evidence.Payload{Kind: "specification", Fields: map[string]any{"satisfied": true}})

	type step struct {
		moment, path string
		attempt, of  int
		failed       bool
		want         Kind
		has          string // substring of the reason
		before       func() // the world changes before the consultation
		enter        string // the driver enters this state after a proceed
	}
	itv := "root.implement-to-verify"
	steps := []step{
		{moment: "enter", path: "root", attempt: 1, of: 1, want: Proceed},
		{moment: "enter", path: "root.receive", attempt: 1, of: 1, want: Proceed},
		{moment: "leave", path: "root.receive", attempt: 1, of: 1, want: Proceed},
		{moment: "enter", path: "root.specify", attempt: 1, of: 1, want: Proceed, enter: "specify"},
		{moment: "leave", path: "root.specify", attempt: 1, of: 1, want: Proceed},
		{moment: "enter", path: "root.establish_verifiers", attempt: 1, of: 1, want: Proceed, enter: "establish_verifiers"},
		// The flow tries to leave before any test exists.
		{moment: "leave", path: "root.establish_verifiers", attempt: 1, of: 1, want: Refuse, has: "establish_verifiers -> implement: guard: test.exists"},
		{moment: "leave", path: "root.establish_verifiers", attempt: 1, of: 1, want: Proceed,
			before: func() { d.submit(unitTest(0, 1)) }}, // a red test now exists
		// Attempt 1 of the retreat group.
		{moment: "enter", path: itv, attempt: 1, of: 2, want: Proceed, enter: "implement"},
		{moment: "enter", path: itv + ".implement", attempt: 1, of: 1, want: Proceed},
		{moment: "leave", path: itv + ".implement", attempt: 1, of: 1, want: Proceed},
		{moment: "enter", path: itv + ".verify", attempt: 1, of: 1, want: Proceed, enter: "verify"},
		// Green unit tests, but no contract or static-analysis result:
		// nothing may move, the leave is refused and verify fails.
		{moment: "leave", path: itv + ".verify", attempt: 1, of: 1, want: Refuse,
			has:    "verify: verify -> adversarial_verify: guard: tests.contract.failed == 0; guard: static_analysis.errors == 0 | verify -> implement: guard: tests.unit.failed > 0; guard: tests.contract.failed > 0; guard: static_analysis.errors > 0",
			before: func() { d.submit(unitTest(5, 0)) }},
		{moment: "leave", path: itv, attempt: 1, of: 2, failed: true, want: Proceed},
		// Between attempts the verifiers report: a contract broke.
		{moment: "enter", path: itv, attempt: 2, of: 2, want: Proceed, enter: "implement",
			before: func() { d.submit(staticClean, contract(1)) }},
		{moment: "enter", path: itv + ".implement", attempt: 1, of: 1, want: Proceed},
		{moment: "leave", path: itv + ".implement", attempt: 1, of: 1, want: Proceed,
			before: func() { d.submit(contract(0)) }},
		{moment: "enter", path: itv + ".verify", attempt: 1, of: 1, want: Proceed, enter: "verify"},
		{moment: "leave", path: itv + ".verify", attempt: 1, of: 1, want: Proceed},
		{moment: "leave", path: itv, attempt: 2, of: 2, want: Proceed}, // idempotent with the leave above
		{moment: "enter", path: "root.adversarial_verify", attempt: 1, of: 1, want: Proceed, enter: "adversarial_verify"},
		{moment: "leave", path: "root.adversarial_verify", attempt: 1, of: 1, want: Proceed},
		// Entering review is not asked again after the state is entered.
		{moment: "enter", path: "root.review", attempt: 1, of: 1, want: Proceed, enter: "review"},
		{moment: "enter", path: "root.review", attempt: 1, of: 1, want: Proceed},
		{moment: "leave", path: "root.review", attempt: 1, of: 1, want: Refuse, has: "review: review -> complete: guard: review.approved"},
		{moment: "leave", path: "root.review", attempt: 1, of: 1, want: Refuse, has: "review: review -> complete: ? specification.satisfied — unobserved: specification.satisfied [principle spec-first]",
			before: func() { d.submit(review) }},
		{moment: "leave", path: "root.review", attempt: 1, of: 1, want: Proceed, before: func() { d.submit(satisfied) }},
		{moment: "leave", path: "root", attempt: 1, of: 1, want: Proceed},
		// A flow that disagrees with the run is refused.
		{moment: "leave", path: "root.specify", attempt: 1, of: 1, want: Refuse, has: "disagree"},
		{moment: "enter", path: "root.receive", attempt: 1, of: 1, want: Refuse, has: "declares no move from `review` to `receive`"},
	}
	for i, s := range steps {
		if s.before != nil {
			s.before()
		}
		stdin := `{"hook":"transition","flow":"fx/flow","path":"` + s.path + `","moment":"` + s.moment + `","attempt":` + strconv.Itoa(s.attempt) + `,"of":` + strconv.Itoa(s.of) + `,"workspace":"/ws"}`
		if s.moment == "leave" {
			f := "false"
			if s.failed {
				f = "true"
			}
			stdin = strings.TrimSuffix(stdin, "}") + `,"failed":` + f + `,"handoff":{}}`
		}
		c := consultation{stdin: stdin, project: projectF, run: "E2E/1", kind: s.want, has: []string{s.has}}
		out := ask(t, ownFixture(), project, c)
		if out.Kind != s.want || !strings.Contains(out.Reason, s.has) {
			t.Fatalf("step %d (%s %s, run at %s): got %+v, want kind %d with %q", i+1, s.moment, s.path, d.exec.State, out, s.want, s.has)
		}
		if s.enter != "" && d.exec.State != s.enter {
			d.exec.EnterState(s.enter)
			d.commit()
		}
	}
	if d.exec.State != "review" || d.gen < 10 {
		t.Errorf("the walk ended at %s after %d generations", d.exec.State, d.gen)
	}
}
