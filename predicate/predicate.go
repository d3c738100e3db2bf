// Package predicate is the AEP predicate language (documents.md §5,
// engine.md §2.1–§3): it parses the structured YAML forms and the compact
// string form of a `when:` (or any other predicate), simplifies while
// parsing, displays predicates in the reference's exact text, and evaluates
// them in three-valued (Kleene) logic against a fact store, with the causes
// the engine prints as reasons.
//
// It is not a fact store and not a loader: facts arrive through the Facts
// interface, scales as a plain map, and YAML nodes from a strict loader
// elsewhere (this package still never panics on any node it is handed).
package predicate

import (
	"slices"
	"strings"
)

// MaxDepth is the deepest nesting a predicate may have: the outermost
// predicate is depth 0 and a node at depth MaxDepth+1 is refused with
// predicate_too_deep (documents.md §5.4).
const MaxDepth = 32

// Diagnostic codes reported by Parse and ParseCompact.
const (
	// CodeInvalid is reported for any malformed predicate.
	CodeInvalid = "invalid_predicate"
	// CodeTooDeep is reported for a node nested deeper than MaxDepth.
	CodeTooDeep = "predicate_too_deep"
)

// Predicate is an immutable, simplified predicate. The variants are Always,
// Never, All, Any, Not, Compare, Truthy, Defined and In; callers switch on
// the concrete type. Slices inside a Predicate must not be modified.
type Predicate interface {
	// String returns the display form (documents.md §5.6), which the engine
	// prints verbatim in reasons.
	String() string
	isPredicate()
}

// Always is the predicate that is always True (`true`, `always`).
type Always struct{}

// Never is the predicate that is always False (`false`, `never`).
type Never struct{}

// All is the conjunction of its Items (at least two after simplification).
type All struct{ Items []Predicate }

// Any is the disjunction of its Items (at least two after simplification).
type Any struct{ Items []Predicate }

// Not is the negation of X.
type Not struct{ X Predicate }

// Op is a comparison operator, spelt as it displays.
type Op string

// The comparison operators.
const (
	Eq Op = "=="
	Ne Op = "!="
	Lt Op = "<"
	Le Op = "<="
	Gt Op = ">"
	Ge Op = ">="
)

// Operand is one side of a Compare: a fact path when Path is not empty,
// otherwise the literal Value.
type Operand struct {
	Path  string
	Value Value
}

// Fact returns the operand that reads the fact at path.
func Fact(path string) Operand { return Operand{Path: path} }

// Lit returns the operand holding the literal v.
func Lit(v Value) Operand { return Operand{Value: v} }

// IsFact reports whether o reads a fact rather than holding a literal.
func (o Operand) IsFact() bool { return o.Path != "" }

// Compare compares Left and Right with Op. The parser always puts a fact on
// the left; the right is a fact or a literal.
type Compare struct {
	Left  Operand
	Op    Op
	Right Operand
}

// Truthy tests the truthiness of the fact at Path.
type Truthy struct{ Path string }

// Defined tests whether the fact at Path is observed.
type Defined struct{ Path string }

// In tests whether the fact at Path is one of Values (type-strict), or,
// when Negated, none of them.
type In struct {
	Path    string
	Values  []Value
	Negated bool
}

func (Always) isPredicate()  {}
func (Never) isPredicate()   {}
func (All) isPredicate()     {}
func (Any) isPredicate()     {}
func (Not) isPredicate()     {}
func (Compare) isPredicate() {}
func (Truthy) isPredicate()  {}
func (Defined) isPredicate() {}
func (In) isPredicate()      {}

// String returns "always".
func (Always) String() string { return "always" }

// String returns "never".
func (Never) String() string { return "never" }

// String returns "(a and b …)".
func (p All) String() string { return join(p.Items, " and ") }

// String returns "(a or b …)".
func (p Any) String() string { return join(p.Items, " or ") }

// String returns "not (x)"; the parentheses are kept even around a
// parenthesised child, as the reference prints it.
func (p Not) String() string { return "not (" + str(p.X) + ")" }

// String returns "left op right" with single spaces. A text literal on the
// right that is empty or contains `.` is double-quoted with escapes, so that
// it cannot be mistaken for a fact path.
func (p Compare) String() string {
	right := p.Right.String()
	if !p.Right.IsFact() && p.Right.Value.Kind() == KindText {
		if t := p.Right.Value.Text(); t == "" || strings.Contains(t, ".") {
			right = quote(t)
		}
	}
	return p.Left.String() + " " + string(p.Op) + " " + right
}

// String returns the path of a fact operand or the raw display of a literal.
func (o Operand) String() string {
	if o.IsFact() {
		return o.Path
	}
	return o.Value.String()
}

// String returns the path.
func (p Truthy) String() string { return p.Path }

// String returns "defined(path)".
func (p Defined) String() string { return "defined(" + p.Path + ")" }

// String returns "path in [a, b]" or "path not in [a, b]", values raw.
func (p In) String() string {
	var b strings.Builder
	b.WriteString(p.Path)
	if p.Negated {
		b.WriteString(" not in [")
	} else {
		b.WriteString(" in [")
	}
	for i, v := range p.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.String())
	}
	b.WriteByte(']')
	return b.String()
}

// str displays p, tolerating a nil member of a hand-built predicate.
func str(p Predicate) string {
	if p == nil {
		return "<nil>"
	}
	return p.String()
}

func join(items []Predicate, sep string) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = str(it)
	}
	return "(" + strings.Join(parts, sep) + ")"
}

// NewAll returns the simplified conjunction of items: Always for none, the
// item itself for one, otherwise All (an Always member is kept).
func NewAll(items ...Predicate) Predicate {
	switch len(items) {
	case 0:
		return Always{}
	case 1:
		return items[0]
	}
	return All{Items: slices.Clone(items)}
}

// NewAny returns the simplified disjunction of items: Never for none, the
// item itself for one, otherwise Any.
func NewAny(items ...Predicate) Predicate {
	switch len(items) {
	case 0:
		return Never{}
	case 1:
		return items[0]
	}
	return Any{Items: slices.Clone(items)}
}

// NewNot returns the simplified negation of x: not always is Never, not
// never is Always, not not y is y.
func NewNot(x Predicate) Predicate {
	switch x := x.(type) {
	case Always:
		return Never{}
	case Never:
		return Always{}
	case Not:
		return x.X
	}
	return Not{X: x}
}

// IsAlways reports whether p is Always. A transition counts as guarded iff
// its simplified `when` is not Always (documents.md §5.2).
func IsAlways(p Predicate) bool {
	_, ok := p.(Always)
	return ok
}

// FactPaths returns every fact path p references, sorted and deduplicated.
func FactPaths(p Predicate) []string {
	var paths []string
	walkPaths(p, func(s string) { paths = append(paths, s) })
	slices.Sort(paths)
	return slices.Compact(paths)
}

func walkPaths(p Predicate, f func(string)) {
	switch p := p.(type) {
	case All:
		for _, it := range p.Items {
			walkPaths(it, f)
		}
	case Any:
		for _, it := range p.Items {
			walkPaths(it, f)
		}
	case Not:
		walkPaths(p.X, f)
	case Compare:
		for _, o := range []Operand{p.Left, p.Right} {
			if o.IsFact() {
				f(o.Path)
			}
		}
	case Truthy:
		f(p.Path)
	case Defined:
		f(p.Path)
	case In:
		f(p.Path)
	}
}

// ValidFactPath reports whether s matches
// ^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$ (documents.md §5.5).
func ValidFactPath(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	prevDot := false
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if prevDot {
				return false
			}
			prevDot = true
		case isLetter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-':
			prevDot = false
		default:
			return false
		}
	}
	return !prevDot
}

func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }
