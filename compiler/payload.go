package compiler

import (
	"fmt"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/stepmap"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// payload builds the run of one slot: nil for an empty slot without a
// summary (the writer then omits `run:`), else {state, summary, step}.
func (p *projector) payload(state, summary string, step *stepmap.Step) *flow.Run {
	if step == nil && summary == "" {
		return nil
	}
	run := &flow.Run{State: state, Summary: summary}
	if step == nil {
		p.warnControl(state, run) // the state's summary alone
		return run
	}
	run.Kind = string(step.Kind)
	run.Description = step.Description
	switch step.Kind {
	case stepmap.KindLLM:
		run.Prompt = step.Prompt
		run.Context = step.Context
		run.Scope = scopeRules(step.Scope)
		run.Harness = step.Harness
		if run.Harness == "" {
			run.Harness = defaultHarness
		}
	case stepmap.KindCommand:
		run.Command = step.Run
		if e := step.Evidence; e != nil {
			kind, _ := vocab.CanonicalKind(e.Kind)
			suite := e.Suite
			if suite != "" {
				suite, _ = vocab.CanonicalSuite(suite)
			}
			run.Evidence = &flow.Evidence{Kind: kind, Verifier: e.Verifier, Suite: suite}
		}
	case stepmap.KindOperator:
		run.Prompt = step.Prompt
	}
	p.warnControl(state, run)
	return run
}

// scopeRules writes each path of each rule as "<path>=<word>", rule by
// rule, path by path, never sorted: the first match wins.
func scopeRules(rules []stepmap.ScopeRule) []string {
	var out []string
	for _, r := range rules {
		for _, path := range r.Paths {
			out = append(out, path+"="+string(r.Write))
		}
	}
	return out
}

// warnControl warns about C0 control characters other than CR, LF and TAB
// in free text: q passes them through raw, which YAML cannot hold, and the
// generator's own check then refuses the YAML document (projection.md §6.3).
func (p *projector) warnControl(state string, run *flow.Run) {
	texts := []string{run.Summary, run.Prompt, run.Harness}
	if run.Description != nil {
		texts = append(texts, *run.Description)
	}
	texts = append(texts, run.Context...)
	texts = append(texts, run.Scope...)
	texts = append(texts, run.Command...)
	for _, t := range texts {
		for _, r := range t {
			var why string
			switch {
			case r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f:
				why = fmt.Sprintf("the control character %U, which YAML output cannot carry", r)
			case r == 0x85 || r == 0x2028 || r == 0x2029:
				// q passes them through raw too, and the document reads
				// back, but not as written: yaml.v3 and every reader
				// derived from libyaml take them for line breaks inside a
				// quoted scalar and fold them (`A\u0085B` reads `A B`),
				// dropping the spaces after them.
				why = fmt.Sprintf("the character %U, which a YAML reader takes for a line break and folds, so the harness would read another text", r)
			default:
				continue
			}
			p.warnings.Add(diag.Warningf(CodeControlCharacter, "a text of state `%s` holds %s", state, why).
				At(p.w.File, statePos(p.w, state)).WithPath(p.w.Location() + ".states." + state).
				WithHint("remove it, or write the document with --format json"))
			return
		}
	}
}

// stateIDWarnings reports non-terminal state ids (and a workflow id) that
// the harness or a governor would misread (projection.md §10).
func stateIDWarnings(w *workflow.Workflow, order []string) diag.List {
	var out diag.List
	loc := w.Location()
	for _, s := range order {
		path := loc + ".states." + s
		var d diag.List
		if strings.ContainsAny(s, "./") {
			d.Add(diag.Warningf(CodeRefusedByHarness,
				"the state id `%s` holds `.` or `/`: the harness refuses `.` in node ids and would make `/` a path separator in its session files", s).
				WithPath(path).WithHint("rename the state with letters, digits, `_` and `-` only"))
		}
		if i := strings.Index(s, retreatGroupJoin); i >= 0 {
			d.Add(diag.Warningf(CodeMisreadByGovernor,
				"the state id `%s` holds `-to-`: the hook reads a group named so as the retreat `%s` .. `%s`", s, s[:i], s[i+len(retreatGroupJoin):]).
				WithPath(path).WithHint("rename the state without `-to-`"))
		} else if strings.HasSuffix(s, retreatGroupSingleSuffix) {
			d.Add(diag.Warningf(CodeMisreadByGovernor,
				"the state id `%s` ends in `-again`: the hook reads a group named so as the retreat of state `%s`", s, s[:len(s)-len(retreatGroupSingleSuffix)]).
				WithPath(path).WithHint("rename the state without the `-again` ending"))
		}
		if isYAMLNonString(s) {
			d.Add(notPlainString("state id", s, path))
		}
		for _, one := range d {
			out.Add(one.At(w.File, statePos(w, s)))
		}
	}
	for _, d := range workflowIDWarning(w.ID, loc) {
		out.Add(d.At(w.File, w.Pos))
	}
	return out
}

// statePos returns the position of state id's key in the workflow's file
// (zero for a workflow built in memory).
func statePos(w *workflow.Workflow, id string) diag.Pos {
	if st := w.States[id]; st != nil {
		return st.Pos
	}
	return diag.Pos{}
}

// workflowIDWarning reports a workflow id YAML reads back as a non-string.
func workflowIDWarning(id, loc string) diag.List {
	if isYAMLNonString(id) {
		return diag.List{notPlainString("workflow id", id, loc)}
	}
	return nil
}

func notPlainString(what, id, path string) diag.Diagnostic {
	readsAs := "boolean"
	if id == "null" {
		readsAs = "null"
	}
	return diag.Warningf(CodeNotPlainString,
		"the %s `%s` is written unquoted in YAML and reads back as a %s, not a string", what, id, readsAs).
		WithPath(path).WithHint("rename it, or write the document with --format json")
}

func isYAMLNonString(s string) bool { return s == "true" || s == "false" || s == "null" }
