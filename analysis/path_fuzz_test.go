package analysis

import (
	"strings"
	"testing"

	"github.com/aepflow/aepflow/predicate"
)

// FuzzDescribePath feeds arbitrary fact paths to the family matcher and
// the nearest-path hint: neither may panic, a path is plan-only exactly
// when no row matched it, and a hint is a produced path within distance 3.
func FuzzDescribePath(f *testing.F) {
	for _, p := range []string{"tests.unit.failed", "tests.end-to-end.failed", "unit_tests.result", "x_verified", "property_test.a.b.seed.exists",
		"artifact.spec.approved.count", "state.s.entered", "evidence.count.test_execution", "review.changes_requested", "metric.a.b", "a", ""} {
		f.Add(p)
	}
	a := nfAnalyzer()
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 256 || !predicate.ValidFactPath(p) {
			return
		}
		info := a.paths[a.path(p)]
		if info.planOnly() != (len(info.matches) == 0) || info.dom.Set.Empty() {
			t.Fatalf("%s: %+v", p, info)
		}
		if owned(p) && info.planOnly() {
			if near := a.nearest(p); near != "" && (levenshtein(near, p) > 3 || !a.paths[a.path(near)].produced || strings.Contains(near, "..")) {
				t.Fatalf("%s: hint %s", p, near)
			}
		}
	})
}
