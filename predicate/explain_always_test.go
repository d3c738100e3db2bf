package predicate

import "testing"

// TestExplainNegatedAlways: `not (x or always)` is False because of its
// `always`, and Explain says so (found by FuzzParse).
func TestExplainNegatedAlways(t *testing.T) {
	p := Not{X: Any{Items: []Predicate{Truthy{Path: "none"}, Always{}}}}
	o := Explain(p, nil, nil)
	if o.Truth != False || len(o.Causes) != 1 || o.Causes[0].Expression != "always" || !o.Causes[0].Negated {
		t.Fatalf("Explain(%s) = %+v", p, o)
	}
}
