package suggest

import (
	"fmt"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	keys := []string{"title", "summary", "initial", "states", "transitions", "id", "version"}
	for _, c := range []struct{ name, want string }{
		{"titel", "title"},  // a transposition
		{"tittle", "title"}, // an insertion
		{"Title", "title"},  // case only
		{"transitons", "transitions"},
		{"sates", "states"},
		{"inital", "initial"},
		{"title", ""},  // present: nothing to suggest
		{"colour", ""}, // nothing close
		{"x", ""},      // one letter replaced is no resemblance
		{"", ""},
	} {
		got, ok := Closest(c.name, keys)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
	if got, _ := Closest("reveiw", []string{"review", "receive", "revise"}); got != "review" {
		t.Errorf("reveiw -> %q", got)
	}
	// Ties go to the first candidate in byte order, whatever the input order.
	if got, _ := Closest("ab", []string{"ac", "aa"}); got != "aa" {
		t.Errorf("tie -> %q, want aa", got)
	}
	if got, _ := Closest("roots", []string{"root", "format"}); got != "root" {
		t.Errorf("roots -> %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"ca", "abc", 3},
		{"kitten", "sitting", 3}, {"résumé", "resume", 2},
	} {
		if got := distance([]rune(c.a), []rune(c.b), 100); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// With a bound, the answer is exact below it and at least the bound above.
	if got := distance([]rune("aaaaaaaa"), []rune("bbbbbbbb"), 2); got < 2 {
		t.Errorf("bounded distance = %d, want ≥ 2", got)
	}
	if got := distance([]rune("abcdef"), []rune("badcfe"), 4); got != 3 {
		t.Errorf("three transpositions under bound 4 = %d", got)
	}
}

// TestBudgetBoundsWork asks a Finder over 10,000 candidates for 10,000
// distinct misspellings: past its budget it answers "no suggestion" rather
// than work on, and a repeated name is answered from memory.
func TestBudgetBoundsWork(t *testing.T) {
	var states []string
	for i := range 10_000 {
		states = append(states, fmt.Sprintf("state_%05d", i))
	}
	f := NewFinderWithin(states, &Budget{left: 1_000_000})
	answered := 0
	for i := range 10_000 {
		if _, ok := f.Closest(fmt.Sprintf("stat_%05d", i)); ok {
			answered++
		}
	}
	if f.budget.left > 0 || answered == 0 || answered == 10_000 {
		t.Errorf("budget left %d, answered %d of 10,000; want the budget spent part way", f.budget, answered)
	}
	if got, ok := f.Closest("stat_00000"); !ok || got != "state_00000" {
		t.Errorf("a remembered answer was lost: %q %v", got, ok)
	}
	if _, ok := Closest(strings.Repeat("a", MaxName+1), []string{strings.Repeat("a", MaxName)}); ok {
		t.Error("a name longer than MaxName got a suggestion")
	}
}

func FuzzClosest(f *testing.F) {
	f.Add("titel", "title\nsummary\nstates")
	f.Add("reveiw", "review\nreceive")
	f.Add("\xff\x00", "\xff\n\x00")
	f.Fuzz(func(t *testing.T, name, list string) {
		cands := strings.Split(list, "\n")
		got, ok := Closest(name, cands)
		if ok == (got == "") {
			t.Fatalf("ok %v with %q", ok, got)
		}
		if ok && got == name {
			t.Fatalf("suggested the name itself")
		}
		if ok && !strings.Contains("\n"+list+"\n", "\n"+got+"\n") {
			t.Fatalf("suggested %q, not a candidate", got)
		}
	})
}

func TestList(t *testing.T) {
	names := make([]string, 25)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	if got := List(names[:3]); got != "a, b, c" {
		t.Errorf("List of 3 = %q", got)
	}
	if got := List(names[:MaxListed]); got != strings.Join(names[:MaxListed], ", ") {
		t.Errorf("List of MaxListed = %q", got)
	}
	if got, want := List(names), strings.Join(names[:MaxListed], ", ")+", … and 5 more"; got != want {
		t.Errorf("List of 25 = %q; want %q", got, want)
	}
}

func TestOrList(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := OrList(c.names); got != c.want {
			t.Errorf("OrList(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
