package analysis

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/vocab"
)

// placeholder is a pattern segment's placeholder in either table's
// notation: `<s>`, `<…>`, `<suite>`, `<claim…>`, and with a suffix,
// `<s>_tests`, `<x>_verified`.
var placeholder = regexp.MustCompile(`<[^>]*>`)

// TestEvidenceRowsAreTheVocabulary holds the analysis's evidence rows
// (analysis.md §3.3, which add each path's domain) to vocab.FactPatterns,
// which the engine's bindings are tested against: the same paths for the
// same kinds, placeholders aside, so that a fact the engine binds never
// lacks a domain here and a domain here is never for a fact no record
// binds.
func TestEvidenceRowsAreTheVocabulary(t *testing.T) {
	norm := func(p string) string { return placeholder.ReplaceAllString(p, "*") }
	var fromRows, fromVocab []string
	for _, r := range rows {
		if r.src == srcEvidence {
			fromRows = append(fromRows, r.kind+" "+norm(strings.Join(r.pat, ".")))
		}
	}
	for _, f := range vocab.FactPatterns {
		fromVocab = append(fromVocab, f.Kind+" "+norm(f.Pattern))
	}
	slices.Sort(fromRows)
	slices.Sort(fromVocab)
	fromRows, fromVocab = slices.Compact(fromRows), slices.Compact(fromVocab)
	for _, p := range fromRows {
		if _, found := slices.BinarySearch(fromVocab, p); !found {
			t.Errorf("analysis row %q has no pattern in vocab.FactPatterns", p)
		}
	}
	for _, p := range fromVocab {
		if _, found := slices.BinarySearch(fromRows, p); !found {
			t.Errorf("vocab pattern %q has no analysis row", p)
		}
	}
}
