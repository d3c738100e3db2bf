package predicate

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Truth is a three-valued (Kleene) truth value. The zero Truth is False.
type Truth int

const (
	// False is definitely false.
	False Truth = iota
	// True is definitely true; only True satisfies a guard.
	True
	// Unknown is neither: some fact the answer needs is unobserved or
	// cannot be ordered.
	Unknown
)

// String returns "false", "true" or "unknown".
func (t Truth) String() string {
	switch t {
	case True:
		return "true"
	case Unknown:
		return "unknown"
	default:
		return "false"
	}
}

// TruthOf returns True for true and False for false.
func TruthOf(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Not returns the Kleene negation: Unknown stays Unknown.
func (t Truth) Not() Truth {
	switch t {
	case True:
		return False
	case False:
		return True
	}
	return Unknown
}

// And returns the Kleene conjunction: False dominates, then Unknown.
func (t Truth) And(u Truth) Truth {
	switch {
	case t == False || u == False:
		return False
	case t == Unknown || u == Unknown:
		return Unknown
	}
	return True
}

// Or returns the Kleene disjunction: True dominates, then Unknown.
func (t Truth) Or(u Truth) Truth {
	switch {
	case t == True || u == True:
		return True
	case t == Unknown || u == Unknown:
		return Unknown
	}
	return False
}

// Facts is a read-only fact store. Lookup returns the value bound at path
// and whether the path is observed; an absent path is unobserved, never
// False or 0.
type Facts interface {
	Lookup(path string) (Value, bool)
}

// MapFacts is a Facts backed by a map, handy for tests and small stores.
type MapFacts map[string]Value

// Lookup returns m[path].
func (m MapFacts) Lookup(path string) (Value, bool) {
	v, ok := m[path]
	return v, ok
}

// noFacts is the store used when Eval is handed a nil Facts.
type noFacts struct{}

// Lookup observes nothing.
func (noFacts) Lookup(string) (Value, bool) { return Value{}, false }

// Scales are the protocol's ordered text lists (engine.md §2.3), by scale
// name, lowest first: {"risk": {"low", "medium", "high", "critical"}}.
// Names are not tied to fact paths.
type Scales map[string][]string

// Order compares two texts on the scales: every scale holding both is
// consulted, and they must agree. It returns the sign of a − b and true, or
// false with a note when no scale holds both or two scales disagree.
func (s Scales) Order(a, b string) (int, bool, string) {
	found, sign, disagree := false, 0, false
	for _, values := range s {
		d, ok := scaleOrder(values, a, b)
		if !ok {
			continue
		}
		if found && d != sign {
			disagree = true
			break
		}
		found, sign = true, d
	}
	switch {
	case !found:
		return 0, false, fmt.Sprintf("no scale holds both %s and %s", a, b)
	case disagree:
		return 0, false, s.disagreement(a, b)
	}
	return sign, true, ""
}

// disagreement names the first two scales, in name order, that order a and
// b differently; map order must not leak into the note.
func (s Scales) disagreement(a, b string) string {
	names := slices.Sorted(maps.Keys(s))
	first, sign := "", 0
	for _, name := range names {
		d, ok := scaleOrder(s[name], a, b)
		switch {
		case !ok:
		case first == "":
			first, sign = name, d
		case d != sign:
			return fmt.Sprintf("scales `%s` and `%s` disagree on %s and %s", first, name, a, b)
		}
	}
	return ""
}

// scaleOrder returns the sign of a − b on one scale, if it holds both.
func scaleOrder(values []string, a, b string) (int, bool) {
	i, j := slices.Index(values, a), slices.Index(values, b)
	if i < 0 || j < 0 {
		return 0, false
	}
	return cmpInt(i, j), true
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Eval evaluates p against facts in Kleene logic (engine.md §3.1). A nil
// facts is an empty store; nil scales order nothing. A nil predicate (or a
// nil member of a hand-built one) is Unknown.
func Eval(p Predicate, facts Facts, scales Scales) Truth {
	if facts == nil {
		facts = noFacts{}
	}
	return eval(p, facts, scales)
}

func eval(p Predicate, facts Facts, scales Scales) Truth {
	switch p := p.(type) {
	case Always:
		return True
	case Never:
		return False
	case All:
		t := True
		for _, it := range p.Items {
			if t = t.And(eval(it, facts, scales)); t == False {
				return False
			}
		}
		return t
	case Any:
		t := False
		for _, it := range p.Items {
			if t = t.Or(eval(it, facts, scales)); t == True {
				return True
			}
		}
		return t
	case Not:
		return eval(p.X, facts, scales).Not()
	}
	t, _ := evalLeaf(p, facts, scales)
	return t
}

// evalLeaf evaluates a leaf and returns the note that explains an Unknown
// that observation alone does not explain.
func evalLeaf(p Predicate, facts Facts, scales Scales) (Truth, string) {
	switch p := p.(type) {
	case Truthy:
		v, ok := facts.Lookup(p.Path)
		if !ok {
			return Unknown, ""
		}
		return TruthOf(v.Truthy()), ""
	case Defined:
		_, ok := facts.Lookup(p.Path)
		return TruthOf(ok), ""
	case In:
		v, ok := facts.Lookup(p.Path)
		if !ok {
			return Unknown, ""
		}
		member := slices.ContainsFunc(p.Values, v.Equal)
		return TruthOf(member != p.Negated), ""
	case Compare:
		return evalCompare(p, facts, scales)
	}
	return Unknown, ""
}

// operand resolves o against facts; ok is false when a fact is unobserved.
func operand(o Operand, facts Facts) (Value, bool) {
	if o.IsFact() {
		return facts.Lookup(o.Path)
	}
	return o.Value, true
}

func evalCompare(p Compare, facts Facts, scales Scales) (Truth, string) {
	l, lok := operand(p.Left, facts)
	r, rok := operand(p.Right, facts)
	if !lok || !rok {
		return Unknown, ""
	}
	switch p.Op {
	case Eq:
		return TruthOf(l.Equal(r)), ""
	case Ne:
		return TruthOf(!l.Equal(r)), ""
	case Lt, Le, Gt, Ge:
	default:
		return Unknown, fmt.Sprintf("unknown operator %q", string(p.Op))
	}
	sign, ok, note := order(l, r, scales)
	if !ok {
		return Unknown, fmt.Sprintf("cannot order with `%s`: %s", p.Op, note)
	}
	switch p.Op {
	case Lt:
		return TruthOf(sign < 0), ""
	case Le:
		return TruthOf(sign <= 0), ""
	case Gt:
		return TruthOf(sign > 0), ""
	}
	return TruthOf(sign >= 0), ""
}

// order compares two values for an ordering operator: numbers numerically,
// texts on the scales, anything else not at all.
func order(l, r Value, scales Scales) (int, bool, string) {
	switch {
	case l.Kind() == KindNumber && r.Kind() == KindNumber:
		a, b := l.Number(), r.Number()
		if math.IsNaN(a) || math.IsNaN(b) {
			return 0, false, "a number is not a number"
		}
		switch {
		case a < b:
			return -1, true, ""
		case a > b:
			return 1, true, ""
		}
		return 0, true, ""
	case l.Kind() == KindText && r.Kind() == KindText:
		return scales.Order(l.Text(), r.Text())
	case l.Kind() == KindBool && r.Kind() == KindBool:
		return 0, false, "bools have no order"
	}
	return 0, false, fmt.Sprintf("a %s and a %s have no order", l.Kind(), r.Kind())
}
