package vocab

import (
	"slices"
	"testing"
)

func TestCanonicalKind(t *testing.T) {
	for in, want := range map[string]string{"test_execution": "test_result", "source_diff": "diff", "review": "review", "ess_conformance_result": "ess_conformance"} {
		if got, ok := CanonicalKind(in); !ok || got != want {
			t.Errorf("CanonicalKind(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := CanonicalKind("telepathy"); ok {
		t.Error("an unknown kind must not be accepted")
	}
}

func TestEveryKindHasItsVerifiersListed(t *testing.T) {
	for _, k := range EvidenceKinds {
		if k == "review_outcome" {
			if len(DefaultVerifiers(k)) != 0 {
				t.Errorf("review_outcome has no default verifier")
			}
			continue
		}
		for _, v := range DefaultVerifiers(k) {
			if !IsNamedVerifier(v) {
				t.Errorf("kind %s names unknown verifier %s", k, v)
			}
			if !slices.Contains(KindsEstablishedBy(v), k) {
				t.Errorf("KindsEstablishedBy(%s) misses %s", v, k)
			}
		}
	}
	if got := KindsEstablishedBy("compiler"); !slices.Equal(got, []string{"static_analysis", "diff"}) {
		t.Errorf("KindsEstablishedBy(compiler) = %v", got)
	}
}

func TestSuitesAndVerifiers(t *testing.T) {
	for in, want := range map[string]string{"end-to-end": "e2e", "end_to_end": "e2e", "unit": "unit", "my-suite": "my-suite"} {
		if got, ok := CanonicalSuite(in); !ok || got != want {
			t.Errorf("CanonicalSuite(%q) = %q, %v", in, got, ok)
		}
	}
	if _, ok := CanonicalSuite("Unit"); ok {
		t.Error("CanonicalSuite must refuse uppercase")
	}
	if !ValidVerifier("git") || !ValidVerifier("test-runner") || ValidVerifier("Git") {
		t.Error("verifier validity wrong")
	}
	if IsMintable("review") || !IsMintable("diff") {
		t.Error("mintable kinds wrong")
	}
}
