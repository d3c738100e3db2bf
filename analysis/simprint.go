package analysis

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteRunText prints a simulated run as §10.5 shows it.
func WriteRunText(w io.Writer, r *Run) error {
	var b strings.Builder
	plan := "bare plan"
	if r.Task != nil {
		plan = "task `" + *r.Task + "` under profile `" + *r.Profile + "`"
	}
	fmt.Fprintf(&b, "simulate %s from `%s`: %d record(s), %s\n", r.Workflow, r.Initial, r.Records, plan)
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
			fmt.Fprintf(&b, "  + %s (visit %d): %s\n", st.State, st.Visit, strings.Join(kinds, ", "))
			continue
		}
		head := moveHead(st)
		fmt.Fprintf(&b, "  %s%s  transitions[%d]  guard: %s  (%s)\n", head, strings.Repeat(" ", width-len(head)), st.Transition, st.Guard, observedText(st))
	}
	o := r.Outcome
	switch o.Kind {
	case OutcomeCompleted:
		fmt.Fprintf(&b, "completed in `%s` after %d move(s)\n", o.State, o.Moves)
	case OutcomeBlocked:
		fmt.Fprintf(&b, "blocked in `%s` (visit %d) after %d move(s):\n", o.State, o.Visit, o.Moves)
		for _, l := range o.Reasons {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	default:
		f := o.Refused
		if f.Walk > 0 {
			fmt.Fprintf(&b, "visit budget exhausted: `%s -> %s` would be move %d, past the walk's bound of %d moves\n", f.From, f.To, o.Moves+1, f.Walk)
			break
		}
		fmt.Fprintf(&b, "visit budget exhausted: `%s -> %s` would enter `%s` a %s time (budget %d) after %d move(s)\n", f.From, f.To, f.To, ordinal(int(f.Budget)+1), f.Budget, o.Moves)
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
