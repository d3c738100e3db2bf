package flow

// Document is a flow document: a top-level id and the root group.
type Document struct {
	// ID is the top-level id, sent to the transition hook as `flow`.
	ID string
	// Comment is not written by WriteYAML (the header is the caller's); it
	// is kept for symmetry with Node.Comment and ignored by the writers.
	Comment string
	// Root is the root group; its id is `root` in generated documents.
	Root *Node
}

// Node is a group (IsGroup reports true: Nodes is non-nil) or a step.
type Node struct {
	// ID is unique among siblings and holds no `.`.
	ID string
	// Needs names sibling ids this node waits for.
	Needs []string
	// Repeat is the group's `repeat.max`, total attempts including the
	// first; 0 means the key is absent (one attempt). Groups only.
	Repeat int
	// Gives names the handoff values the group promises to later siblings.
	// Groups only.
	Gives []string
	// Nodes holds a group's children. A non-nil slice (even empty) makes the
	// node a group; nil makes it a step.
	Nodes []*Node
	// Comment is written as a `# ` line above a group; the reader never
	// fills it. Groups only; it must be one line.
	Comment string
	// Run is a step's payload; nil means no `run:` key. Steps only.
	Run *Run
}

// IsGroup reports whether n is a group, that is whether it has `nodes`.
func (n *Node) IsGroup() bool { return n.Nodes != nil }

// Run kinds, the closed vocabulary of `run.kind`.
const (
	KindLLM      = "llm"
	KindCommand  = "command"
	KindOperator = "operator"
)

// DefaultHarness is the `harness` WriteYAML writes for an `llm` step whose
// Harness is empty, as the projection does (projection.md §6.2).
const DefaultHarness = "claude-code"

// Run is a step's `run` payload. The writer decides key order from Kind
// (projection.md §6.2); empty strings and empty slices mean "absent".
//
// Kind "" is a slot with no step: only State and Summary are written (and
// the whole `run:` is left out when Summary is empty). Kind "llm" writes
// prompt, context, scope, harness, description; "command" writes command,
// evidence, description; "operator" writes prompt, description.
type Run struct {
	// State is the step's state name, written unquoted.
	State string
	// Summary is the state's summary, already whitespace-collapsed.
	Summary string
	// Kind is "", KindLLM, KindCommand or KindOperator.
	Kind string
	// Prompt is the instruction of an llm or operator step.
	Prompt string
	// Context lists workspace-relative files read into an llm turn.
	Context []string
	// Scope lists `<glob>=<word>` write-scope rules, first match wins.
	Scope []string
	// Harness names the harness an llm step is meant for.
	Harness string
	// Command is the argv of a command step.
	Command []string
	// Evidence says what a command step establishes; nil when absent.
	Evidence *Evidence
	// Description is the step's description; nil when absent.
	Description *string
}

// Evidence is the `evidence` mapping of a command step: canonical evidence
// kind, verifier and optional suite, all written unquoted.
type Evidence struct {
	Kind     string
	Verifier string
	Suite    string
}
