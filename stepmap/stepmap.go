// Package stepmap models the step map, `aep.driver-steps/1` (documents.md
// §8): what a harness does in each state of one pinned workflow. It decodes a
// map strictly, validates its structure (§8.3), cross-validates it against a
// workflow (§8.4) and selects one for a command (§8.5).
//
// It is not for running steps (a harness does that) nor for projecting them
// into a flow document (package compiler); it only says what a map holds and
// whether it holds together.
package stepmap

import (
	"maps"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	yaml "go.yaml.in/yaml/v3"
)

// Format is the only format string a step map may declare.
const Format = "aep.driver-steps/1"

// DefaultVisitBudget is a state's visit budget when the map gives none.
const DefaultVisitBudget = 3

// DefaultHarness is an llm step's harness when the step names none.
const DefaultHarness = "claude-code"

// DefaultCommandRetries is a command step's retry count when it gives none.
const DefaultCommandRetries = 2

// Placeholders lists the placeholder names a `run` word or an evidence
// `record` may use, in byte order.
var Placeholders = []string{"run_directory", "task", "transcript"}

// Map is one decoded step map. States is keyed by state id; iterate it
// through StateIDs, never directly, when producing output.
type Map struct {
	// File is the file the map was read from, as reported in diagnostics.
	File string
	// Format is the format string as written.
	Format string
	// ID is the map's identifier (dotted charset).
	ID string
	// Workflow is the parsed workflow pin; Major is 0 when the pin names no
	// version (refused by Validate).
	Workflow ident.Ref
	// WorkflowText is the pin as written, prefix included.
	WorkflowText string
	// Title is the optional report heading (nil when absent or null).
	Title *string
	// States maps a state id to what to do there.
	States map[string]*StateSteps

	nodes nodes
	// pinSpan is the span of the `workflow` value, for a fix that
	// replaces the pin (zero when no exact edit is possible).
	pinSpan diag.Span
	// shaky records what did not decode soundly, so that Validate judges
	// the rest of a map with shape errors without blaming what it could
	// not read. The zero value means "all sound".
	shaky struct {
		// format: `format` is missing or not a string.
		format bool
		// states: `states` is not a mapping, or is absent with an unknown
		// key that resembles it.
		states bool
	}
}

// StateSteps is one state's entry in a map.
type StateSteps struct {
	// VisitBudget is how many times the state may be entered (default 3).
	VisitBudget uint32
	// Steps are run in this order, the author's; it is never sorted.
	Steps []*Step

	nodes nodes
	// keyPos and keySpan locate the state's key in `states`, for
	// cross-validation (keySpan is zero when no exact edit is possible).
	keyPos  diag.Pos
	keySpan diag.Span
	// badKey: the state's key is not a valid state id (reported), so it
	// is not compared with the workflow's states.
	badKey bool
}

// StepKind tags a step: llm, command or operator.
type StepKind string

// The three step kinds.
const (
	KindLLM      StepKind = "llm"
	KindCommand  StepKind = "command"
	KindOperator StepKind = "operator"
)

// Step is one step of a state. Which fields are meaningful depends on Kind:
// llm uses Prompt, Context, Scope, Skills and Harness; command uses Run,
// Evidence, Retries, DependsOn and CircuitBreaker; operator uses Prompt.
// Description is common to all three.
type Step struct {
	// Kind says which of the three kinds the step is.
	Kind StepKind
	// Description is the step's one-line purpose (nil when absent).
	Description *string
	// Prompt is what an llm step asks the model, or what an operator step
	// asks the person.
	Prompt string
	// Context lists the files an llm step is given, trimmed.
	Context []string
	// Scope is an llm step's write scope; first match wins. Empty means no
	// scope declared, not everything allowed. When declared, its last rule
	// names the exact path `**` (validation refuses it otherwise), so that
	// every path has an answer.
	Scope []ScopeRule
	// Skills names the skills an llm step loads.
	Skills []string
	// Harness is an llm step's harness (default claude-code).
	Harness string
	// Run is a command step's argv.
	Run []string
	// Evidence says what a command step's result establishes (nil for none).
	Evidence *Evidence
	// Retries is how often a step that could not run is retried: 1 for
	// llm (fixed), 2 by default for command, 0 for operator.
	Retries uint32
	// DependsOn names the outside thing a command step needs (nil for none).
	DependsOn *string
	// CircuitBreaker is after how many failures of DependsOn to stop
	// attempting it (nil for none).
	CircuitBreaker *uint32

	nodes nodes
	// runPos and contextPos are the positions of the decoded `run` words
	// and `context` entries, index for index.
	runPos, contextPos []diag.Pos
	// shaky records the step's parts that did not decode.
	shaky struct {
		// run, prompt: missing, not the right shape, or holding an item
		// that is not a string.
		run, prompt bool
		// dependsOn: present but unreadable, or misspelt.
		dependsOn bool
		// scope holds the indexes of the scope rules whose paths did not
		// decode.
		scope map[int]bool
	}
}

// Evidence is a command step's evidence mapping.
type Evidence struct {
	// Kind is the canonical evidence kind (legacy spellings normalised).
	Kind string
	// Verifier is a named verifier class or an external tool name.
	Verifier string
	// Suite is the canonical test suite (empty when absent).
	Suite string
	// Subject is the `<kind>:<id>` subject reference (empty when absent).
	Subject string
	// Tool is the tool reference for provenance (empty when absent).
	Tool string
	// Record is the path the verifier writes its record to, as written
	// (nil when absent).
	Record *string

	nodes nodes
	// shaky records the keys that did not decode: missing (kind,
	// verifier), unreadable, not a known value, or misspelt.
	shaky struct{ kind, verifier, suite, record bool }
}

// WriteScope is what a scope rule allows on its paths.
type WriteScope string

// The three write scopes.
const (
	WriteAllowed     WriteScope = "allowed"
	WritePartialOnly WriteScope = "partial-only"
	WriteDenied      WriteScope = "denied"
)

// ScopeRule is one rule of an llm step's scope.
type ScopeRule struct {
	// Paths are globs relative to the working tree, trimmed.
	Paths []string
	// Write is what the rule allows on them.
	Write WriteScope
}

// Label returns the step's name in reports: its description, else its argv
// joined by spaces (command), else its prompt.
func (s *Step) Label() string {
	switch {
	case s.Description != nil:
		return *s.Description
	case s.Kind == KindCommand:
		return strings.Join(s.Run, " ")
	}
	return s.Prompt
}

// StateIDs returns the map's state ids in byte order.
func (m *Map) StateIDs() []string { return slices.Sorted(maps.Keys(m.States)) }

// Location returns the map's location prefix, `driver-steps[<id>]`.
func (m *Map) Location() string { return "driver-steps[" + m.ID + "]" }

// nodes remembers the YAML nodes of a decoded value so that validation can
// blame a position: the key "" holds the value's own node, other keys the
// value node of that key.
type nodes map[string]*yaml.Node

func (n nodes) pos(key string) diag.Pos {
	if v := n[key]; v != nil {
		return diag.Pos{Line: v.Line, Column: v.Column}
	}
	if v := n[""]; v != nil {
		return diag.Pos{Line: v.Line, Column: v.Column}
	}
	return diag.Pos{}
}

// item returns the position of item i of the sequence under key, falling
// back to the key's value, then to the value's own node.
func (n nodes) item(key string, i int) diag.Pos {
	if v := n[key]; v != nil && v.Kind == yaml.SequenceNode && i < len(v.Content) {
		return diag.Pos{Line: v.Content[i].Line, Column: v.Content[i].Column}
	}
	return n.pos(key)
}

// KindPos returns the position of the evidence mapping's `kind` value (or
// of the mapping when it has none); analysis blames an undeclared kind
// there.
func (e *Evidence) KindPos() diag.Pos { return e.nodes.pos("kind") }
