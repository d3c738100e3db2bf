package analysis

import (
	"math"
	"slices"
	"strings"

	"github.com/aepflow/aepflow/predicate"
)

// interval is a range of reals; an infinite end is always open.
type interval struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

// empty reports whether the interval holds no real.
func (iv interval) empty() bool {
	return iv.lo > iv.hi || (iv.lo == iv.hi && (iv.loOpen || iv.hiOpen))
}

// contains reports whether f lies in the interval.
func (iv interval) contains(f float64) bool {
	if f < iv.lo || (f == iv.lo && iv.loOpen) {
		return false
	}
	return !(f > iv.hi || (f == iv.hi && iv.hiOpen))
}

var allReals = interval{lo: math.Inf(-1), hi: math.Inf(1), loOpen: true, hiOpen: true}

// numSet is a finite union of disjoint intervals, sorted by their lower end.
type numSet []interval

// intersect returns a ∩ b, walking both sorted lists once.
func (a numSet) intersect(b numSet) numSet {
	var out numSet
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		iv := x
		if y.lo > iv.lo || (y.lo == iv.lo && y.loOpen) {
			iv.lo, iv.loOpen = y.lo, y.loOpen
		}
		if y.hi < iv.hi || (y.hi == iv.hi && y.hiOpen) {
			iv.hi, iv.hiOpen = y.hi, y.hiOpen
		}
		if !iv.empty() {
			out = append(out, iv)
		}
		if x.hi < y.hi || (x.hi == y.hi && x.hiOpen) {
			i++
		} else {
			j++
		}
	}
	return out
}

// complement returns ℝ ∖ a.
func (a numSet) complement() numSet {
	a = a.normal()
	var out numSet
	cur := interval{lo: math.Inf(-1), loOpen: true}
	for _, iv := range a {
		gap := interval{lo: cur.lo, loOpen: cur.loOpen, hi: iv.lo, hiOpen: !iv.loOpen}
		if !gap.empty() {
			out = append(out, gap)
		}
		cur = interval{lo: iv.hi, loOpen: !iv.hiOpen}
	}
	if last := (interval{lo: cur.lo, loOpen: cur.loOpen, hi: math.Inf(1), hiOpen: true}); !last.empty() && !math.IsInf(cur.lo, 1) {
		out = append(out, last)
	}
	return out
}

// union returns a ∪ b.
func (a numSet) union(b numSet) numSet {
	return append(slices.Clone(a), b...).normal()
}

// normal sorts the intervals and merges those that overlap or touch.
func (a numSet) normal() numSet {
	if len(a) < 2 {
		return a
	}
	s := slices.Clone(a)
	slices.SortFunc(s, func(x, y interval) int {
		switch {
		case x.lo < y.lo || (x.lo == y.lo && !x.loOpen && y.loOpen):
			return -1
		case x.lo == y.lo && x.loOpen == y.loOpen:
			return 0
		}
		return 1
	})
	out := numSet{s[0]}
	for _, iv := range s[1:] {
		last := &out[len(out)-1]
		touches := iv.lo < last.hi || (iv.lo == last.hi && (!iv.loOpen || !last.hiOpen))
		if !touches {
			out = append(out, iv)
			continue
		}
		if iv.hi > last.hi || (iv.hi == last.hi && !iv.hiOpen) {
			last.hi, last.hiOpen = iv.hi, iv.hiOpen
		}
	}
	return out
}

// integers returns the intervals narrowed to the integers they hold, at
// least min: closed ends at integers, empty intervals dropped.
func (a numSet) integers(min float64) numSet {
	var out numSet
	for _, iv := range a {
		lo := math.Ceil(iv.lo)
		if iv.loOpen && lo == iv.lo {
			lo++
		}
		lo = math.Max(lo, min)
		hi := math.Floor(iv.hi)
		if iv.hiOpen && hi == iv.hi {
			hi--
		}
		if math.IsInf(iv.hi, 1) {
			hi = math.Inf(1)
		}
		if lo > hi {
			continue
		}
		out = append(out, interval{lo: lo, hi: hi, loOpen: math.IsInf(lo, -1), hiOpen: math.IsInf(hi, 1)})
	}
	return out
}

// textSet is a finite set of texts, or, when co is set, the complement of
// one. Items are sorted and unique.
type textSet struct {
	co    bool
	items []string
}

func (a textSet) has(s string) bool {
	_, found := slices.BinarySearch(a.items, s)
	return found != a.co
}

func (a textSet) empty() bool { return !a.co && len(a.items) == 0 }

func (a textSet) complement() textSet { return textSet{co: !a.co, items: a.items} }

func (a textSet) intersect(b textSet) textSet {
	switch {
	case !a.co && !b.co:
		return textSet{items: filter(a.items, b.items, true)}
	case !a.co:
		return textSet{items: filter(a.items, b.items, false)}
	case !b.co:
		return textSet{items: filter(b.items, a.items, false)}
	}
	return textSet{co: true, items: mergeSorted(a.items, b.items)}
}

func (a textSet) union(b textSet) textSet {
	return a.complement().intersect(b.complement()).complement()
}

// filter keeps the items of xs that are (keep) or are not (!keep) in ys.
func filter(xs, ys []string, keep bool) []string {
	var out []string
	for _, x := range xs {
		if _, found := slices.BinarySearch(ys, x); found == keep {
			out = append(out, x)
		}
	}
	return out
}

func mergeSorted(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func texts(items ...string) textSet {
	s := slices.Clone(items)
	slices.Sort(s)
	return textSet{items: slices.Compact(s)}
}

// Bool bits of a VSet.
const (
	bitFalse uint8 = 1 << iota
	bitTrue
	bitsBoth = bitFalse | bitTrue
)

// VSet is a value set (analysis.md §4.1): a subset of {⊥} ∪ texts ∪
// numbers ∪ bools. The zero VSet is empty.
type VSet struct {
	bot   bool
	bools uint8
	texts textSet
	nums  numSet
}

// Sets the leaves and domains are built from.
var (
	setNone   = VSet{}
	setBot    = VSet{bot: true}
	setValues = VSet{bools: bitsBoth, texts: textSet{co: true}, nums: numSet{allReals}}
	setAll    = VSet{bot: true, bools: bitsBoth, texts: textSet{co: true}, nums: numSet{allReals}}
	setTrue   = VSet{bools: bitTrue}
	setFalse  = VSet{bools: bitFalse}
	setBool   = VSet{bools: bitsBoth}
	setText   = VSet{texts: textSet{co: true}}
	setNum    = VSet{nums: numSet{allReals}}
)

// numRange returns the numbers of one interval.
func numRange(lo, hi float64, loOpen, hiOpen bool) VSet {
	iv := interval{lo: lo, hi: hi, loOpen: loOpen || math.IsInf(lo, -1), hiOpen: hiOpen || math.IsInf(hi, 1)}
	if iv.empty() {
		return VSet{}
	}
	return VSet{nums: numSet{iv}}
}

// atLeast returns the numbers n and above.
func atLeast(n float64) VSet { return numRange(n, math.Inf(1), false, true) }

// enum returns the finite text set of items.
func enum(items ...string) VSet { return VSet{texts: texts(items...)} }

// single returns the set holding exactly v (−0 is 0).
func single(v predicate.Value) VSet {
	switch v.Kind() {
	case predicate.KindBool:
		if v.Bool() {
			return setTrue
		}
		return setFalse
	case predicate.KindNumber:
		f := v.Number()
		if f == 0 {
			f = 0
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return VSet{}
		}
		return VSet{nums: numSet{{lo: f, hi: f}}}
	}
	return enum(v.Text())
}

// Intersect returns s ∩ t.
func (s VSet) Intersect(t VSet) VSet {
	return VSet{bot: s.bot && t.bot, bools: s.bools & t.bools, texts: s.texts.intersect(t.texts), nums: s.nums.intersect(t.nums)}
}

// Union returns s ∪ t.
func (s VSet) Union(t VSet) VSet {
	return VSet{bot: s.bot || t.bot, bools: s.bools | t.bools, texts: s.texts.union(t.texts), nums: s.nums.union(t.nums)}
}

// Complement returns the values and ⊥ not in s.
func (s VSet) Complement() VSet {
	return VSet{bot: !s.bot, bools: bitsBoth &^ s.bools, texts: s.texts.complement(), nums: s.nums.complement()}
}

// Empty reports whether s holds nothing at all.
func (s VSet) Empty() bool {
	return !s.bot && s.bools == 0 && s.texts.empty() && len(s.nums) == 0
}

// OnlyBot reports whether s is exactly {⊥}.
func (s VSet) OnlyBot() bool { return s.bot && s.bools == 0 && s.texts.empty() && len(s.nums) == 0 }

// HasBot reports whether s holds ⊥.
func (s VSet) HasBot() bool { return s.bot }

// Contains reports whether the value v (observed) lies in s.
func (s VSet) Contains(v predicate.Value) bool {
	switch v.Kind() {
	case predicate.KindBool:
		if v.Bool() {
			return s.bools&bitTrue != 0
		}
		return s.bools&bitFalse != 0
	case predicate.KindNumber:
		return slices.ContainsFunc(s.nums, func(iv interval) bool { return iv.contains(v.Number()) })
	}
	return s.texts.has(v.Text())
}

// String describes the set for messages and tests: `⊥`, `true`, texts in
// braces, intervals in interval notation.
func (s VSet) String() string {
	var parts []string
	if s.bot {
		parts = append(parts, "⊥")
	}
	switch s.bools {
	case bitsBoth:
		parts = append(parts, "true", "false")
	case bitTrue:
		parts = append(parts, "true")
	case bitFalse:
		parts = append(parts, "false")
	}
	switch {
	case s.texts.co && len(s.texts.items) == 0:
		parts = append(parts, "any text")
	case s.texts.co:
		parts = append(parts, "any text but {"+strings.Join(s.texts.items, ", ")+"}")
	case len(s.texts.items) > 0:
		parts = append(parts, "{"+strings.Join(s.texts.items, ", ")+"}")
	}
	for _, iv := range s.nums {
		parts = append(parts, iv.String())
	}
	if len(parts) == 0 {
		return "∅"
	}
	return strings.Join(parts, " ∪ ")
}

func (iv interval) String() string {
	if iv.lo == iv.hi {
		return predicate.FormatNumber(iv.lo)
	}
	l, r := "[", "]"
	if iv.loOpen {
		l = "("
	}
	if iv.hiOpen {
		r = ")"
	}
	return l + fmtEnd(iv.lo) + ", " + fmtEnd(iv.hi) + r
}

func fmtEnd(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	}
	return predicate.FormatNumber(f)
}

// Overlaps reports whether s ∩ t is not empty, without building it.
func (s VSet) Overlaps(t VSet) bool {
	if (s.bot && t.bot) || s.bools&t.bools != 0 || s.texts.overlaps(t.texts) {
		return true
	}
	i, j := 0, 0
	for i < len(s.nums) && j < len(t.nums) {
		x, y := s.nums[i], t.nums[j]
		lo, loOpen := x.lo, x.loOpen
		if y.lo > lo || (y.lo == lo && y.loOpen) {
			lo, loOpen = y.lo, y.loOpen
		}
		hi, hiOpen := x.hi, x.hiOpen
		if y.hi < hi || (y.hi == hi && y.hiOpen) {
			hi, hiOpen = y.hi, y.hiOpen
		}
		if !(interval{lo: lo, hi: hi, loOpen: loOpen, hiOpen: hiOpen}).empty() {
			return true
		}
		if x.hi < y.hi || (x.hi == y.hi && x.hiOpen) {
			i++
		} else {
			j++
		}
	}
	return false
}

// overlaps reports whether two text sets share a text.
func (a textSet) overlaps(b textSet) bool {
	switch {
	case a.co && b.co:
		return true // two complements of finite sets share infinitely many
	case a.co:
		a, b = b, a
	}
	for _, x := range a.items {
		if b.has(x) {
			return true
		}
	}
	return false
}

// size is the work of intersecting s: its parts' lengths.
func (s VSet) size() int { return 1 + len(s.nums) + len(s.texts.items) }
