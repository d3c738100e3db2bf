package protocol

import (
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

// TestShapeErrorsDoNotHideTheRules: a shape error in one part of a
// principle or a protocol used to suppress its rule; the rule now judges
// what decoded, and is silent when its input is what failed to decode.
func TestShapeErrorsDoNotHideTheRules(t *testing.T) {
	for _, c := range []struct{ name, kind, doc, want string }{
		{"a principle with a misspelt summary still declares nothing", "principle",
			"id: p\ntitle: P\nsumary: x\n",
			"f.yaml:1:1: principle `p` declares nothing enforceable [empty_declaration]\n" +
				"f.yaml:3:1: unknown key `sumary` [unknown_field]\n"},
		{"a principle without an id is not named by it", "principle",
			"title: P\n",
			"f.yaml:1:1: the principle declares nothing enforceable [empty_declaration]\n" +
				"f.yaml:1:1: the required key `id` is missing [missing_field]\n"},
		{"a principle whose requires is misspelt", "principle",
			"id: p\ntitle: P\nrequirs: [done]\n",
			"f.yaml:3:1: unknown key `requirs` [unknown_field]\n"},
		{"a principle whose obligations did not decode", "principle",
			"id: p\ntitle: P\nobligations: [{id: o, requires: {predicates: 3}}]\n",
			"f.yaml:3:46: a predicate cannot be a number (found `3`) [invalid_predicate]\n"},
		{"a principle that is not a mapping", "principle", "[p]\n",
			"f.yaml:1:1: `principle` must be a mapping, found a sequence [wrong_type]\n"},
		{"a protocol with a misspelt title still lacks a verifier", "protocol",
			"id: p\ntitel: P\nevidence_kinds: [static_analysis]\n",
			"f.yaml:2:1: unknown key `titel`, so the required key `title` is missing [unknown_field]\n" +
				"f.yaml:3:18: protocol `p/1` declares evidence kind `static_analysis` but no verifier that establishes it [no_verifier_for_evidence]\n"},
		{"a protocol whose verifiers are misspelt", "protocol",
			"id: p\ntitle: P\nevidence_kinds: [static_analysis]\nverifers: [compiler]\n",
			"f.yaml:4:1: unknown key `verifers` [unknown_field]\n"},
		{"a protocol whose verifiers did not decode", "protocol",
			"id: p\ntitle: P\nevidence_kinds: [static_analysis]\nverifiers: [[compiler]]\n",
			"f.yaml:4:13: `verifiers[0]` must be a string, found a sequence [wrong_type]\n"},
		{"a protocol whose extends did not decode", "protocol",
			"id: p\ntitle: P\nextends: 3\nevidence_kinds: [static_analysis]\n",
			"f.yaml:3:10: `extends` must be a string, found an integer [wrong_type]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := testkit.Lines(loaders[c.kind]("f.yaml", []byte(c.doc)).Sorted()); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
