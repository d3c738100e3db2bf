package predicate

import "testing"

// TestExplainNegatedAlways: `not (x or always)` is False because of its
// `always`, and Explain says so (found by FuzzParse).
func TestExplainNegatedAlways(t *testing.T) {
	p := Not{X: Any{Items: []Predicate{Truthy{Path: "none"}, Always{}}}}
	o := Explain(p, nil, nil)
	if o.Truth != False {
		t.Fatalf("Explain(%s) = %+v", p, o)
	}
	for _, c := range o.Causes {
		if c.Expression == "always" && c.Negated && c.Truth == True {
			return
		}
	}
	t.Fatalf("Explain(%s) names no `always` among %+v", p, o.Causes)
}
