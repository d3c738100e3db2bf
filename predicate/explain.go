package predicate

import "strings"

// Outcome is a predicate's evaluation with its causes (engine.md §3.4):
// Expression is the display of the predicate, Truth its value, and Causes
// the leaves that kept it from being True.
type Outcome struct {
	Expression string
	Truth      Truth
	Causes     []Cause
}

// Observation is one observed fact a cause read: its path and value.
type Observation struct {
	Path  string
	Value Value
}

// Cause is one leaf that kept a predicate from being True (or, under an odd
// number of negations, from being False). Expression is the leaf's display,
// without the `not` of an enclosing negation (Negated says there was one);
// Observed and Missing list the leaf's facts, left operand first; Note
// explains an Unknown or a `never` that the facts alone do not.
type Cause struct {
	Expression string
	Truth      Truth
	Negated    bool
	Note       string
	Observed   []Observation
	Missing    []string
}

// Detail returns the detail the engine prints after a cause (engine.md
// §4.2): `p = v` for each observed fact joined by ", ", then
// "unobserved: p1, p2", then the note, all parts joined by "; "; with no
// parts, the truth ("false" or "unknown").
func (c Cause) Detail() string {
	var parts []string
	if len(c.Observed) > 0 {
		obs := make([]string, len(c.Observed))
		for i, o := range c.Observed {
			obs[i] = o.Path + " = " + o.Value.String()
		}
		parts = append(parts, strings.Join(obs, ", "))
	}
	if len(c.Missing) > 0 {
		parts = append(parts, "unobserved: "+strings.Join(c.Missing, ", "))
	}
	if c.Note != "" {
		parts = append(parts, c.Note)
	}
	if len(parts) == 0 {
		return c.Truth.String()
	}
	return strings.Join(parts, "; ")
}

// NeverNote is the note of the cause a `never` gives: it can only be
// read as the move being switched off.
const NeverNote = "the move is disabled"

// Explain evaluates p like Eval and collects its causes with the walk of
// engine.md §3.4: a conjunction names only its failing children, a
// disjunction all of them, and a negation flips what failing means.
func Explain(p Predicate, facts Facts, scales Scales) Outcome {
	if facts == nil {
		facts = noFacts{}
	}
	w := walker{facts: facts, scales: scales}
	t := w.walk(p, false)
	return Outcome{Expression: str(p), Truth: t, Causes: w.causes}
}

type walker struct {
	facts  Facts
	scales Scales
	causes []Cause
}

// ok reports whether t is what the walk wants: True, or False when negated.
func ok(t Truth, neg bool) bool {
	if neg {
		return t == False
	}
	return t == True
}

func (w *walker) walk(p Predicate, neg bool) Truth {
	switch p := p.(type) {
	case All:
		return w.fold(p.Items, true, neg)
	case Any:
		return w.fold(p.Items, false, neg)
	case Not:
		return w.walk(p.X, !neg).Not()
	case Always:
		if neg {
			// `always` under a negation is what keeps it from False.
			w.causes = append(w.causes, Cause{Expression: "always", Truth: True, Negated: true})
		}
		return True
	case Never:
		if !neg {
			w.causes = append(w.causes, Cause{Expression: "never", Truth: False, Note: NeverNote})
		}
		return False
	}
	t, note := evalLeaf(p, w.facts, w.scales)
	if !ok(t, neg) {
		c := Cause{Expression: str(p), Truth: t, Negated: neg, Note: note}
		for _, path := range leafPaths(p) {
			if v, found := w.facts.Lookup(path); found {
				c.Observed = append(c.Observed, Observation{Path: path, Value: v})
			} else {
				c.Missing = append(c.Missing, path)
			}
		}
		w.causes = append(w.causes, c)
	}
	return t
}

// fold evaluates a conjunction (all) or disjunction and walks the children
// that explain a result that is not ok: when the node acts as a conjunction
// (all, or any under negation) only the children that are not ok.
func (w *walker) fold(items []Predicate, all, neg bool) Truth {
	truths := make([]Truth, len(items))
	t := TruthOf(all)
	for i, it := range items {
		truths[i] = eval(it, w.facts, w.scales)
		if all {
			t = t.And(truths[i])
		} else {
			t = t.Or(truths[i])
		}
	}
	if ok(t, neg) {
		return t
	}
	for i, it := range items {
		if all != neg && ok(truths[i], neg) {
			continue
		}
		w.walk(it, neg)
	}
	return t
}

// leafPaths lists the fact paths a leaf reads, left operand first.
func leafPaths(p Predicate) []string {
	switch p := p.(type) {
	case Truthy:
		return []string{p.Path}
	case Defined:
		return []string{p.Path}
	case In:
		return []string{p.Path}
	case Compare:
		var paths []string
		for _, o := range []Operand{p.Left, p.Right} {
			if o.IsFact() {
				paths = append(paths, o.Path)
			}
		}
		return paths
	}
	return nil
}
