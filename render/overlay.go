package render

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/workflow"
)

// Status is a run's status as the overlay shows it (rendering.md §5.2).
type Status string

// The run statuses.
const (
	StatusUnknown          Status = "unknown"
	StatusRunning          Status = "running"
	StatusCompleted        Status = "completed"
	StatusBlocked          Status = "blocked"
	StatusAwaitingOperator Status = "awaiting-operator"
	StatusBudgetExhausted  Status = "budget-exhausted"
	StatusStoreBroken      Status = "store-broken"
)

// Stopped reports whether the status is one of the stopped ones: blocked,
// budget-exhausted or store-broken.
func (s Status) Stopped() bool {
	return s == StatusBlocked || s == StatusBudgetExhausted || s == StatusStoreBroken
}

// CodeUnknownState is the refusal code for an overlay that names a state the
// workflow does not declare.
const CodeUnknownState = "unknown_state"

// Overlay is a run drawn over the workflow (rendering.md §5): where it is and
// where it has been. The overlay never evaluates guards.
type Overlay struct {
	// Run is the run id `<task>/<n>` when the overlay came from a run.
	Run string
	// Task is the snapshot's task, shown when there is no Run.
	Task string
	// Current is the state the run is in; empty when unknown.
	Current string
	// Entered lists the states entered, in order, repeats kept.
	Entered []string
	// Status is the run's status; empty means StatusUnknown.
	Status Status
	// Iterations is the driver's iteration count; 0 when unknown.
	Iterations int
	// Files are the files a run overlay was read from (project.yaml and
	// the run's files), which an output must not replace; none for a
	// snapshot, whose file the caller read.
	Files []string
	// File is the snapshot the overlay was read from, as diagnostics name
	// it; CurrentAt and EnteredAt are where Current and each of Entered
	// stand in it (zero when unknown), so that Check blames the value.
	File      string
	CurrentAt diag.Pos
	EnteredAt []diag.Pos
}

// Check refuses an overlay naming a state w does not declare, with code
// unknown_state (one diagnostic per distinct state, in order of first
// appearance, current state first), in o.File at the value that names it
// (document path `state` or `entered[i]`).
func (o *Overlay) Check(w *workflow.Workflow) diag.List {
	var list diag.List
	seen := map[string]bool{}
	names := append([]string{o.Current}, o.Entered...)
	for i, id := range names {
		if (i == 0 && id == "") || seen[id] {
			continue
		}
		seen[id] = true
		if _, ok := w.States[id]; !ok {
			d := diag.Errorf(CodeUnknownState,
				"the run names state `%s`, which workflow `%s` does not declare", id, w.ID)
			switch {
			case i == 0:
				d = d.At(o.File, o.CurrentAt).WithPath("state")
			case i-1 < len(o.EnteredAt):
				d = d.At(o.File, o.EnteredAt[i-1]).WithPath(fmt.Sprintf("entered[%d]", i-1))
			default:
				d = d.InFile(o.File)
			}
			list.Add(d)
		}
	}
	return list
}

// Line returns the run line (rendering.md §5.2): `run <id>` (or `task
// <task>`, or `run`), then ` · in <current>`, the status, and the iteration
// count when known, joined by ` · ` (U+00B7).
func (o *Overlay) Line() string {
	parts := []string{"run"}
	switch {
	case o.Run != "":
		parts[0] = "run " + o.Run
	case o.Task != "":
		parts[0] = "task " + o.Task
	}
	if o.Current != "" {
		parts = append(parts, "in "+o.Current)
	}
	status := o.Status
	if status == "" {
		status = StatusUnknown
	}
	parts = append(parts, string(status))
	switch {
	case o.Iterations == 1:
		parts = append(parts, "1 iteration")
	case o.Iterations > 1:
		parts = append(parts, fmt.Sprintf("%d iterations", o.Iterations))
	}
	return strings.Join(parts, " · ")
}
