// Package suggest finds the name a person most likely meant when they
// typed one that is not there: `titel` for `title`, `reveiw` for `review`,
// `--roots` for `--root`. Every lookup of a name in aepflow — keys, state
// ids, document ids, flags, enum values — asks it for its "did you mean".
//
// Distances are optimal string alignment distances (Levenshtein plus the
// transposition of two adjacent characters, each edit costing 1), counted
// in code points, with ASCII case differences free when nothing else
// differs. A candidate is offered when its distance is at most a third of
// the typed name's length (at least 1), so short names are not "corrected"
// into unrelated ones.
//
// It is bounded: names longer than MaxName code points get no suggestion,
// and a Finder spends at most its Budget of distance-table cells over its
// whole life (a Budget may be shared by the finders of one document),
// after which it suggests nothing more. A hostile document with
// ten thousand misspelt ids among ten thousand states therefore costs a
// bounded amount of work; the diagnostics are the same, only without hints.
//
// It is not a spelling checker and knows no vocabulary: callers pass the
// candidates (the allowed keys, the declared states, …).
package suggest

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxName is the longest name, in code points, a suggestion is looked for.
const MaxName = 128

// DefaultBudget is the number of distance-table cells a Budget allows
// before its finders stop suggesting (about a tenth of a second of work).
const DefaultBudget = 20_000_000

// Budget is work shared by several Finders, such as every mapping of one
// document, so that the document as a whole costs a bounded amount.
type Budget struct{ left int }

// NewBudget returns a Budget of DefaultBudget cells.
func NewBudget() *Budget { return &Budget{left: DefaultBudget} }

// Finder looks names up among one set of candidates. It remembers each
// answer, so that a name misspelt the same way many times costs once. The
// zero Finder is not usable; call NewFinder.
type Finder struct {
	candidates [][]rune
	texts      []string
	folded     map[string]string // lower-cased candidate -> the first candidate so spelt
	budget     *Budget
	seen       map[string]string
}

// NewFinder returns a Finder over candidates (order does not matter: ties
// go to the candidate first in byte order) with a Budget of its own.
// Duplicates and empty strings are ignored.
func NewFinder(candidates []string) *Finder { return NewFinderWithin(candidates, NewBudget()) }

// NewFinderWithin is NewFinder spending budget, which it may share.
func NewFinderWithin(candidates []string, budget *Budget) *Finder {
	texts := slices.Clone(candidates)
	slices.Sort(texts)
	texts = slices.Compact(texts)
	texts = slices.DeleteFunc(texts, func(s string) bool { return s == "" })
	f := &Finder{texts: texts, budget: budget, seen: map[string]string{}, folded: map[string]string{}}
	for _, s := range texts {
		f.candidates = append(f.candidates, []rune(s))
		if _, dup := f.folded[strings.ToLower(s)]; !dup {
			f.folded[strings.ToLower(s)] = s
		}
	}
	return f
}

// Closest returns the candidate closest to name within the threshold, and
// whether there is one. A name equal to a candidate has no suggestion.
func (f *Finder) Closest(name string) (string, bool) {
	if best, ok := f.seen[name]; ok {
		return best, best != ""
	}
	best := f.closest(name)
	if len(f.seen) < 1<<16 {
		f.seen[name] = best
	}
	return best, best != ""
}

func (f *Finder) closest(name string) string {
	if name == "" || utf8.RuneCountInString(name) > MaxName || f.budget.left <= 0 {
		return ""
	}
	if _, found := slices.BinarySearch(f.texts, name); found {
		return ""
	}
	if c, ok := f.folded[strings.ToLower(name)]; ok {
		return c
	}
	typed := []rune(name)
	limit := max(len(typed)/3, 1)
	best, bestDist := "", limit+1
	for i, c := range f.candidates {
		f.budget.left--
		if abs(len(c)-len(typed)) >= bestDist || len(c) > MaxName {
			continue
		}
		f.budget.left -= (len(typed) + 1) * (len(c) + 1)
		if f.budget.left < 0 {
			return ""
		}
		// A distance as large as either name replaces it whole: no
		// resemblance left to suggest.
		if d := distance(typed, c, bestDist); d < bestDist && d < len(typed) && d < len(c) {
			best, bestDist = f.texts[i], d
		}
	}
	return best
}

// Closest returns the candidate closest to name (see Finder), for a
// one-off lookup.
func Closest(name string, candidates []string) (string, bool) {
	return NewFinder(candidates).Closest(name)
}

// distance returns the optimal string alignment distance of a and b, or
// any value ≥ bound once it is certain to reach bound.
func distance(a, b []rune, bound int) int {
	// Three rows: the one before the previous is needed for transpositions.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	// Every later cell is at least the smaller of this row's minimum and
	// the previous row's plus one (a transposition reaches two rows back).
	prevMin := 0
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if min(rowMin, prevMin+1) >= bound {
			return bound
		}
		prevMin = rowMin
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// MaxListed is how many candidates List names before "and N more".
const MaxListed = 20

// List joins the candidates a hint offers with ", ", naming at most
// MaxListed of them and counting the rest ("a, b, … and 12 more"). A hint
// repeated on every one of n diagnostics about a document of n names
// stays linear in the document's size instead of quadratic.
func List(candidates []string) string {
	if len(candidates) <= MaxListed {
		return strings.Join(candidates, ", ")
	}
	return strings.Join(candidates[:MaxListed], ", ") + ", … and " + strconv.Itoa(len(candidates)-MaxListed) + " more"
}

// OrList joins names for a message as "a, b or c" ("a" alone, "" for none):
// how a hint lists the choices a person has.
func OrList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
