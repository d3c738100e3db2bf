package stepmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// Codes of the identifier and reference shape errors (documents.md §2.4).
const (
	CodeInvalidIdentifier = "invalid_identifier"
	CodeInvalidReference  = "invalid_reference"
)

// Load parses data as a step map and validates its structure (§8.3). The
// map is nil when the bytes are not a document at all. Shape errors do not
// hide the rules: Validate judges what decoded soundly, and a map with
// shape errors is returned beside them (callers must not use it further).
func Load(file string, data []byte) (*Map, diag.List) {
	doc, diags := yamldoc.Parse(file, data)
	if doc == nil || diags.HasErrors() {
		return nil, diags
	}
	m := Decode(doc, &diags)
	diags.Extend(m.Validate())
	return m, diags
}

// Decode reads a parsed document as a step map, reporting shape problems
// (unknown keys, wrong types, bad identifiers) into diags. It never returns
// nil. With shape errors the map is best-effort: Validate and
// CrossValidate may run on it (they skip the rules whose inputs did not
// decode), nothing else may use it.
func Decode(doc *yamldoc.Document, diags *diag.List) *Map {
	r := yamldoc.NewReader(doc, diags)
	m := &Map{File: doc.File, States: map[string]*StateSteps{}, nodes: nodes{"": doc.Root}}
	loc := "driver-steps"
	if id := peekString(doc.Root, "id"); id != "" {
		loc = "driver-steps[" + id + "]"
	}
	top := r.Map(doc.Root, loc, false)
	if n := top.Get("id"); n != nil {
		m.ID, _ = r.String(n, "driver-steps.id")
	}
	m.shaky.format = true
	if n := top.Require("format"); n != nil {
		m.nodes["format"] = n
		var ok bool
		m.Format, ok = r.String(n, "driver-steps.format")
		m.shaky.format = !ok
	}
	if n := top.Require("id"); n != nil && m.ID != "" {
		if err := ident.Check(ident.Dotted, m.ID); err != nil {
			r.Report(n, "driver-steps.id", diag.Errorf(CodeInvalidIdentifier, "the step map id `%s` is invalid: %v", m.ID, err))
		}
	}
	if n := top.Require("workflow"); n != nil {
		m.nodes["workflow"] = n
		m.pinSpan, _ = r.ValueSpan(n)
		m.decodePin(r, n)
	}
	if n := top.Get("title"); n != nil {
		if s, ok := r.OptString(n, yamldoc.Key(loc, "title")); ok {
			m.Title = &s
		}
	}
	if n := top.Get("states"); n != nil {
		m.nodes["states"] = n
		m.shaky.states = n.Kind != yaml.MappingNode && !yamldoc.IsNull(n)
		m.decodeStates(r, n, yamldoc.Key(loc, "states"))
	}
	top.Done()
	// A misspelt `states` is why the map declares none: that is the cause.
	m.shaky.states = m.shaky.states || top.Node() == nil || (top.Get("states") == nil && top.Misspelt("states"))
	return m
}

// peekString returns the string value of key in mapping n, or "", so that
// shape errors can name the map before its keys are read in order.
func peekString(n *yaml.Node, key string) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode && n.Content[i+1].Tag == "!!str" {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// decodePin reads the workflow pin as an unpinned-or-pinned reference, so
// that a missing major reaches validation (missing_declaration) and
// accumulates with the map's other problems.
func (m *Map) decodePin(r *yamldoc.Reader, n *yaml.Node) {
	s, ok := r.String(n, "driver-steps.workflow")
	if !ok {
		return
	}
	m.WorkflowText = s
	ref, err := ident.ParseRef(ident.Dotted, s)
	if err != nil {
		r.Report(n, "driver-steps.workflow", diag.Errorf(CodeInvalidReference, "the workflow reference `%s` is invalid: %v", s, err))
		return
	}
	m.Workflow = ref
}

func (m *Map) decodeStates(r *yamldoc.Reader, n *yaml.Node, path string) {
	states := r.Map(n, path, true)
	for _, k := range states.Keys() {
		sp := yamldoc.Key(path, k.Value)
		err := ident.Check(ident.DottedSnake, k.Value)
		if err != nil {
			r.Report(k, sp, diag.Errorf(CodeInvalidIdentifier, "the state id `%s` is invalid: %v", k.Value, err))
		}
		if _, dup := m.States[k.Value]; dup {
			continue // duplicate_key was reported by the parser
		}
		st := decodeState(r, states.Get(k.Value), sp)
		st.badKey = err != nil
		st.keyPos = yamldoc.PosOf(k)
		st.keySpan, _ = r.ValueSpan(k)
		m.States[k.Value] = st
	}
	states.Done()
}

func decodeState(r *yamldoc.Reader, n *yaml.Node, path string) *StateSteps {
	st := &StateSteps{VisitBudget: DefaultVisitBudget, nodes: nodes{"": n}}
	sm := r.Map(n, path, true)
	if v := sm.Get("visit_budget"); !yamldoc.IsNull(v) {
		st.nodes["visit_budget"] = v
		if b, ok := r.Uint32(v, yamldoc.Key(path, "visit_budget"), 0); ok {
			st.VisitBudget = b
		}
	}
	if v := sm.Get("steps"); v != nil {
		items, _ := r.Seq(v, yamldoc.Key(path, "steps"), false)
		st.nodes["steps"] = v
		for i, it := range items {
			st.Steps = append(st.Steps, decodeStep(r, it, yamldoc.Index(yamldoc.Key(path, "steps"), i)))
		}
	}
	sm.Done()
	return st
}

// The keys each step kind declares besides `kind` (slices, which the
// linker lays out as data, where a map would be built at start-up).
var (
	llmKeys      = []string{"prompt", "description", "context", "scope", "skills", "harness"}
	commandKeys  = []string{"run", "description", "evidence", "retries", "depends_on", "circuit_breaker"}
	operatorKeys = []string{"prompt", "description"}
)

// stepKeys returns the keys a step of kind k declares besides `kind`, and
// whether k is a step kind at all.
func stepKeys(k StepKind) ([]string, bool) {
	switch k {
	case KindLLM:
		return llmKeys, true
	case KindCommand:
		return commandKeys, true
	case KindOperator:
		return operatorKeys, true
	}
	return nil, false
}

func decodeStep(r *yamldoc.Reader, n *yaml.Node, path string) *Step {
	s := &Step{nodes: nodes{"": n}}
	sm := r.Map(n, path, false)
	if sm.Node() == nil {
		return s
	}
	kn := sm.Require("kind")
	if kn == nil {
		return s // without a kind no key set applies; nothing more to say
	}
	kind, ok := r.String(kn, yamldoc.Key(path, "kind"))
	if !ok {
		return s
	}
	s.Kind = StepKind(kind)
	keys, known := stepKeys(s.Kind)
	if !known {
		r.Invalid(kn, yamldoc.Key(path, "kind"), "`kind` must be one of command, llm, operator, found `%s`", kind)
		return s
	}
	for _, k := range keys {
		if v := sm.Get(k); v != nil {
			s.nodes[k] = v
		}
	}
	s.decodeCommon(r, &sm, path)
	switch s.Kind {
	case KindLLM:
		s.decodeLLM(r, &sm, path)
	case KindCommand:
		s.decodeCommand(r, &sm, path)
	}
	sm.Done()
	// A misspelt key stands for the one it resembles: a rule about that
	// key's absence would blame a consequence.
	s.shaky.dependsOn = s.shaky.dependsOn || (s.DependsOn == nil && sm.Misspelt("depends_on"))
	return s
}

func (s *Step) decodeCommon(r *yamldoc.Reader, sm *yamldoc.Map, path string) {
	if v := sm.Get("description"); v != nil {
		if d, ok := r.OptString(v, yamldoc.Key(path, "description")); ok {
			s.Description = &d
		}
	}
	if s.Kind == KindCommand {
		s.shaky.run = true
		if v := sm.Require("run"); v != nil {
			var ok bool
			s.Run, s.runPos, ok = stringItems(r, v, yamldoc.Key(path, "run"))
			s.shaky.run = !ok
		}
		return
	}
	s.shaky.prompt = true
	if v := sm.Require("prompt"); v != nil {
		var ok bool
		s.Prompt, ok = r.String(v, yamldoc.Key(path, "prompt"))
		s.shaky.prompt = !ok
	}
	if s.Kind == KindOperator {
		s.Retries = 0
	}
}

func (s *Step) decodeLLM(r *yamldoc.Reader, sm *yamldoc.Map, path string) {
	s.Retries, s.Harness = 1, DefaultHarness
	if v := sm.Get("harness"); v != nil {
		if h, ok := r.OptString(v, yamldoc.Key(path, "harness")); ok {
			s.Harness = h
		}
	}
	if v := sm.Get("skills"); v != nil {
		s.Skills = r.Strings(v, yamldoc.Key(path, "skills"), false)
	}
	if v := sm.Get("context"); v != nil {
		context, pos, _ := stringItems(r, v, yamldoc.Key(path, "context"))
		for _, c := range context {
			s.Context = append(s.Context, strings.TrimSpace(c))
		}
		s.contextPos = pos
	}
	if v := sm.Get("scope"); v != nil {
		items, _ := r.Seq(v, yamldoc.Key(path, "scope"), false)
		for i, it := range items {
			rule, sound := decodeScopeRule(r, it, yamldoc.Index(yamldoc.Key(path, "scope"), i))
			s.Scope = append(s.Scope, rule)
			if !sound {
				if s.shaky.scope == nil {
					s.shaky.scope = map[int]bool{}
				}
				s.shaky.scope[i] = true
			}
		}
	}
}

// stringItems decodes n as a list of strings, as Reader.Strings does, and
// also returns each decoded string's position and whether every item
// decoded (false when n is not a list or an item is not a string).
func stringItems(r *yamldoc.Reader, n *yaml.Node, path string) ([]string, []diag.Pos, bool) {
	items, sound := r.Seq(n, path, false)
	out := make([]string, 0, len(items))
	pos := make([]diag.Pos, 0, len(items))
	for i, it := range items {
		s, ok := r.String(it, yamldoc.Index(path, i))
		if !ok {
			sound = false
			continue
		}
		out = append(out, s)
		pos = append(pos, yamldoc.PosOf(it))
	}
	return out, pos, sound
}

var writeScopes = []string{string(WriteAllowed), string(WriteDenied), string(WritePartialOnly)}

// decodeScopeRule reads one scope rule; sound is false when its `paths`
// did not decode (the rule is not a mapping, `paths` is missing, not a
// list, or holds an item that is not a string).
func decodeScopeRule(r *yamldoc.Reader, n *yaml.Node, path string) (rule ScopeRule, sound bool) {
	sm := r.Map(n, path, false)
	if v := sm.Require("paths"); v != nil {
		var paths []string
		paths, _, sound = stringItems(r, v, yamldoc.Key(path, "paths"))
		for _, p := range paths {
			rule.Paths = append(rule.Paths, strings.TrimSpace(p))
		}
	}
	if v := sm.Require("write"); v != nil {
		if w, ok := r.String(v, yamldoc.Key(path, "write")); ok {
			if !slices.Contains(writeScopes, w) {
				r.Invalid(v, yamldoc.Key(path, "write"), "`write` must be one of %s, found `%s`", strings.Join(writeScopes, ", "), w)
			}
			rule.Write = WriteScope(w)
		}
	}
	sm.Done()
	return rule, sound
}

func (s *Step) decodeCommand(r *yamldoc.Reader, sm *yamldoc.Map, path string) {
	s.Retries = DefaultCommandRetries
	if v := sm.Get("retries"); !yamldoc.IsNull(v) {
		if n, ok := r.Uint32(v, yamldoc.Key(path, "retries"), 0); ok {
			s.Retries = n
		}
	}
	if v := sm.Get("depends_on"); v != nil {
		if d, ok := r.OptString(v, yamldoc.Key(path, "depends_on")); ok {
			s.DependsOn = &d
		} else {
			s.shaky.dependsOn = !yamldoc.IsNull(v)
		}
	}
	if v := sm.Get("circuit_breaker"); !yamldoc.IsNull(v) {
		if n, ok := r.Uint32(v, yamldoc.Key(path, "circuit_breaker"), 0); ok {
			s.CircuitBreaker = &n
		}
	}
	if v := sm.Get("evidence"); !yamldoc.IsNull(v) {
		s.Evidence = decodeEvidence(r, v, yamldoc.Key(path, "evidence"))
	}
}

func decodeEvidence(r *yamldoc.Reader, n *yaml.Node, path string) *Evidence {
	e := &Evidence{nodes: nodes{"": n}}
	em := r.Map(n, path, false)
	str := func(key string, req bool) (string, *yaml.Node, bool) {
		var v *yaml.Node
		if req {
			v = em.Require(key)
		} else {
			v = em.Get(key)
		}
		if v == nil {
			return "", nil, false
		}
		e.nodes[key] = v
		s, ok := r.OptString(v, yamldoc.Key(path, key))
		return s, v, ok
	}
	// shaky says whether key is present but did not decode.
	shaky := func(key string, ok bool) bool { return !ok && !yamldoc.IsNull(e.nodes[key]) }
	e.shaky.kind, e.shaky.verifier = true, true
	if k, v, ok := str("kind", true); ok {
		c, known := vocab.CanonicalKind(k)
		if !known {
			r.Invalid(v, yamldoc.Key(path, "kind"), "`kind` must be an evidence kind (%s), found `%s`", strings.Join(vocab.EvidenceKinds, ", "), k)
		}
		e.Kind, e.shaky.kind = c, !known
	}
	if vf, v, ok := str("verifier", true); ok {
		valid := vocab.ValidVerifier(vf)
		if !valid {
			r.Invalid(v, yamldoc.Key(path, "verifier"), "`verifier` must be a named verifier or a dotted tool name, found `%s`", vf)
		}
		e.Verifier, e.shaky.verifier = vf, !valid
	}
	if su, v, ok := str("suite", false); ok {
		c, valid := vocab.CanonicalSuite(su)
		if !valid {
			r.Invalid(v, yamldoc.Key(path, "suite"), "`suite` must be a kebab-case suite name or `end_to_end`, found `%s`", su)
		}
		e.Suite, e.shaky.suite = c, !valid
	} else {
		e.shaky.suite = shaky("suite", ok)
	}
	if sj, v, ok := str("subject", false); ok {
		if !ident.ValidSubject(sj) {
			r.Invalid(v, yamldoc.Key(path, "subject"), "`subject` must be a subject reference `<kind>:<id>`, found `%s`", sj)
		}
		e.Subject = sj
	}
	if t, v, ok := str("tool", false); ok {
		if err := ident.Check(ident.Dotted, t); err != nil {
			r.Report(v, yamldoc.Key(path, "tool"), diag.Errorf(CodeInvalidIdentifier, "the tool id `%s` is invalid: %v", t, err))
		}
		e.Tool = t
	}
	if rec, _, ok := str("record", false); ok {
		e.Record = &rec
	} else {
		e.shaky.record = shaky("record", ok)
	}
	em.Done()
	e.shaky.suite = e.shaky.suite || (e.Suite == "" && em.Misspelt("suite"))
	e.shaky.record = e.shaky.record || (e.Record == nil && em.Misspelt("record"))
	return e
}

// describe is a helper for messages naming a step.
func describe(kind StepKind) string { return fmt.Sprintf("`%s` step", kind) }
