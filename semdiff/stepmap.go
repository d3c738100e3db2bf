package semdiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepflow/aepflow/stepmap"
)

// StepMapChange is the change set of a step map.
type StepMapChange struct {
	ID    string       `json:"id"`
	Kind  Kind         `json:"kind"`
	Files Pair[string] `json:"files"`
	// Pin is set when the pinned workflow reference changed (compared as
	// id and major: a `workflow:` prefix is spelling).
	Pin *Pair[string] `json:"pin"`
	// Fields lists the changed top-level fields: id (two files only),
	// title.
	Fields []Field         `json:"fields"`
	States MapStateChanges `json:"states"`
}

// MapStateChanges lists the map's states added, removed and changed, in id
// order.
type MapStateChanges struct {
	Added   []MapStateInfo   `json:"added"`
	Removed []MapStateInfo   `json:"removed"`
	Changed []MapStateChange `json:"changed"`
}

// MapStateInfo describes a map state added or removed.
type MapStateInfo struct {
	ID          string     `json:"id"`
	VisitBudget uint32     `json:"visit_budget"`
	Steps       []StepInfo `json:"steps"`
}

// MapStateChange is a map state present in both versions that changed.
type MapStateChange struct {
	ID string `json:"id"`
	// Fields lists the changed state fields: visit_budget.
	Fields []Field     `json:"fields"`
	Steps  StepChanges `json:"steps"`
}

// StepChanges lists a state's steps added, removed and changed. Steps have
// no id: a step is known by its kind, its label (description, else argv,
// else prompt) and which occurrence of that pair it is. Reordered is set
// when the steps both versions hold run in another order.
type StepChanges struct {
	Added     []StepInfo      `json:"added"`
	Removed   []StepInfo      `json:"removed"`
	Changed   []StepChange    `json:"changed"`
	Reordered *Pair[[]string] `json:"reordered"`
}

// StepInfo names a step and its place, from 1, in its state's run order.
type StepInfo struct {
	Kind     string `json:"kind"`
	Label    string `json:"label"`
	Position int    `json:"position"`
}

// StepChange is a step present in both versions whose fields changed.
type StepChange struct {
	Kind   string  `json:"kind"`
	Label  string  `json:"label"`
	Fields []Field `json:"fields"`
}

// DocID returns the step map id.
func (c *StepMapChange) DocID() string { return c.ID }

// DocKind returns KindStepMap.
func (c *StepMapChange) DocKind() Kind { return KindStepMap }

// Changed reports whether anything changed.
func (c *StepMapChange) Changed() bool {
	return c.Pin != nil || len(c.Fields) > 0 || len(c.States.Added)+len(c.States.Removed)+len(c.States.Changed) > 0
}

// Summary counts what changed: "pin, 2 states".
func (c *StepMapChange) Summary() string {
	var parts []string
	if c.Pin != nil {
		parts = append(parts, fmt.Sprintf("pin %s → %s", c.Pin.Old, c.Pin.New))
	}
	if n := len(c.States.Added) + len(c.States.Removed) + len(c.States.Changed); n > 0 {
		parts = append(parts, count(n, "state"))
	}
	if len(c.Fields) > 0 {
		parts = append(parts, count(len(c.Fields), "field"))
	}
	return joinOr(parts, "no change")
}

// StepMaps compares two validated step maps.
func StepMaps(old, new *stepmap.Map) *StepMapChange {
	c := &StepMapChange{ID: new.ID, Kind: KindStepMap, Files: Pair[string]{old.File, new.File}}
	if old.Workflow != new.Workflow {
		c.Pin = &Pair[string]{old.Workflow.String(), new.Workflow.String()}
	}
	c.Fields = nonNil(slices.Concat(
		field("id", false, old.ID, new.ID, textKey, itself[string]),
		field("title", false, old.Title, new.Title, optTextKey, optText),
	))
	for _, id := range unionKeys(old.StateIDs(), new.StateIDs()) {
		o, n := old.States[id], new.States[id]
		switch {
		case o == nil:
			c.States.Added = append(c.States.Added, mapStateInfo(id, n))
		case n == nil:
			c.States.Removed = append(c.States.Removed, mapStateInfo(id, o))
		default:
			if ch, ok := mapStateChange(id, o, n); ok {
				c.States.Changed = append(c.States.Changed, ch)
			}
		}
	}
	c.States = MapStateChanges{nonNil(c.States.Added), nonNil(c.States.Removed), nonNil(c.States.Changed)}
	return c
}

func mapStateInfo(id string, s *stepmap.StateSteps) MapStateInfo {
	info := MapStateInfo{ID: id, VisitBudget: s.VisitBudget, Steps: []StepInfo{}}
	for i, st := range s.Steps {
		info.Steps = append(info.Steps, StepInfo{Kind: string(st.Kind), Label: st.Label(), Position: i + 1})
	}
	return info
}

// stepKey knows a step by kind, label and occurrence.
type stepKey struct {
	kind, label string
	occurrence  int
}

// keySteps returns the steps' keys in run order.
func keySteps(steps []*stepmap.Step) ([]stepKey, map[stepKey]int) {
	keys := make([]stepKey, len(steps))
	index := map[stepKey]int{}
	seen := map[[2]string]int{}
	for i, st := range steps {
		pair := [2]string{string(st.Kind), st.Label()}
		seen[pair]++
		keys[i] = stepKey{pair[0], pair[1], seen[pair]}
		index[keys[i]] = i
	}
	return keys, index
}

func mapStateChange(id string, o, n *stepmap.StateSteps) (MapStateChange, bool) {
	ch := MapStateChange{ID: id, Fields: nonNil(field("visit_budget", true, o.VisitBudget, n.VisitBudget,
		func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }, itself[uint32]))}
	ok, oi := keySteps(o.Steps)
	nk, ni := keySteps(n.Steps)
	var commonOld, commonNew []string
	for _, k := range ok {
		if _, in := ni[k]; !in {
			ch.Steps.Removed = append(ch.Steps.Removed, StepInfo{k.kind, k.label, oi[k] + 1})
		} else {
			commonOld = append(commonOld, stepLabel(k))
		}
	}
	for _, k := range nk {
		i, in := oi[k]
		if !in {
			ch.Steps.Added = append(ch.Steps.Added, StepInfo{k.kind, k.label, ni[k] + 1})
			continue
		}
		commonNew = append(commonNew, stepLabel(k))
		if fields := stepFields(o.Steps[i], n.Steps[ni[k]]); len(fields) > 0 {
			ch.Steps.Changed = append(ch.Steps.Changed, StepChange{k.kind, k.label, fields})
		}
	}
	if !slices.Equal(commonOld, commonNew) {
		ch.Steps.Reordered = &Pair[[]string]{commonOld, commonNew}
	}
	s := ch.Steps
	changed := len(ch.Fields) > 0 || len(s.Added)+len(s.Removed)+len(s.Changed) > 0 || s.Reordered != nil
	ch.Steps = StepChanges{nonNil(s.Added), nonNil(s.Removed), nonNil(s.Changed), s.Reordered}
	return ch, changed
}

// stepLabel names a step in a reorder: `kind: label`, `#n` for a repeat.
func stepLabel(k stepKey) string {
	s := k.kind + ": " + k.label
	if k.occurrence > 1 {
		s += " #" + strconv.Itoa(k.occurrence)
	}
	return s
}

// stepFields lists the changed fields of a step, in the order of
// documents.md §8.1. The label fields (description, argv, prompt) can
// change only where the label comes from another field.
func stepFields(o, n *stepmap.Step) []Field {
	text := itself[string]
	list := func(s []string) any { return showList(s) }
	return slices.Concat(
		field("description", false, o.Description, n.Description, optTextKey, optText),
		field("prompt", true, o.Prompt, n.Prompt, textKey, text),
		field("context", true, o.Context, n.Context, listKey, list),
		field("scope", true, o.Scope, n.Scope, scopeKey, showScope),
		field("skills", true, o.Skills, n.Skills, setKey, list),
		field("harness", true, o.Harness, n.Harness, textKey, text),
		field("run", true, o.Run, n.Run, listKey, list),
		field("evidence", true, o.Evidence, n.Evidence, evidenceKey, showEvidence),
		field("retries", true, o.Retries, n.Retries, func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }, itself[uint32]),
		field("depends_on", true, o.DependsOn, n.DependsOn, optTextKey, optText),
		field("circuit_breaker", true, o.CircuitBreaker, n.CircuitBreaker, optUintKey, optUint),
	)
}

// scopeKey compares scope rules in order: the first match wins.
func scopeKey(rules []stepmap.ScopeRule) string {
	var b strings.Builder
	for _, r := range rules {
		fmt.Fprintf(&b, "(%s %q)", listKey(r.Paths), r.Write)
	}
	return b.String()
}

func showScope(rules []stepmap.ScopeRule) any { return nonNil(scopeLines(rules)) }

// scopeLines shows each rule as `paths=write`, the flow document's form.
func scopeLines(rules []stepmap.ScopeRule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = strings.Join(r.Paths, ",") + "=" + string(r.Write)
	}
	return out
}

func evidenceKey(e *stepmap.Evidence) string {
	if e == nil {
		return "none"
	}
	return fmt.Sprintf("%q %q %q %q %q %s", e.Kind, e.Verifier, e.Suite, e.Subject, e.Tool, optTextKey(e.Record))
}

// showEvidence shows a step's evidence on one line: `test_result from
// test-runner (suite unit)`, nil when there is none.
func showEvidence(e *stepmap.Evidence) any {
	if e == nil {
		return nil
	}
	s := e.Kind + " from " + e.Verifier
	for _, p := range []struct{ name, value string }{{"suite", e.Suite}, {"subject", e.Subject}, {"tool", e.Tool}, {"record", optTextKey(e.Record)}} {
		if p.value != "" && p.value != "\x00absent" {
			s += " (" + p.name + " " + p.value + ")"
		}
	}
	return s
}

func optUintKey(v *uint32) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatUint(uint64(*v), 10)
}

func optUint(v *uint32) any {
	if v == nil {
		return nil
	}
	return *v
}
