package protocol

import (
	"strings"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
	yaml "go.yaml.in/yaml/v3"
)

// DecodeFact reads one entry of a `facts` mapping — key node k, value node
// v, found at document path path (the mapping's path joined with the key)
// — as a fact binding (engine.md §2.1): a boolean, a finite number or a
// text. It is the one reader of fact values: a profile's `facts`, a task's
// `constraints.facts` and a simulation scenario's `facts`. Numbers are read
// by yamldoc.Number, so an integer beyond 2^53 is refused rather than
// rounded, and `.nan` or 1e400 is named for what it is. Messages name the
// whole fact path (`diff.exists`, not `exists`). A problem is reported
// into r and the value is not bound.
func DecodeFact(r *yamldoc.Reader, k, v *yaml.Node, path string) (predicate.Value, bool) {
	if !predicate.ValidFactPath(k.Value) {
		r.Invalid(k, path, "`%s` is not a fact path (dot-separated segments of letters, digits, `_` and `-`)", k.Value)
		return predicate.Value{}, false
	}
	what := "the fact `" + k.Value + "`"
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		if v != nil && v.Kind == yaml.AliasNode {
			return predicate.Value{}, false // Parse refused every alias
		}
		r.Report(v, path, diag.Errorf(yamldoc.CodeWrongType, "%s must be a string, number or boolean, found %s", what, yamldoc.ShapeOf(v)))
		return predicate.Value{}, false
	}
	if v.Tag == "!!bool" {
		return predicate.Bool(strings.ToLower(v.Value) == "true"), true
	}
	switch f, class := yamldoc.Number(v); class {
	case yamldoc.FiniteNumber:
		return predicate.Number(f), true
	case yamldoc.NonFiniteNumber, yamldoc.NumberOutOfRange:
		r.Invalid(v, path, "%s", yamldoc.NumberProblem(what, v, class))
		return predicate.Value{}, false
	}
	// Timestamps and quoted numbers included: text as written.
	return predicate.Text(v.Value), true
}
