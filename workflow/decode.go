package workflow

import (
	"slices"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Codes of the diagnostics this package reports beyond yamldoc's shape
// codes (documents.md §2.4, §7). invalid_predicate and predicate_too_deep
// come from package predicate.
const (
	// CodeInvalidIdentifier: an id breaks its charset (documents.md §3.1).
	CodeInvalidIdentifier = "invalid_identifier"
	// CodeInvalidReference: a reference breaks its syntax.
	CodeInvalidReference = "invalid_reference"
	// CodeEmptyWorkflow: `states` is empty (rule 1).
	CodeEmptyWorkflow = "empty_workflow"
	// CodeUnknownInitialState: `initial` is not a declared state (rule 2).
	CodeUnknownInitialState = "unknown_initial_state"
	// CodeUnknownState: a transition end is not a declared state (rule 3).
	CodeUnknownState = "unknown_state"
	// CodeDuplicateTransition: a second transition for one (from, to) pair
	// (rule 4).
	CodeDuplicateTransition = "duplicate_transition"
	// CodeRollbackOnIrreversibleState: a rollback policy on, or out of, an
	// irreversible state (rule 5).
	CodeRollbackOnIrreversibleState = "rollback_on_irreversible_state"
	// CodeIncompleteRollbackPolicy: a rollback without a precondition
	// (rule 6).
	CodeIncompleteRollbackPolicy = "incomplete_rollback_policy"
	// CodeDeadEndState: a non-terminal state without an outgoing transition
	// (rule 7).
	CodeDeadEndState = "dead_end_state"
	// CodeUnreachableState: a state not reachable from `initial` (rule 8).
	CodeUnreachableState = "unreachable_state"
)

// Load parses data as a workflow document named file and decodes it. It
// reports shape problems only (documents.md §2.4); run Validate on the
// result when the list holds no error. The workflow is nil when the bytes
// are not a mapping at all.
func Load(file string, data []byte) (*Workflow, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil {
		return nil, diags
	}
	w := DecodeReleasing(doc, &diags) // doc is local
	return w, diags
}

// Check loads a workflow and validates it: the whole single-document
// pipeline. Shape errors do not hide the rules: Validate judges what
// decoded soundly. The list is sorted (file, line, column, code) and
// deduplicated; the workflow is nil when the bytes are not a mapping.
func Check(file string, data []byte) (*Workflow, diag.List) {
	w, diags := Load(file, data)
	if w != nil {
		diags.Extend(w.Validate())
	}
	return w, diags.Sorted()
}

// Decode reads a parsed document as a workflow, reporting shape problems
// into diags. It returns nil when the document is not a mapping; otherwise
// a best-effort workflow: Validate may run on it (it skips the rules whose
// inputs did not decode), but nothing else may use it when diags holds
// errors. doc is left whole (an editor reads its nodes afterwards).
func Decode(doc *yamldoc.Document, diags *diag.List) *Workflow {
	return decode(doc, diags, false)
}

// DecodeReleasing is Decode for a caller that discards doc afterwards (a
// loader): it drops each state's and each transition's nodes once they are
// decoded, so that a large workflow's node tree and its model are never
// both whole in memory. Only doc's top-level keys and values are left to
// read.
func DecodeReleasing(doc *yamldoc.Document, diags *diag.List) *Workflow {
	return decode(doc, diags, true)
}

// decoding is the state of one decode.
type decoding struct {
	release bool // drop each state's and transition's nodes once decoded
}

func decode(doc *yamldoc.Document, diags *diag.List, release bool) *Workflow {
	d := decoding{release: release}
	r := yamldoc.NewReader(doc, diags)
	if doc.Root == nil || doc.Root.Kind != yaml.MappingNode {
		r.Report(doc.Root, "workflow", diag.Errorf(yamldoc.CodeWrongType,
			"a workflow document must be a mapping, found %s", yamldoc.ShapeOf(doc.Root)))
		return nil
	}
	w := &Workflow{File: doc.File, Version: 1, States: map[string]*State{}}
	m := r.Map(doc.Root, "workflow", false)
	base := decodeHeader(r, &m, w)
	w.shaky.states = true
	if sn := m.Require("states"); sn != nil {
		w.StatesPos = yamldoc.PosOf(sn)
		w.shaky.states = sn.Kind != yaml.MappingNode
		d.states(r, sn, yamldoc.Key(base, "states"), w)
	}
	if tn := m.Get("transitions"); tn != nil {
		d.transitions(r, tn, yamldoc.Key(base, "transitions"), w)
	}
	m.Done()
	return w
}

// decodeHeader reads the top-level scalars and returns the location prefix
// of the document's diagnostics: `workflow <id>`, or `workflow` while the
// id is unreadable.
func decodeHeader(r *yamldoc.Reader, m *yamldoc.Map, w *Workflow) string {
	base := "workflow"
	if n := m.Require("id"); n != nil {
		w.Pos = yamldoc.PosOf(n)
		if s, ok := r.String(n, "workflow.id"); ok {
			w.ID = s
			base = w.Location()
			checkID(r, n, yamldoc.Key(base, "id"), ident.Dotted, "workflow id", s)
		}
	}
	if n := m.Get("version"); n != nil {
		if v, ok := r.Uint32(n, yamldoc.Key(base, "version"), 1); ok {
			w.Version = v
		}
	}
	if n := m.Require("title"); n != nil {
		w.Title, _ = r.String(n, yamldoc.Key(base, "title"))
	}
	w.Summary = optString(r, m.Get("summary"), yamldoc.Key(base, "summary"))
	w.shaky.initial = true
	if n := m.Require("initial"); n != nil {
		w.InitialPos = yamldoc.PosOf(n)
		var ok bool
		w.Initial, ok = stateID(r, n, yamldoc.Key(base, "initial"))
		w.shaky.initial = !ok
		w.initialSpan, _ = r.ValueSpan(n)
	}
	if n := m.Get("allow_unreachable_states"); n != nil {
		w.AllowUnreachable, _ = r.Bool(n, yamldoc.Key(base, "allow_unreachable_states"))
	}
	return base
}

// optString reads a string that may be absent or null (nil then).
func optString(r *yamldoc.Reader, n *yaml.Node, path string) *string {
	if s, ok := r.OptString(n, path); ok {
		return &s
	}
	return nil
}

// stateID reads a state id value (dotted-snake charset).
func stateID(r *yamldoc.Reader, n *yaml.Node, path string) (string, bool) {
	s, ok := r.String(n, path)
	if !ok {
		return "", false
	}
	return s, checkID(r, n, path, ident.DottedSnake, "state id", s)
}

func (d decoding) states(r *yamldoc.Reader, n *yaml.Node, path string, w *Workflow) {
	m := r.Map(n, path, false)
	for i, k := range m.Keys() {
		if k.Kind != yaml.ScalarNode || !isString(k) {
			continue // yamldoc reported the non-string key
		}
		if _, dup := w.States[k.Value]; dup {
			continue // yamldoc reported the duplicate key
		}
		sp := yamldoc.Key(path, k.Value)
		if !checkID(r, k, sp, ident.DottedSnake, "state id", k.Value) {
			w.shaky.stateKeys = true
			continue
		}
		w.States[k.Value] = decodeState(r, k, m.Node().Content[2*i+1], sp)
		if d.release {
			m.Node().Content[2*i+1] = nil
		}
	}
}

func decodeState(r *yamldoc.Reader, key, n *yaml.Node, path string) *State {
	s := &State{ID: key.Value, Pos: yamldoc.PosOf(key)}
	m := r.Map(n, path, false)
	defer m.Done()
	s.shakyTerminal = m.Node() == nil
	if tn := m.Require("title"); tn != nil {
		s.Title, _ = r.String(tn, yamldoc.Key(path, "title"))
	}
	sn := m.Get("summary")
	s.Summary = optString(r, sn, yamldoc.KeyOf(sn, path, "summary"))
	if tn := m.Get("terminal"); tn != nil {
		var ok bool
		s.Terminal, ok = r.Bool(tn, yamldoc.Key(path, "terminal"))
		s.shakyTerminal = s.shakyTerminal || !ok
	}
	if pn := m.Get("phases"); pn != nil {
		s.Phases = phases(r, pn, yamldoc.Key(path, "phases"))
	}
	rn, key2 := m.GetAlias("requires", "require")
	s.Requires = DecodeRequirementSet(r, rn, yamldoc.KeyOf(rn, path, key2))
	cn := m.Get("capabilities")
	s.Capabilities = DecodeCapabilityPolicy(r, cn, yamldoc.KeyOf(cn, path, "capabilities"))
	if in := m.Get("irreversible"); in != nil {
		s.Irreversible, _ = r.Bool(in, yamldoc.Key(path, "irreversible"))
	}
	fn, key3 := m.GetAlias("on_failure", "failure_policy")
	s.OnFailure = DecodeFailurePolicy(r, fn, yamldoc.KeyOf(fn, path, key3))
	return s
}

// phases reads a list of phase ids as a set: de-duplicated and byte-sorted.
func phases(r *yamldoc.Reader, n *yaml.Node, path string) []string {
	if n.Kind != yaml.SequenceNode {
		r.WrongType(n, path, "a sequence")
		return nil
	}
	var out []string
	for i, it := range n.Content {
		ip := yamldoc.Index(path, i)
		if s, ok := r.String(it, ip); ok && checkID(r, it, ip, ident.Kebab, "phase id", s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (d decoding) transitions(r *yamldoc.Reader, n *yaml.Node, path string, w *Workflow) {
	if n.Kind != yaml.SequenceNode {
		r.WrongType(n, path, "a sequence")
		w.shaky.transitions = true
		return
	}
	for i, it := range n.Content {
		t := decodeTransition(r, it, yamldoc.Index(path, i))
		if d.release {
			n.Content[i] = nil
		}
		if t == nil {
			w.shaky.transitions = true
			continue
		}
		t.Index = i
		w.shaky.transitions = w.shaky.transitions || t.shakyFrom || t.shakyTo
		w.Transitions = append(w.Transitions, t)
	}
}

// decodeTransition reads one transition; nil when it is not a mapping.
func decodeTransition(r *yamldoc.Reader, n *yaml.Node, path string) *Transition {
	m := r.Map(n, path, false)
	defer m.Done()
	if m.Node() == nil {
		return nil
	}
	t := &Transition{Pos: yamldoc.PosOf(n), When: predicate.Always{}, shakyFrom: true, shakyTo: true}
	if fn := m.Require("from"); fn != nil {
		t.FromPos = yamldoc.PosOf(fn)
		var ok bool
		t.From, ok = stateID(r, fn, yamldoc.Key(path, "from"))
		t.shakyFrom = !ok
		t.fromSpan, _ = r.ValueSpan(fn)
	}
	if tn := m.Require("to"); tn != nil {
		t.ToPos = yamldoc.PosOf(tn)
		var ok bool
		t.To, ok = stateID(r, tn, yamldoc.Key(path, "to"))
		t.shakyTo = !ok
		t.toSpan, _ = r.ValueSpan(tn)
	}
	if wn := m.Get("when"); !yamldoc.IsNull(wn) {
		t.WhenPos = yamldoc.PosOf(wn)
		t.When = parsePredicate(r, wn, yamldoc.Key(path, "when"))
	}
	rn, key := m.GetAlias("requires", "require")
	t.Requires = DecodeRequirementSet(r, rn, yamldoc.KeyOf(rn, path, key))
	fn, key2 := m.GetAlias("on_failure", "failure_policy")
	t.OnFailure = DecodeFailurePolicy(r, fn, yamldoc.KeyOf(fn, path, key2))
	dn := m.Get("description")
	t.Description = optString(r, dn, yamldoc.KeyOf(dn, path, "description"))
	return t
}
