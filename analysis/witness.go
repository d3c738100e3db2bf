package analysis

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/engine/evidence"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/reqtext"
	"github.com/aepflow/aepflow/vocab"
	"github.com/aepflow/aepflow/workflow"
)

// Witness is a concrete set of sources under which a claim of possibility
// holds (§4.8): plan facts, artifacts and evidence records, shaped as a
// scenario document (§10.3) so that it can be saved and replayed.
type Witness struct {
	Format    string           `json:"format"`
	Facts     map[string]any   `json:"facts,omitempty"`
	Artifacts []map[string]any `json:"artifacts,omitempty"`
	Evidence  []map[string]any `json:"evidence,omitempty"`
	// Values are the chosen path values, `path = value`, in path order,
	// for messages.
	Values []string `json:"-"`
}

// maxSynthesised bounds the records or artifacts one path of a witness
// may ask for; beyond it synthesis fails (§4.8 step 4 allows it) and the
// check is reported undecided.
const maxSynthesised = 64

// instance is one evidence record being synthesised.
type instance struct {
	kind   string
	fields map[string]any
}

// synth gathers the sources of one witness.
type synth struct {
	facts     []engine.Fact
	artifacts []artifact.Artifact
	records   []*instance
	byKey     map[string]*instance
	ok        bool
}

// witness synthesises the sources of conjunct c (§4.8 steps 1–2); ok is
// false when synthesis fails.
func (a *analyzer) witness(c conj) (*synth, *Witness, bool) {
	s := &synth{byKey: map[string]*instance{}, ok: true}
	w := &Witness{Format: ScenarioFormat}
	atoms := slices.Clone(c)
	slices.SortFunc(atoms, func(x, y atom) int { return strings.Compare(a.paths[x.path].name, a.paths[y.path].name) })
	var counts []atom
	for _, at := range atoms {
		info := a.paths[at.path]
		if info.synthetic || at.set.bot {
			continue
		}
		v, ok := pick(at.set, info.dom)
		if !ok {
			return nil, nil, false
		}
		if !contextPath(info.name) {
			w.Values = append(w.Values, info.name+" = "+v.String())
		}
		if strings.HasPrefix(info.name, "evidence.count.") {
			counts = append(counts, at)
			continue
		}
		a.source(s, info, v)
		if !s.ok {
			return nil, nil, false
		}
	}
	for _, at := range counts {
		info := a.paths[at.path]
		v, _ := pick(at.set, info.dom)
		kind := strings.TrimPrefix(info.name, "evidence.count.")
		have := 0
		for _, r := range s.records {
			if r.kind == kind {
				have++
			}
		}
		if v.Number() > maxSynthesised {
			return nil, nil, false // too many records to be a witness worth building
		}
		for n := have; n < int(v.Number()); n++ {
			s.records = append(s.records, a.newInstance(kind))
		}
	}
	if len(s.facts) > 0 {
		w.Facts = map[string]any{}
		for _, f := range s.facts {
			w.Facts[f.Path] = valueAny(f.Value)
		}
	}
	for _, art := range s.artifacts {
		w.Artifacts = append(w.Artifacts, map[string]any{"id": art.ID, "kind": art.Kind, "status": art.Status})
	}
	date := a.opts.Now.UTC().Format("2006-01-02")
	for _, r := range s.records {
		e := map[string]any{"kind": r.kind, "observed_at": date, "producer": producerFor(r.kind)}
		for k, v := range r.fields {
			e[k] = v
		}
		w.Evidence = append(w.Evidence, e)
	}
	return s, w, true
}

func valueAny(v predicate.Value) any {
	switch v.Kind() {
	case predicate.KindBool:
		return v.Bool()
	case predicate.KindNumber:
		return v.Number()
	}
	return v.Text()
}

// producerFor is the kind's first default verifier (D§8.2).
func producerFor(kind string) map[string]any {
	vs := vocab.DefaultVerifiers(kind)
	if len(vs) == 0 {
		return map[string]any{"producer": "tool", "tool": "aepflow-analyze"}
	}
	return map[string]any{"producer": "verifier", "verifier": vs[0]}
}

// pick chooses the value of a path whose set excludes ⊥ (§4.8 step 1).
func pick(set VSet, dom Domain) (predicate.Value, bool) {
	switch {
	case set.bools&bitTrue != 0:
		return predicate.Bool(true), true
	case set.bools&bitFalse != 0:
		return predicate.Bool(false), true
	case len(set.nums) > 0:
		return predicate.Number(pickNumber(set.nums)), true
	case !set.texts.co && len(set.texts.items) > 0:
		return predicate.Text(set.texts.items[0]), true
	case set.texts.co:
		for i := 0; ; i++ {
			x := "x"
			if i > 0 {
				x += strconv.Itoa(i)
			}
			if set.texts.has(x) {
				return predicate.Text(x), true
			}
		}
	}
	return predicate.Value{}, false
}

// pickNumber returns the least integer of the set, else the midpoint of its
// first bounded interval, else its first interval's finite end ± 1.
func pickNumber(ns numSet) float64 {
	for _, iv := range ns {
		if math.IsInf(iv.lo, -1) {
			continue
		}
		n := math.Ceil(iv.lo)
		if iv.loOpen && n == iv.lo {
			n++
		}
		if iv.contains(n) {
			return n
		}
	}
	for _, iv := range ns {
		if !math.IsInf(iv.lo, -1) && !math.IsInf(iv.hi, 1) {
			return (iv.lo + iv.hi) / 2
		}
	}
	iv := ns[0]
	switch {
	case math.IsInf(iv.lo, -1) && math.IsInf(iv.hi, 1):
		return 0
	case math.IsInf(iv.lo, -1):
		return iv.hi - 1
	}
	return iv.lo + 1
}

// newInstance returns a fresh record of kind with the fields its payload
// requires.
func (a *analyzer) newInstance(kind string) *instance {
	r := &instance{kind: kind, fields: map[string]any{}}
	switch kind {
	case "test_result":
		r.fields["suite"] = "unit"
	case "property_test_result":
		r.fields["property"] = "x"
		r.fields["status"] = "passed"
	case "verification":
		r.fields["claim"] = "x"
		r.fields["verifier"] = "policy-engine"
		r.fields["status"] = "passed"
	case "specification":
		r.fields["satisfied"] = true
	case "review":
		r.fields["subject"] = "x"
		r.fields["reviewer"] = map[string]any{"reviewer": "human", "id": "x"}
		r.fields["disposition"] = "approved"
	case "approval":
		r.fields["approval"] = "x"
		r.fields["approver"] = map[string]any{"approver": "human", "id": "x"}
		r.fields["decision"] = "granted"
	case "artifact":
		r.fields["artifact"] = "x"
		r.fields["artifact_kind"] = "x"
		r.fields["observation"] = "x"
	}
	return r
}

// instanceFor returns the record of one family instance, creating it.
func (a *analyzer) instanceFor(s *synth, kind, key string, init func(*instance)) *instance {
	k := kind + "\x00" + key
	if r := s.byKey[k]; r != nil {
		return r
	}
	r := a.newInstance(kind)
	if init != nil {
		init(r)
	}
	s.byKey[k] = r
	s.records = append(s.records, r)
	return r
}

// source adds what makes path info project value v (§4.8 step 2).
func (a *analyzer) source(s *synth, info *pathInfo, v predicate.Value) {
	if info.planOnly() {
		s.facts = append(s.facts, engine.Fact{Path: info.name, Value: v})
		return
	}
	var m *rowMatch
	for i := range info.matches {
		if info.matches[i].row.dom.Set.Contains(v) || info.matches[i].row.src == srcDerived && info.matches[i].row.pat[0] == "state" {
			m = &info.matches[i]
			break
		}
	}
	if m == nil {
		if a.profileFacts[info.name] {
			s.facts = append(s.facts, engine.Fact{Path: info.name, Value: v})
			return
		}
		s.ok = false
		return
	}
	switch m.row.src {
	case srcPlan:
		if strings.HasPrefix(info.name, "task.") && m.row.always {
			s.ok = false // the task's own fields cannot be chosen
			return
		}
		s.facts = append(s.facts, engine.Fact{Path: info.name, Value: v})
	case srcGraph:
		a.graphSource(s, info.name, m, v)
	case srcEvidence:
		a.evidenceSource(s, info.name, m, v)
	case srcDerived:
		// Context paths come from entering the state; the engine computes
		// the others from the sources, and confirmation decides.
	}
}

// graphSource adds artifacts so that a graph path takes value v.
func (a *analyzer) graphSource(s *synth, path string, m *rowMatch, v predicate.Value) {
	kind := m.cap.kind
	last := m.row.pat[len(m.row.pat)-1]
	status := "draft"
	n := 1
	switch {
	case last == "total":
		return
	case last == "approved":
		if v.Bool() {
			status = "approved"
		}
	case last == "count" && len(m.row.pat) == 4 && m.row.pat[2] == "approved":
		status, n = "approved", int(v.Number())
	case last == "count" && len(m.row.pat) == 4:
		status, n = strings.Split(path, ".")[2], int(v.Number())
	case last == "count":
		n = int(v.Number())
	}
	if n > maxSynthesised {
		s.ok = false
		return
	}
	have := 0
	for _, art := range s.artifacts {
		if art.Kind == kind {
			have++
		}
	}
	for i := have; i < n; i++ {
		s.artifacts = append(s.artifacts, artifact.Artifact{ID: kind + ":w-" + strconv.Itoa(len(s.artifacts)+1), Kind: kind, Status: status})
	}
}

// evidenceSource sets a record's payload so that path projects v.
func (a *analyzer) evidenceSource(s *synth, path string, m *rowMatch, v predicate.Value) {
	last := m.row.pat[len(m.row.pat)-1]
	num := func() float64 { return v.Number() }
	switch m.row.kind {
	case "test_result":
		suite := m.cap.suite
		if suite == "" {
			suite = "unit"
		}
		r := a.instanceFor(s, "test_result", suite, func(r *instance) { r.fields["suite"] = suite })
		switch last {
		case "passed", "failed", "skipped":
			r.fields[last] = num()
		case "total":
			setIfAbsent(r, "passed", num())
		case "result":
			switch v.Text() {
			case "passed":
				setIfAbsent(r, "passed", 1.0)
				setIfAbsent(r, "failed", 0.0)
			case "failed":
				setIfAbsent(r, "failed", 1.0)
			}
		}
	case "static_analysis":
		r := a.instanceFor(s, "static_analysis", "", nil)
		switch last {
		case "errors", "warnings":
			r.fields[last] = num()
		case "result":
			if v.Text() == "failed" {
				setIfAbsent(r, "errors", 1.0)
			}
		}
	case "contract_result":
		r := a.instanceFor(s, "contract_result", "", nil)
		switch {
		case last == "result" && v.Text() == "failed":
			setIfAbsent(r, "failed", 1.0)
		case last == "checked" || last == "breaking_changes":
			r.fields[last] = num()
		case last == "failed":
			r.fields["failed"] = num()
		}
	case "diff":
		r := a.instanceFor(s, "diff", "", nil)
		if last != "exists" {
			r.fields[last] = num()
		}
	case "verification":
		claim := m.cap.free
		r := a.instanceFor(s, "verification", claim, func(r *instance) { r.fields["claim"] = claim })
		switch {
		case last == "status":
			r.fields["status"] = v.Text()
		case !v.Bool():
			r.fields["status"] = "failed"
		}
	case "property_test_result":
		prop := m.cap.free
		r := a.instanceFor(s, "property_test_result", prop, func(r *instance) { r.fields["property"] = prop })
		switch last {
		case "result":
			r.fields["status"] = v.Text()
		case "passed":
			if !v.Bool() {
				r.fields["status"] = "failed"
			}
		case "cases":
			r.fields["cases"] = num()
		case "seed":
			r.fields["seed"] = v.Text()
		case "exists":
			if m.row.pat[len(m.row.pat)-2] == "seed" && v.Bool() {
				setIfAbsent(r, "seed", "x")
			}
		}
	case "specification":
		r := a.instanceFor(s, "specification", "", nil)
		switch last {
		case "satisfied":
			r.fields["satisfied"] = v.Bool()
		case "count":
			r.fields["unsatisfied"] = make([]any, int(min(num(), maxSynthesised)))
		case "total":
			r.fields["requirements_total"] = num()
		}
		if strings.HasSuffix(path, "requirements.satisfied") {
			r.fields["requirements_satisfied"] = num()
		}
	case "review":
		kind := m.cap.kind
		r := a.instanceFor(s, "review", kind, func(r *instance) {
			if kind != "" {
				r.fields["subject_kind"] = kind
			}
		})
		switch last {
		case "result":
			r.fields["disposition"] = v.Text()
		case "approved":
			if !v.Bool() {
				r.fields["disposition"] = "changes_requested"
			}
		case "by_human":
			if !v.Bool() {
				r.fields["reviewer"] = map[string]any{"reviewer": "agent", "id": "x"}
			}
		case "blocking_findings":
			var fs []any
			for i := 0; i < int(min(num(), maxSynthesised)); i++ {
				// A finding has a severity and a summary (engine.md §6.3);
				// without them the engine refuses the witness's record.
				fs = append(fs, map[string]any{"blocking": true, "severity": "high", "summary": "x"})
			}
			r.fields["findings"] = fs
		}
	case "approval":
		id := m.cap.free
		r := a.instanceFor(s, "approval", id, func(r *instance) { r.fields["approval"] = id })
		switch last {
		case "granted":
			if !v.Bool() {
				r.fields["decision"] = "denied"
			}
		case "decision":
			r.fields["decision"] = v.Text()
		case "by_human":
			if !v.Bool() {
				r.fields["approver"] = map[string]any{"approver": "agent", "id": "x"}
			}
		}
	case "artifact":
		kind, obs := m.cap.kind, m.cap.free
		r := a.instanceFor(s, "artifact", kind+"."+obs, func(r *instance) {
			r.fields["artifact_kind"] = kind
			r.fields["observation"] = obs
			r.fields["artifact"] = kind + ":x"
		})
		r.fields["holds"] = v.Bool()
	default:
		s.ok = false
	}
}

func setIfAbsent(r *instance, k string, v any) {
	if _, ok := r.fields[k]; !ok {
		r.fields[k] = v
	}
}

// confirm builds the witness's execution as simulate does without a task,
// enters state s, and evaluates each predicate and conditional with the
// engine (§4.8 step 3): all must be True.
func (a *analyzer) confirm(s *synth, w *Witness, state *workflow.State, preds []predicate.Predicate, sets []*workflow.RequirementSet) bool {
	enter := readsState(preds, sets)
	key := ""
	if !enter {
		// The answer does not depend on the state: one confirmation per
		// witness and predicates.
		data, err := json.Marshal(w)
		if err != nil {
			return false
		}
		var b strings.Builder
		b.Write(data)
		for _, p := range preds {
			b.WriteString("\x00" + p.String())
		}
		for _, set := range sets {
			for _, l := range reqtext.Evaluation.Lines(*set) {
				b.WriteString("\x01" + l)
			}
		}
		key = b.String()
		if ok, seen := a.confirmed[key]; seen {
			return ok
		}
	}
	ok := a.confirmIn(s, w, state, enter, preds, sets)
	if !enter {
		a.confirmed[key] = ok
	}
	return ok
}

func (a *analyzer) confirmIn(s *synth, w *Witness, state *workflow.State, enter bool, preds []predicate.Predicate, sets []*workflow.RequirementSet) bool {
	var recs []evidence.Record
	if len(w.Evidence) > 0 {
		data, err := json.Marshal(w.Evidence)
		if err != nil {
			return false
		}
		rs, ok := a.recordCache[string(data)]
		if !ok {
			var ds diag.List
			rs, ds = evidence.ReadDocument("witness", data, a.opts.Now)
			if ds.HasErrors() {
				rs = nil
			}
			a.recordCache[string(data)] = rs
		}
		if rs == nil {
			return false
		}
		recs = rs
	}
	plan := a.bare().WithFacts(s.facts)
	var graph *artifact.Graph
	if len(s.artifacts) > 0 {
		graph = artifact.NewGraph(s.artifacts)
	}
	exec := engine.NewExecution(plan, graph, a.opts.Now)
	exec.Submit(recs...)
	if exec.State != state.ID && enter {
		// Entering a state changes only the facts of its context (§3.6);
		// a bare plan has no obligation that could count differently.
		exec.EnterState(state.ID)
	}
	facts := exec.Facts()
	for _, p := range preds {
		if predicate.Eval(p, facts, plan.Scales) != predicate.True {
			return false
		}
	}
	for _, set := range sets {
		for _, it := range exec.EvaluateSet(set, "witness") {
			if it.Truth != predicate.True {
				return false
			}
		}
	}
	return true
}

// bare returns the analysis's bare plan, built once.
func (a *analyzer) bare() *engine.Plan {
	if a.barePlan == nil {
		a.barePlan = engine.BarePlan(a.w, a.bareScales(), nil)
	}
	return a.barePlan
}

// bareScales returns the scales a run without a task orders text by: the
// first candidate's, none when there is none.
func (a *analyzer) bareScales() predicate.Scales {
	if len(a.scales) > 0 {
		return a.scales[0]
	}
	return nil
}

// predicatePartSet returns a set holding the predicate part of s (§6.6 P).
func predicatePartSet(s *workflow.RequirementSet) *workflow.RequirementSet {
	out := &workflow.RequirementSet{Predicates: s.Predicates}
	for _, c := range s.Conditional {
		if predicatesOnly(&c.Require) {
			out.Conditional = append(out.Conditional, c)
		}
	}
	return out
}

// contextPath reports whether a path is fixed by a source state's context
// (§3.6): witnesses get it by entering the state, messages leave it out.
func contextPath(p string) bool {
	return p == "state.current" || p == "workflow.terminal" || strings.HasPrefix(p, "state.") && strings.HasSuffix(p, ".entered")
}

// readsState reports whether any predicate or set reads a fact that
// entering a state changes: `state.*` or `workflow.terminal`.
func readsState(preds []predicate.Predicate, sets []*workflow.RequirementSet) bool {
	var paths []string
	for _, p := range preds {
		paths = append(paths, predicate.FactPaths(p)...)
	}
	for _, s := range sets {
		paths = append(paths, s.FactPaths()...)
	}
	for _, p := range paths {
		if strings.HasPrefix(p, "state.") || p == "workflow.terminal" {
			return true
		}
	}
	return false
}
