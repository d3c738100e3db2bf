package analysis

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/aepflow/aepflow/diag"
)

// WriteRunText prints a simulated run as §10.5 shows it. Each line is
// escaped as it is ended (diag.EscapeText): the facts a guard read and the
// blocking lines quote what the scenario's records spell (a deployment's
// status), where a line break would forge a line (`completed in …`) and a
// terminal escape reach the terminal.
func WriteRunText(w io.Writer, r *Run) error {
	var b strings.Builder
	line := func(format string, args ...any) {
		b.WriteString(diag.EscapeText(fmt.Sprintf(format, args...)))
		b.WriteByte('\n')
	}
	plan := "bare plan"
	if r.Task != nil {
		plan = "task `" + *r.Task + "` under profile `" + *r.Profile + "`"
	}
	line("simulate %s from `%s`: %d record(s), %s", r.Workflow, r.Initial, r.Records, plan)
	width := 0
	for _, st := range r.Steps {
		if st.Kind == "move" {
			width = max(width, len(moveHead(st)))
		}
	}
	for _, st := range r.Steps {
		if st.Kind == "submit" {
			kinds := make([]string, len(st.Records))
			for i, rec := range st.Records {
				kinds[i] = rec.Kind
			}
			line("  + %s (visit %d): %s", st.State, st.Visit, strings.Join(kinds, ", "))
			continue
		}
		head := moveHead(st)
		line("  %s%s  transitions[%d]  guard: %s  (%s)", head, strings.Repeat(" ", width-len(head)), st.Transition, st.Guard, observedText(st))
	}
	o := r.Outcome
	switch o.Kind {
	case OutcomeCompleted:
		line("completed in `%s` after %d move(s)", o.State, o.Moves)
	case OutcomeBlocked:
		line("blocked in `%s` (visit %d) after %d move(s):", o.State, o.Visit, o.Moves)
		for _, l := range o.Reasons {
			line("    %s", l)
		}
	default:
		f := o.Refused
		if f.Walk > 0 {
			line("visit budget exhausted: `%s -> %s` would be move %d, past the walk's bound of %d moves", f.From, f.To, o.Moves+1, f.Walk)
			break
		}
		line("visit budget exhausted: `%s -> %s` would enter `%s` a %s time (budget %d) after %d move(s)", f.From, f.To, f.To, ordinal(int(f.Budget)+1), f.Budget, o.Moves)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func moveHead(st Step) string {
	h := fmt.Sprintf("%d. %s -> %s", st.N, st.From, st.To)
	if st.Retreat {
		h += "  (retreat)"
	}
	return h
}

// observedText lists the guard's facts: observed `path = value`, then the
// unobserved ones.
func observedText(st Step) string {
	var parts []string
	for _, o := range st.Observed {
		parts = append(parts, o.Path+" = "+o.text)
	}
	if len(st.Unobserved) > 0 {
		parts = append(parts, "unobserved: "+strings.Join(st.Unobserved, ", "))
	}
	if len(parts) == 0 {
		return "no facts"
	}
	return strings.Join(parts, "; ")
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// WriteRunJSON prints a simulated run as §10.6 shows it.
func WriteRunJSON(w io.Writer, r *Run) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
