package workflow

import (
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

// detailed prints each diagnostic with its hint and its fixes, one a line.
func detailed(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error() + "\n")
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
		for _, f := range d.Fixes {
			b.WriteString("  fix: " + f.Title + " at " + f.Span.Start.String() + "-" + f.Span.End.String() + "\n")
		}
	}
	return b.String()
}

func TestMisspeltStateIsTheRootCause(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"a typo'd to: the unreachable states fold into it", `id: demo/w
title: W
initial: start
states:
  start: {title: Start}
  review: {title: Review}
  publish: {title: Publish}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: reveiw}
  - {from: review, to: publish}
  - {from: publish, to: done}
`, "w.yaml:10:23: `to` names `reveiw`, which is not a declared state, so 3 states are unreachable: `done`, `publish`, `review` [unknown_state]\n" +
			"  hint: did you mean `review`?\n" +
			"  fix: replace `reveiw` with `review` at 10:23-10:29\n"},
		{"a typo'd from: the dead end folds into it", `id: demo/w
title: W
initial: start
states:
  start: {title: Start}
  review: {title: Review}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: review}
  - {from: "reveiw", to: done}
`, "w.yaml:10:12: `from` names `reveiw`, which is not a declared state, so state `review` has no way out and state `done` is unreachable [unknown_state]\n" +
			"  hint: did you mean `review`?\n" +
			"  fix: replace `reveiw` with `review` at 10:13-10:19\n"},
		{"a typo'd initial: everything it leaves unreachable folds into it", `id: demo/w
title: W
initial: strat
states:
  start: {title: Start}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: done}
`, "w.yaml:3:10: the initial state `strat` is not a declared state, so 2 states are unreachable: `done`, `start` [unknown_initial_state]\n" +
			"  hint: did you mean `start`? declared states: done, start\n" +
			"  fix: replace `strat` with `start` at 3:10-3:15\n"},
		{"an unrelated unreachable state is still its own error", `id: demo/w
title: W
initial: start
states:
  start: {title: Start}
  review: {title: Review}
  island: {title: Island, terminal: true}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: reveiw}
  - {from: review, to: done}
`, "w.yaml:7:3: state `island` is not reachable from the initial state `start` [unreachable_state]\n" +
			"  hint: add a transition, or `allow_unreachable_states: true`\n" +
			"w.yaml:10:23: `to` names `reveiw`, which is not a declared state, so 2 states are unreachable: `done`, `review` [unknown_state]\n" +
			"  hint: did you mean `review`?\n" +
			"  fix: replace `reveiw` with `review` at 10:23-10:29\n"},
		{"a name nothing resembles is not guessed at", `id: demo/w
title: W
initial: start
states:
  start: {title: Start}
  review: {title: Review, terminal: true}
transitions:
  - {from: start, to: elsewhere}
`, "w.yaml:6:3: state `review` is not reachable from the initial state `start` [unreachable_state]\n" +
			"  hint: add a transition, or `allow_unreachable_states: true`\n" +
			"w.yaml:8:23: `to` names `elsewhere`, which is not a declared state [unknown_state]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := detailed(check("w.yaml", []byte(c.doc))); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestShapeErrorsDoNotHideTheRules: a misspelt key in one state used to
// suppress every workflow rule of the file.
func TestShapeErrorsDoNotHideTheRules(t *testing.T) {
	doc := `id: demo/w
title: W
initial: begin
states:
  start: {title: Start, summry: oops}
  done: {title: Done, terminal: true}
transitions:
  - {from: start, to: done}
`
	got := testkit.Lines(check("w.yaml", []byte(doc)))
	want := "w.yaml:3:10: the initial state `begin` is not a declared state, so 2 states are unreachable: `done`, `start` [unknown_initial_state]\n" +
		"w.yaml:5:25: unknown key `summry` [unknown_field]\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestShakyPartsAreNotJudged: what did not decode is not blamed again.
func TestShakyPartsAreNotJudged(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"an end that is not an id", `id: demo/w
title: W
initial: a
states:
  a: {title: A}
  b: {title: B, terminal: true}
transitions:
  - {from: a, to: [b]}
`, "w.yaml:8:19: `to` must be a string, found a sequence [wrong_type]\n"},
		{"a terminal that is not a boolean", `id: demo/w
title: W
initial: a
states:
  a: {title: A, terminal: "yes"}
`, "w.yaml:5:27: `terminal` must be a boolean, found a string [wrong_type]\n"},
		{"a state that is not a mapping", `id: demo/w
title: W
initial: a
states:
  a: {title: A}
  b: nope
transitions:
  - {from: a, to: b}
`, "w.yaml:6:6: `b` must be a mapping, found a string [wrong_type]\n"},
		{"a misspelt required key", `id: demo/w
titel: W
initial: a
states:
  a: {title: A, terminal: true}
`, "w.yaml:2:1: unknown key `titel`, so the required key `title` is missing [unknown_field]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := testkit.Lines(check("w.yaml", []byte(c.doc))); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
