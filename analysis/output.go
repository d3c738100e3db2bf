package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/workflow"
)

// Result is one workflow's findings with the witnesses that confirm its
// overlapping_guards findings, and what its analysis_incomplete findings
// left undecided.
type Result struct {
	Findings  diag.List
	Witnesses []WitnessOf
	Undecided Undecided
}

// Undecided counts what the bounds of §4.6 left undecided in an analysis:
// it is complete when the count is zero.
type Undecided struct {
	// Checks is the number of checks left undecided at transitions, and
	// Transitions the number of transitions they are at.
	Checks, Transitions int
	// Stopped counts the workflows whose analysis a workflow-wide bound
	// stopped early (their remaining checks are not counted in Checks).
	Stopped int
}

// Add adds the counts of u to those of v.
func (v *Undecided) Add(u Undecided) {
	v.Checks += u.Checks
	v.Transitions += u.Transitions
	v.Stopped += u.Stopped
}

// Complete reports whether nothing was left undecided.
func (v Undecided) Complete() bool { return v == Undecided{} }

// Note says, for the end of the text summary line, what the bounds left
// undecided — "the analysis is incomplete: 2 checks left undecided at 1
// transition" — and "" when the analysis is complete: a report that left
// a check undecided never reads as a clean one.
func (v Undecided) Note() string {
	if v.Complete() {
		return ""
	}
	var parts []string
	if v.Checks > 0 {
		parts = append(parts, fmt.Sprintf("%d %s left undecided at %d %s", v.Checks, plural(v.Checks, "check"), v.Transitions, plural(v.Transitions, "transition")))
	}
	if v.Stopped > 0 {
		parts = append(parts, fmt.Sprintf("%d %s stopped early", v.Stopped, plural(v.Stopped, "workflow")))
	}
	return "the analysis is incomplete: " + strings.Join(parts, ", and ")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// AnalyzeWitnessed is Analyze, keeping the witnesses.
func AnalyzeWitnessed(t *tree.Tree, w *workflow.Workflow, opts Options) Result {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	a := newAnalyzer(t, w, opts)
	a.run()
	return Result{Findings: a.diags, Witnesses: a.witnesses, Undecided: a.undecided}
}

func findingKey(d diag.Diagnostic) string { return d.Code + "\x00" + d.Location() + "\x00" + d.Message }

// WriteJSON prints ds exactly as diag.WriteJSON does, each
// overlapping_guards object with one more key, `witness`: a scenario
// document (analysis.md §9.4) that replays it, and each
// analysis_incomplete object with `"incomplete": true`, the key a tool
// reads to know the analysis left a check undecided (§9.4 forbids a
// wrapper object, so the report says it on the findings).
func WriteJSON(w io.Writer, ds diag.List, witnesses []WitnessOf) error {
	var buf bytes.Buffer
	if err := diag.WriteJSON(&buf, ds); err != nil {
		return err
	}
	if len(witnesses) == 0 && !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == CodeIncomplete }) {
		_, err := w.Write(buf.Bytes())
		return err
	}
	byKey := map[string]*Witness{}
	for _, wo := range witnesses {
		byKey[findingKey(wo.Finding)] = wo.Witness
	}
	var objs []json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &objs); err != nil {
		return err
	}
	var out bytes.Buffer
	out.WriteByte('[')
	for i, d := range ds {
		if i > 0 {
			out.WriteByte(',')
		}
		obj := bytes.TrimSpace(objs[i])
		if wit := byKey[findingKey(d)]; wit != nil {
			var enc bytes.Buffer
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(false)
			if err := e.Encode(wit); err != nil {
				return err
			}
			data := bytes.TrimSpace(enc.Bytes())
			obj = append(append(append(obj[:len(obj)-1:len(obj)-1], `,"witness":`...), data...), '}')
		}
		if d.Code == CodeIncomplete {
			obj = append(obj[:len(obj)-1:len(obj)-1], `,"incomplete":true}`...)
		}
		out.Write(obj)
	}
	out.WriteByte(']')
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, out.Bytes(), "", "  "); err != nil {
		return err
	}
	pretty.WriteByte('\n')
	_, err := w.Write(pretty.Bytes())
	return err
}
