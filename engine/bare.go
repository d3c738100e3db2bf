package engine

import (
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/workflow"
)

// BarePlan returns the plan of a run of workflow w without a task
// (analysis.md §10.2): the task `{id: simulate, kind: simulation,
// objective: simulate}`, so the plan facts `task.id`, `task.kind`,
// `task.objective` and `task.profile` (empty); no principles, no
// obligations, an empty completion set; the given scales (nil orders no
// text); then facts, bound in order as a task's `constraints.facts` are
// (a later binding of a path wins). `aepflow simulate` runs it, and
// `aepflow analyze` confirms its witnesses on it.
func BarePlan(w *workflow.Workflow, scales predicate.Scales, facts []Fact) *Plan {
	task := &Task{ID: "simulate", Kind: "simulation", Objective: "simulate", Facts: facts}
	p := &Plan{
		Task:     task,
		Protocol: &MergedProtocol{Scales: scales},
		Profile:  &MergedProfile{},
		Workflow: w,
		Scales:   scales,
	}
	p.Facts = setFacts([]Fact{
		{"task.id", predicate.Text(task.ID)},
		{"task.kind", predicate.Text(task.Kind)},
		{"task.objective", predicate.Text(task.Objective)},
		{"task.profile", predicate.Text("")},
	}, facts)
	p.indexWorkflow()
	p.collectHorizons()
	return p
}

// WithFacts returns a copy of a bare plan (BarePlan) with facts bound
// after its own, as further `constraints.facts`; p is unchanged. The copy
// shares p's workflow and derived tables, so building many costs little.
// It does not re-evaluate `applies_when`: a bare plan has no principles.
func (p *Plan) WithFacts(facts []Fact) *Plan {
	c := *p
	task := *p.Task
	task.Facts = append(append([]Fact(nil), p.Task.Facts...), facts...)
	c.Task = &task
	c.Facts = setFacts(append([]Fact(nil), p.Facts...), facts)
	return &c
}
