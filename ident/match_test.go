package ident

import (
	"regexp"
	"testing"
)

// oracle holds the reference's expressions (shared JSON Schemas); the
// hand-written matcher must agree with them on every input.
var oracle = [...]*regexp.Regexp{
	Kebab:       regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`),
	Dotted:      regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*(([./][a-z0-9]+(-[a-z0-9]+)*)*[./]([a-z0-9]*[a-z][a-z0-9]*(-[a-z0-9]+)*|[0-9]+(-[a-z0-9]+)+))?$`),
	DottedSnake: regexp.MustCompile(`^[a-z][a-z0-9]*([-_][a-z0-9]+)*(([./][a-z0-9]+([-_][a-z0-9]+)*)*[./]([a-z0-9]*[a-z][a-z0-9]*([-_][a-z0-9]+)*|[0-9]+([-_][a-z0-9]+)+))?$`),
	Loose:       regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9]|[./_-][A-Za-z0-9])*$`),
}

var subjectOracle = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*:[A-Za-z0-9]([A-Za-z0-9]|[./_-][A-Za-z0-9])*$`)

func agree(t *testing.T, s string) {
	t.Helper()
	if got, want := ValidSubject(s), len(s) <= MaxSubjectLen && subjectOracle.MatchString(s); got != want {
		t.Fatalf("subject %q: matcher says %v, the reference expression %v", s, got, want)
	}
	if s == "" {
		return
	}
	for c := Kebab; c <= Loose; c++ {
		if got, want := matches(c, s), oracle[c].MatchString(s); got != want {
			t.Fatalf("%v %q: matcher says %v, the reference expression %v", c, s, got, want)
		}
	}
}

func TestMatcherAgreesWithTheReferenceExpressions(t *testing.T) {
	for _, s := range []string{
		"a", "adp", "adp/default", "adp/2", "adp/2-x", "adp/x2", "adp/2x", "a.1", "a.1-b", "a_b", "a_1/2_x",
		"a/b/c/3", "a/b/3/c", "a//b", "a/", "/a", "a-", "-a", "a--b", "a__b", "a-_b", "A", "1a", "a.b.c",
		"establish_verifiers", "story:passkeys", "story:", ":x", "a:b:c", "Story:x", "story:AUTH-142", "v1.x", "v1.2", "x/1_2", "TASK-1.a_b/c", "a..b", "a b", "a/b_c", "é",
	} {
		agree(t, s)
	}
}

func FuzzMatcher(f *testing.F) {
	for _, s := range []string{"adp/default", "a_b.c-d/2-x", "adp/2", "A-1./b", "x/1_2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { agree(t, s) })
}

func BenchmarkCheck(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = Check(DottedSnake, "establish_verifiers")
		_ = Check(Dotted, "adp/default")
	}
}

// TestMatcherAllocatesNothing: every id of every document is matched, so
// the matcher works in place.
func TestMatcherAllocatesNothing(t *testing.T) {
	for c := Kebab; c <= Loose; c++ {
		if n := testing.AllocsPerRun(10, func() { _ = matches(c, "adp.tests_first/default-2") }); n != 0 {
			t.Errorf("%v: %v allocations a match, want none", c, n)
		}
	}
}
