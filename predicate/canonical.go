package predicate

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Canonical returns the canonical form of p: the one predicate that every
// spelling with the same meaning shares as far as this package can prove it
// cheaply, so that two predicates can be compared by meaning (a reordered
// conjunction is the same guard). It applies, bottom up, only identities of
// Kleene logic:
//
//   - nested conjunctions are flattened into one, and so are nested
//     disjunctions (associativity);
//   - an `always` member of an `all` and a `never` member of an `any` are
//     dropped (identity); a `never` member makes the `all` never, an
//     `always` member makes the `any` always (annihilation);
//   - members are put in the byte order of their Key and repeated members
//     are kept once (commutativity, idempotence);
//   - the values of an `in` / `not in` are ordered by Key and kept once (a
//     membership test reads a set);
//   - the result is simplified again as parsing simplifies (documents.md
//     §5.2): `all` of none is always, of one is that one, `not not x` is x.
//
// It rewrites nothing else: no De Morgan, no operator flipping (`not (x <
// 1)` stays apart from `x >= 1`, which differ when the two sides' types
// differ), no merging of comparisons. So equal canonical forms mean equal
// meaning, while different ones may still mean the same. Canonical never
// modifies p. The result is for comparison; display the predicate the
// document gave.
func Canonical(p Predicate) Predicate {
	switch p := p.(type) {
	case All:
		return canonicalJunction(p.Items, true)
	case Any:
		return canonicalJunction(p.Items, false)
	case Not:
		return NewNot(Canonical(p.X))
	case In:
		return In{Path: p.Path, Values: canonicalValues(p.Values), Negated: p.Negated}
	}
	return p
}

// canonicalJunction is Canonical of an `all` (conj) or an `any` of items.
func canonicalJunction(items []Predicate, conj bool) Predicate {
	type keyed struct {
		key string
		p   Predicate
	}
	var members []keyed
	var add func(q Predicate) bool
	// add reports false when q annihilates the junction.
	add = func(q Predicate) bool {
		switch q := q.(type) {
		case All:
			if conj {
				for _, it := range q.Items {
					if !add(it) {
						return false
					}
				}
				return true
			}
		case Any:
			if !conj {
				for _, it := range q.Items {
					if !add(it) {
						return false
					}
				}
				return true
			}
		case Always:
			return conj
		case Never:
			return !conj
		}
		members = append(members, keyed{Key(q), q})
		return true
	}
	for _, it := range items {
		if !add(Canonical(it)) {
			if conj {
				return Never{}
			}
			return Always{}
		}
	}
	slices.SortFunc(members, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	members = slices.CompactFunc(members, func(a, b keyed) bool { return a.key == b.key })
	out := make([]Predicate, len(members))
	for i, m := range members {
		out[i] = m.p
	}
	if conj {
		return NewAll(out...)
	}
	return NewAny(out...)
}

// canonicalValues returns values ordered by their key, each kept once.
func canonicalValues(values []Value) []Value {
	out := slices.Clone(values)
	slices.SortStableFunc(out, func(a, b Value) int { return cmp.Compare(valueKey(a), valueKey(b)) })
	return slices.CompactFunc(out, func(a, b Value) bool { return valueKey(a) == valueKey(b) })
}

// Equivalent reports whether a and b have the same canonical form, which
// implies that they mean the same (see Canonical for what it proves).
func Equivalent(a, b Predicate) bool { return Key(Canonical(a)) == Key(Canonical(b)) }

// Key returns an encoding of p's structure that is unambiguous where the
// display is not: the display shows the text "5" and the number 5 alike,
// the key does not. Two predicates have the same Key exactly when they are
// built alike from equal parts (the numbers -0 and 0 are one number, as
// Value.Equal says). It is for ordering and comparing, never for people; its
// spelling may change between releases.
func Key(p Predicate) string {
	var b strings.Builder
	writeKey(&b, p)
	return b.String()
}

func writeKey(b *strings.Builder, p Predicate) {
	switch p := p.(type) {
	case nil:
		b.WriteString("nil")
	case Always:
		b.WriteString("always")
	case Never:
		b.WriteString("never")
	case All:
		writeItemsKey(b, "all", p.Items)
	case Any:
		writeItemsKey(b, "any", p.Items)
	case Not:
		b.WriteString("not(")
		writeKey(b, p.X)
		b.WriteByte(')')
	case Compare:
		b.WriteString("cmp(")
		b.WriteString(operandKey(p.Left))
		b.WriteByte(' ')
		b.WriteString(string(p.Op))
		b.WriteByte(' ')
		b.WriteString(operandKey(p.Right))
		b.WriteByte(')')
	case Truthy:
		b.WriteString("truthy(" + strconv.Quote(p.Path) + ")")
	case Defined:
		b.WriteString("defined(" + strconv.Quote(p.Path) + ")")
	case In:
		if p.Negated {
			b.WriteString("notin(")
		} else {
			b.WriteString("in(")
		}
		b.WriteString(strconv.Quote(p.Path))
		for _, v := range p.Values {
			b.WriteByte(' ')
			b.WriteString(valueKey(v))
		}
		b.WriteByte(')')
	default:
		// A variant added later must get its own spelling; until then it
		// never equals anything but itself by display.
		b.WriteString("other(" + strconv.Quote(p.String()) + ")")
	}
}

func writeItemsKey(b *strings.Builder, head string, items []Predicate) {
	b.WriteString(head)
	b.WriteByte('(')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeKey(b, it)
	}
	b.WriteByte(')')
}

// operandKey spells a fact as f:"path" and a literal by its value key.
func operandKey(o Operand) string {
	if o.IsFact() {
		return "f:" + strconv.Quote(o.Path)
	}
	return valueKey(o.Value)
}

// valueKey spells a value with its kind: t:"text", n:1.5, b:true. Numbers
// use FormatNumber, which is exact and prints -0 as 0.
func valueKey(v Value) string {
	switch v.Kind() {
	case KindNumber:
		return "n:" + FormatNumber(v.Number())
	case KindBool:
		return "b:" + strconv.FormatBool(v.Bool())
	}
	return "t:" + strconv.Quote(v.Text())
}
