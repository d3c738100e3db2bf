package semdiff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/aepflow/aepflow/workflow"
)

// maxFuzzInput bounds each fuzzed document.
const maxFuzzInput = 640

// FuzzCompareWorkflows compares two fuzzed workflow documents that both
// validate: the comparison never panics, a document equals itself, both
// directions agree on whether anything changed, and every printed form is
// produced (the JSON valid, the text free of invisible characters).
func FuzzCompareWorkflows(f *testing.F) {
	// Small seeds and a small bound (docs/fuzzing.md: large inputs stall the
	// minimizer); the fixture pairs are covered whole by TestPairs.
	base := "id: w\ntitle: W\ninitial: a\nstates:\n  a: {title: A}\n  b: {title: B}\n  z: {title: Z, terminal: true}\n" +
		"transitions:\n  - {from: a, to: b, when: [x, y]}\n  - {from: b, to: a, when: x > 1}\n  - {from: b, to: z}\n"
	for _, n := range []string{
		base,
		strings.Replace(base, "[x, y]", "[y, x]", 1),
		strings.Replace(base, "  - {from: b, to: a, when: x > 1}\n  - {from: b, to: z}\n", "  - {from: b, to: z}\n  - {from: b, to: a, when: x > 1}\n", 1),
		strings.Replace(base, "b: {title: B}", "b: {title: B, phases: [p], requires: {evidence: [diff]}, on_failure: retry}", 1),
		strings.Replace(base, "initial: a", "initial: b", 1),
		base + "  - {from: a, to: z, when: {k: [1, 2]}}\n",
	} {
		if _, ds := workflow.Check("seed.yaml", []byte(n)); ds.HasErrors() {
			f.Fatalf("a seed does not validate: %v\n%s", ds, n)
		}
		f.Add(base, n)
	}
	f.Fuzz(func(t *testing.T, oldSrc, newSrc string) {
		if len(oldSrc) > maxFuzzInput || len(newSrc) > maxFuzzInput {
			return
		}
		old, ds := workflow.Check("old.yaml", []byte(oldSrc))
		if old == nil || ds.HasErrors() {
			return
		}
		new, ds := workflow.Check("new.yaml", []byte(newSrc))
		if new == nil || ds.HasErrors() {
			return
		}
		if self := Workflows(old, old); self.Changed() || self.BehaviourChanged {
			t.Fatalf("a workflow differs from itself: %+v", self)
		}
		fwd, back := Workflows(old, new), Workflows(new, old)
		if fwd.Changed() != back.Changed() || fwd.BehaviourChanged != back.BehaviourChanged {
			t.Fatalf("the two directions disagree: %+v / %+v", fwd, back)
		}
		r := Single(fwd)
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil || !json.Valid(b.Bytes()) {
			t.Fatalf("JSON: %v\n%s", err, b.String())
		}
		b.Reset()
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		for _, c := range b.String() {
			if c != '\n' && (unicode.IsControl(c) || unicode.Is(unicode.Cf, c)) {
				t.Fatalf("text output holds %U:\n%s", c, b.String())
			}
		}
		b.Reset()
		if err := WriteMarkdown(&b, r); err != nil {
			t.Fatal(err)
		}
	})
}
