package stepmap

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/vocab"
)

// Codes of the structural and cross-validation rules (documents.md §8.3,
// §8.4, §8.5).
const (
	CodeUnsupportedFormat     = "unsupported_format_version"
	CodeMissingDeclaration    = "missing_declaration"
	CodeEmptyDeclaration      = "empty_declaration"
	CodeUndeclaredReference   = "undeclared_reference"
	CodeUnsupportedConstruct  = "unsupported_construct"
	CodeUnknownWorkflow       = "unknown_workflow"
	CodeVersionMismatch       = "version_mismatch"
	CodeUnknownState          = "unknown_state"
	CodeNoVerifierForEvidence = "no_verifier_for_evidence"
	CodeUnknownStepMap        = "unknown_step_map"
)

// placeholder matches `{name}` with name made of `[a-z_]`; anything else in
// braces is plain text.
var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z_]+)\}`) })

// Validate runs the structural rules of documents.md §8.3 and returns
// every problem, positioned at the blamed node. States are visited in id
// order, steps in the author's order. On a map decoded with shape errors
// it judges what decoded soundly: a rule whose input did not decode (a
// `format` that is not a string, a `run` with an item that is not, a
// misspelt `record`) is not applied, so a shape error is never blamed
// twice and never hides the rules of the rest of the map.
func (m *Map) Validate() diag.List {
	v := &validator{m: m}
	if m.Format != Format && !m.shaky.format {
		v.add(m.nodes.pos("format"), "driver-steps.format", diag.Errorf(CodeUnsupportedFormat,
			"the format `%s` is not supported; this version reads `%s`", m.Format, Format))
	}
	if m.WorkflowText != "" && m.Workflow.ID != "" && !m.Workflow.Pinned() {
		v.add(m.nodes.pos("workflow"), "driver-steps.workflow", diag.Errorf(CodeMissingDeclaration,
			"the workflow reference `%s` names no major version; a step map is written for one", m.WorkflowText).
			WithHint("pin it: `%s/1`", m.WorkflowText))
	}
	if len(m.States) == 0 && !m.shaky.states {
		v.add(m.nodes.pos("states"), m.Location()+".states", diag.Errorf(CodeEmptyDeclaration,
			"the step map declares no states"))
	}
	for _, id := range m.StateIDs() {
		v.state(id, m.States[id])
	}
	return v.diags
}

type validator struct {
	m     *Map
	diags diag.List
}

func (v *validator) add(pos diag.Pos, path string, d diag.Diagnostic) {
	v.diags.Add(d.At(v.m.File, pos).WithPath(path))
}

func (v *validator) state(id string, st *StateSteps) {
	sp := v.m.Location() + ".states." + id
	if st.VisitBudget == 0 {
		v.add(st.nodes.pos("visit_budget"), sp+".visit_budget", diag.Errorf(CodeEmptyDeclaration,
			"state `%s` has a visit budget of 0, so it could never be entered", id).WithHint("give a budget of 1 or more, or leave it out for the default of %d", DefaultVisitBudget))
	}
	sawLLM := false
	for i, s := range st.Steps {
		p := fmt.Sprintf("%s.steps[%d]", sp, i)
		switch s.Kind {
		case KindCommand:
			v.command(id, s, p, sawLLM)
		case KindLLM:
			v.prompt(s, p)
			v.context(s, p)
			v.scope(s, p)
			sawLLM = true
		case KindOperator:
			v.prompt(s, p)
		}
	}
}

func (v *validator) command(state string, s *Step, p string, sawLLM bool) {
	if !s.shaky.run && !slices.ContainsFunc(s.Run, func(w string) bool { return strings.TrimSpace(w) != "" }) {
		v.add(s.nodes.pos("run"), p+".run", diag.Errorf(CodeEmptyDeclaration, "the command step runs nothing: `run` is empty or every word is blank"))
	}
	for i, w := range s.Run {
		v.placeholders(w, state, at(s.runPos, i, s.nodes.pos("run")), p+".run", sawLLM)
	}
	if s.CircuitBreaker != nil {
		switch {
		case s.DependsOn == nil && s.shaky.dependsOn:
			// `depends_on` is there but unreadable or misspelt: its own
			// diagnostic is the cause.
		case s.DependsOn == nil:
			v.add(s.nodes.pos("circuit_breaker"), p+".circuit_breaker", diag.Errorf(CodeEmptyDeclaration,
				"the circuit breaker has nothing to break: the step declares no `depends_on`"))
		case *s.CircuitBreaker == 0:
			v.add(s.nodes.pos("circuit_breaker"), p+".circuit_breaker", diag.Errorf(CodeEmptyDeclaration,
				"a circuit breaker of 0 would never let the step run"))
		}
	}
	if s.DependsOn != nil && strings.TrimSpace(*s.DependsOn) == "" {
		v.add(s.nodes.pos("depends_on"), p+".depends_on", diag.Errorf(CodeEmptyDeclaration, "`depends_on` names nothing"))
	}
	if s.Evidence != nil {
		v.evidence(state, s.Evidence, p, sawLLM)
	}
}

// placeholders checks one `run` word or record path. The location is the
// step's `run` for both (documents.md §8.3 names `P.run` for the record too).
func (v *validator) placeholders(text, state string, pos diag.Pos, path string, sawLLM bool) {
	for _, match := range placeholder().FindAllStringSubmatch(text, -1) {
		name := match[1]
		switch {
		case !slices.Contains(Placeholders, name):
			v.add(pos, path, diag.Errorf(CodeUndeclaredReference, "`{%s}` is not a placeholder", name).
				WithHint("the placeholders are {run_directory}, {task}, {transcript}"))
		case name == "transcript" && !sawLLM:
			v.add(pos, path, diag.Errorf(CodeMissingDeclaration,
				"`{transcript}` is used in state `%s` with no `llm` step before it to produce a transcript", state))
		}
	}
}

func (v *validator) evidence(state string, e *Evidence, p string, sawLLM bool) {
	ep := p + ".evidence"
	if e.shaky.kind || e.shaky.record {
		// What the step establishes, and how, did not decode: the kind
		// rules would judge a guess.
	} else if e.Kind != "" && !vocab.IsMintable(e.Kind) && e.Record == nil {
		v.add(e.nodes.pos("kind"), ep+".kind", diag.Errorf(CodeUnsupportedConstruct,
			"a command's exit status cannot establish `%s` evidence", e.Kind).
			WithHint("mintable kinds are %s; for any other kind name the file the verifier writes with `record:`", strings.Join(vocab.MintableKinds, ", ")))
	}
	if e.Kind == "test_result" && e.Suite == "" && e.Record == nil && !e.shaky.kind && !e.shaky.suite && !e.shaky.record {
		v.add(e.nodes.pos("kind"), ep+".suite", diag.Errorf(CodeMissingDeclaration,
			"a `test_result` minted from an exit status must say which suite ran").
			WithHint("name the suite: `suite: unit`"))
	}
	if e.Record != nil {
		if strings.TrimSpace(*e.Record) == "" {
			v.add(e.nodes.pos("record"), ep+".record", diag.Errorf(CodeEmptyDeclaration, "`record` names no file"))
		}
		v.placeholders(*e.Record, state, e.nodes.pos("record"), p+".run", sawLLM)
	}
}

func (v *validator) prompt(s *Step, p string) {
	if !s.shaky.prompt && strings.TrimSpace(s.Prompt) == "" {
		v.add(s.nodes.pos("prompt"), p+".prompt", diag.Errorf(CodeEmptyDeclaration, "the %s has a blank prompt", describe(s.Kind)))
	}
}

func (v *validator) context(s *Step, p string) {
	for i, c := range s.Context {
		pos := at(s.contextPos, i, s.nodes.pos("context"))
		switch {
		case c == "":
			v.add(pos, p+".context", diag.Errorf(CodeEmptyDeclaration, "context entry %d is blank", i))
		case strings.ContainsAny(c, "*?"):
			v.add(pos, p+".context", diag.Errorf(CodeEmptyDeclaration, "context entry `%s` is a glob; context names files", c).
				WithHint("list the files themselves"))
		}
	}
}

func (v *validator) scope(s *Step, p string) {
	allHavePaths := true
	for i, rule := range s.Scope {
		switch {
		case s.shaky.scope[i]:
			allHavePaths = false // its paths did not decode: nothing to judge
		case len(rule.Paths) == 0:
			allHavePaths = false
			v.add(s.nodes.item("scope", i), p+".scope", diag.Errorf(CodeEmptyDeclaration, "scope rule %d has no paths", i))
		case slices.Contains(rule.Paths, ""):
			v.add(s.nodes.item("scope", i), p+".scope", diag.Errorf(CodeEmptyDeclaration, "scope rule %d has a blank path", i))
		}
	}
	// The last rule must name the exact path `**`, so that every path has
	// an answer (the reference's rule; issue 10 item 4): a path that merely
	// contains `**`, such as `src/**`, leaves the others unanswered.
	if n := len(s.Scope); n > 0 && allHavePaths {
		last := s.Scope[n-1]
		if !slices.Contains(last.Paths, "**") {
			v.add(s.nodes.item("scope", n-1), p+".scope", diag.Errorf(CodeEmptyDeclaration,
				"the last scope rule does not cover every path: its paths do not include the catch-all `**`").
				WithHint("end the scope with a catch-all rule such as `{paths: [\"**\"], write: denied}`; a path like `src/**` covers only part of the tree"))
		}
	}
}

// at returns positions[i], or fallback when there is none.
func at(positions []diag.Pos, i int, fallback diag.Pos) diag.Pos {
	if i < len(positions) {
		return positions[i]
	}
	return fallback
}
