package engine

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/internal/suggest"
	"github.com/aepflow/aepflow/yamldoc"
)

// Snapshot is a saved execution (engine.md §6.1). Events stay opaque.
type Snapshot struct {
	Execution string
	Task      string
	State     string
	Entered   []string
	Evidence  []Entry
	Events    []any
	NextSeq   uint64
	Actor     string
	// At is where a decoded snapshot's state names stand in its file, for
	// a diagnostic that blames one; zero for a snapshot made in memory.
	// Encode ignores it.
	At SnapshotPos
}

// SnapshotPos holds the positions of a decoded snapshot's state names.
type SnapshotPos struct {
	// File is the snapshot's file, as diagnostics name it.
	File string
	// State is the position of the `state` value.
	State diag.Pos
	// Entered holds the position of each `entered` item, in order.
	Entered []diag.Pos
}

// Snapshot returns the execution's snapshot.
func (e *Execution) Snapshot() *Snapshot {
	return &Snapshot{
		Execution: e.ID, Task: e.Plan.Task.ID, State: e.State,
		Entered: e.Entered, Evidence: e.Evidence, Events: e.Events,
		NextSeq: e.NextSeq, Actor: e.Actor,
	}
}

// Encode writes the snapshot as one line of canonical JSON (keys in the
// order of engine.md §6.1) and a newline: decode(encode(s)) = s and
// encode(decode(b)) = b for any b Encode wrote.
func (s *Snapshot) Encode() []byte {
	var b bytes.Buffer
	b.WriteString(`{"execution":`)
	evidence.AppendString(&b, s.Execution)
	b.WriteString(`,"task":`)
	evidence.AppendString(&b, s.Task)
	b.WriteString(`,"state":`)
	evidence.AppendString(&b, s.State)
	b.WriteString(`,"entered":[`)
	for i, st := range s.Entered {
		if i > 0 {
			b.WriteByte(',')
		}
		evidence.AppendString(&b, st)
	}
	b.WriteString(`],"evidence":[`)
	for i, en := range s.Evidence {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"state":`)
		evidence.AppendString(&b, en.State)
		b.WriteString(`,"record":`)
		en.Record.AppendJSON(&b)
		b.WriteByte('}')
	}
	b.WriteString(`],"events":`)
	events := make([]any, len(s.Events))
	copy(events, s.Events)
	evidence.AppendAny(&b, events)
	b.WriteString(`,"next_seq":`)
	b.WriteString(strconv.FormatUint(s.NextSeq, 10))
	b.WriteString(`,"actor":`)
	evidence.AppendString(&b, s.Actor)
	b.WriteString("}\n")
	return b.Bytes()
}

// DecodeSnapshot reads a snapshot strictly: keys exactly `execution task
// state entered evidence events next_seq` and optional `actor` (default
// `system`); records as engine.md §6.1. The snapshot is nil whenever the
// list holds errors.
func DecodeSnapshot(file string, data []byte) (*Snapshot, diag.List) {
	doc, diags := parseNonEmpty(file, data, "the snapshot")
	if doc == nil {
		return nil, diags
	}
	r := yamldoc.NewReader(doc, &diags)
	m := r.Map(doc.Root, "", false)
	s := &Snapshot{Actor: "system"}
	s.Execution, _ = r.String(m.Require("execution"), "execution")
	s.Task, _ = r.String(m.Require("task"), "task")
	stateNode := m.Require("state")
	s.State, _ = r.String(stateNode, "state")
	s.At.File, s.At.State = file, yamldoc.PosOf(stateNode)
	if n := m.Require("entered"); n != nil {
		s.Entered = r.Strings(n, "entered", false)
		if n.Kind == yaml.SequenceNode && len(n.Content) == len(s.Entered) {
			for _, it := range n.Content {
				s.At.Entered = append(s.At.Entered, yamldoc.PosOf(it))
			}
		}
	}
	if n := m.Require("evidence"); n != nil {
		items, _ := r.Seq(n, "evidence", false)
		for i, it := range items {
			p := yamldoc.Index("evidence", i)
			em := r.Map(it, p, false)
			st, _ := r.String(em.Require("state"), yamldoc.Key(p, "state"))
			if rn := em.Require("record"); rn != nil {
				rec, ok := evidence.ReadRecord(r, rn, yamldoc.Key(p, "record"))
				if ok {
					s.Evidence = append(s.Evidence, Entry{State: st, Record: rec})
				}
			}
			em.Done()
		}
	}
	if n := m.Require("events"); n != nil {
		items, _ := r.Seq(n, "events", false)
		for i, it := range items {
			v, _ := evidence.FromNode(r, it, yamldoc.Index("events", i))
			s.Events = append(s.Events, v)
		}
	}
	if n := m.Require("next_seq"); n != nil {
		if n.Tag != "!!int" {
			r.WrongType(n, "next_seq", "a non-negative integer")
		} else if v, err := strconv.ParseUint(n.Value, 10, 64); err != nil {
			r.Invalid(n, "next_seq", "`next_seq` must be a non-negative integer, found %s", n.Value)
		} else {
			s.NextSeq = v
		}
	}
	if n := m.Get("actor"); n != nil {
		s.Actor, _ = r.String(n, "actor")
	}
	m.Done()
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	return s, diags
}

// RestoreError is a snapshot that cannot be restored onto a plan.
type RestoreError struct {
	// Message is the refusal on one line, without a position: what the
	// hook answers with.
	Message string
	// Diagnostic is the refusal at the snapshot's value that causes it,
	// for a printer that shows where: a state the workflow lacks is
	// unknown_state at `state`, in the snapshot's file (without a line
	// for a snapshot made in memory). Its Code is empty for a refusal
	// without one (a snapshot of another task).
	Diagnostic diag.Diagnostic
}

// Error returns the refusal's message.
func (e *RestoreError) Error() string { return e.Message }

// Restore builds an execution of plan from snapshot s and graph (engine.md
// §6.1): s.Task must be the plan's task and s.State a workflow state.
func Restore(plan *Plan, graph *artifact.Graph, s *Snapshot, now time.Time) (*Execution, error) {
	if s.Task != plan.Task.ID {
		return nil, &RestoreError{Message: fmt.Sprintf("the snapshot is of task `%s`, not `%s`", s.Task, plan.Task.ID)}
	}
	if w := plan.Workflow; w.States[s.State] == nil {
		msg := fmt.Sprintf("the snapshot is at state `%s`, which workflow `%s` lacks", s.State, w.Ref())
		states := w.StateIDs()
		d := diag.Errorf(CodeUnknownTarget, "%s", msg).At(s.At.File, s.At.State).WithPath("state").
			WithHint("the workflow's states: %s", suggest.List(states))
		if best, ok := suggest.Closest(s.State, states); ok {
			d = d.WithSuggestion(best)
		}
		return nil, &RestoreError{Message: msg, Diagnostic: d}
	}
	e := &Execution{
		ID: s.Execution, Plan: plan, State: s.State,
		Entered: append([]string(nil), s.Entered...), Evidence: append([]Entry(nil), s.Evidence...),
		Graph: graph, Events: append([]any(nil), s.Events...), NextSeq: s.NextSeq, Actor: s.Actor, Now: now,
	}
	e.rebuild()
	return e, nil
}
