package workflow

import (
	"testing"

	"github.com/aepflow/aepflow/diag"
)

// TestWhenPos checks that a transition keeps the position of its `when`
// value: a scalar where it starts, a block mapping at its first key, a block
// sequence at its first `-`, and the zero Pos when `when` is absent or null.
func TestWhenPos(t *testing.T) {
	src := `id: demo/when
version: 1
title: When
initial: a
states:
  a: {title: A}
  b: {title: B, terminal: true}
  c: {title: C, terminal: true}
  d: {title: D, terminal: true}
  e: {title: E, terminal: true}
transitions:
  - from: a
    to: b
    when:   diff.exists
  - from: a
    to: c
    when:
      all:
        - diff.exists
        - test.exists
  - from: a
    to: d
    when:
      - diff.exists
  - from: a
    to: e
    when: null
`
	w, diags := Load("when.yaml", []byte(src))
	if w == nil || diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	want := []diag.Pos{{Line: 14, Column: 13}, {Line: 18, Column: 7}, {Line: 24, Column: 7}, {}}
	for i, tr := range w.Transitions {
		if tr.WhenPos != want[i] {
			t.Errorf("transitions[%d].WhenPos = %v, want %v", i, tr.WhenPos, want[i])
		}
	}
}
