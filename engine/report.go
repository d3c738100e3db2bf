package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// Report is what `aepflow evaluate` prints: an evaluation with the names
// of what was evaluated.
type Report struct {
	Task       string
	Workflow   string
	Evidence   int
	Evaluation *Evaluation
}

// NewReport evaluates e into a report.
func NewReport(e *Execution) (*Report, error) {
	ev, err := e.Evaluate()
	if err != nil {
		return nil, err
	}
	return &Report{Task: e.Plan.Task.ID, Workflow: e.Plan.Workflow.Ref().String(), Evidence: len(e.Evidence), Evaluation: ev}, nil
}

// WriteText prints the report for people: the state and what is owed in
// it, each move out with its guard and unmet lines, then completion. Each
// line is escaped as it is ended (diag.EscapeText): a detail quotes what
// evidence and snapshots hold (a deployment's status, a record's id), and
// a line break or a terminal escape there would forge a line
// (`completion: complete`) or rewrite what the terminal shows.
func (r *Report) WriteText(w io.Writer) error {
	ev := r.Evaluation
	var b strings.Builder
	line := func(format string, args ...any) {
		b.WriteString(diag.EscapeText(fmt.Sprintf(format, args...)))
		b.WriteByte('\n')
	}
	line("task %s, workflow %s, %d evidence record(s)", r.Task, r.Workflow, r.Evidence)
	term := ""
	if ev.Terminal {
		term = " (terminal)"
	}
	line("state %s%s", ev.State, term)
	line("")
	line("owed in %s:", ev.State)
	writeItems(line, ev.InState)
	if len(ev.Moves) == 0 {
		line("")
		line("no transition leaves %s", ev.State)
	}
	for _, m := range ev.Moves {
		verdict := "blocked"
		if m.Permitted {
			verdict = "permitted"
		}
		line("")
		line("%s -> %s: %s", m.From, m.To, verdict)
		line("  guard: %s (%s)", m.Guard.Expression, m.Guard.Truth)
		for _, l := range m.Unmet() {
			line("  %s", l)
		}
	}
	verdict := "not complete"
	if ev.Complete {
		verdict = "complete"
	}
	line("")
	line("completion: %s", verdict)
	writeItems(line, ev.Completion)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeItems(line func(string, ...any), items []Item) {
	if len(items) == 0 {
		line("  (nothing)")
	}
	for _, it := range items {
		line("  %s", it.Line())
	}
}

type jsonItem struct {
	Flavour     string `json:"flavour"`
	Requirement string `json:"requirement"`
	Truth       string `json:"truth"`
	Detail      string `json:"detail,omitempty"`
	Advisory    string `json:"advisory,omitempty"`
	Source      string `json:"source"`
	Line        string `json:"line"`
}

type jsonMove struct {
	From      string     `json:"from"`
	To        string     `json:"to"`
	Permitted bool       `json:"permitted"`
	Guard     string     `json:"guard"`
	GuardIs   string     `json:"guard_truth"`
	Unmet     []string   `json:"unmet"`
	Items     []jsonItem `json:"items"`
}

type jsonReport struct {
	Task        string     `json:"task"`
	Workflow    string     `json:"workflow"`
	Evidence    int        `json:"evidence"`
	State       string     `json:"state"`
	Terminal    bool       `json:"terminal"`
	Owed        []jsonItem `json:"owed"`
	Transitions []jsonMove `json:"transitions"`
	Complete    bool       `json:"complete"`
	Completion  []jsonItem `json:"completion"`
	Blocking    []string   `json:"blocking_reasons"`
}

func toJSONItems(items []Item) []jsonItem {
	out := make([]jsonItem, 0, len(items))
	for _, it := range items {
		out = append(out, jsonItem{it.Flavour, it.Requirement, it.Truth.String(), it.Detail, it.Advisory, it.Source, it.Line()})
	}
	return out
}

// WriteJSON prints the report as one indented JSON object (shape in
// docs/evaluate.md).
func (r *Report) WriteJSON(w io.Writer) error {
	ev := r.Evaluation
	out := jsonReport{
		Task: r.Task, Workflow: r.Workflow, Evidence: r.Evidence, State: ev.State, Terminal: ev.Terminal,
		Owed: toJSONItems(ev.InState), Transitions: []jsonMove{}, Complete: ev.Complete,
		Completion: toJSONItems(ev.Completion), Blocking: ev.BlockingReasons(),
	}
	if out.Blocking == nil || ev.Complete || permitted(ev) {
		out.Blocking = []string{}
	}
	for _, m := range ev.Moves {
		unmet := m.Unmet()
		if unmet == nil {
			unmet = []string{}
		}
		out.Transitions = append(out.Transitions, jsonMove{m.From, m.To, m.Permitted, m.Guard.Expression, m.Guard.Truth.String(), unmet, toJSONItems(m.Items)})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func permitted(ev *Evaluation) bool {
	for _, m := range ev.Moves {
		if m.Permitted {
			return true
		}
	}
	return false
}
