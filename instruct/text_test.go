package instruct

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/protocol"
	"github.com/aepflow/aepflow/workflow"
)

func TestCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"adp/default", "`adp/default`"},
		{"note == a`b", "``note == a`b``"},
		{"a``b`", "``` a``b` ```"},
		{"`x", "`` `x ``"},
		{"two\tspaced\n words", "`two spaced words`"},
	} {
		if got := code(c.in); got != c.want {
			t.Errorf("code(%q) = %q, want %q", c.in, got, c.want)
		}
		// The span must read back as one span holding the collapsed text.
		if mask := spanMask(code(c.in)); !mask[0] || !mask[len(mask)-1] {
			t.Errorf("code(%q) = %q is not one code span", c.in, code(c.in))
		}
	}
}

func TestJoinAnd(t *testing.T) {
	for n, want := range []string{"", "`a`", "`a` and `b`", "`a`, `b` and `c`"} {
		if got := codeList([]string{"a", "b", "c"}[:n]); got != want {
			t.Errorf("codeList of %d = %q, want %q", n, got, want)
		}
	}
}

func TestEscapeLead(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"# not a heading", `\# not a heading`},
		{"#hashtag", `\#hashtag`},
		{"> quote", `\> quote`},
		{"- item", `\- item`},
		{"* item", `\* item`},
		{"+ item", `\+ item`},
		{"1. first", `1\. first`},
		{"12) twelfth", `12\) twelfth`},
		{"```go", "\\```go"},
		{"<div>", `\<div>`},
		{"---", `\---`},
		{"===", `\===`},
		{"[ref]: url", `\[ref]: url`},
		{"-1 is a number", "-1 is a number"},
		{"1.5 is a number", "1.5 is a number"},
		{"plain text", "plain text"},
		{"**bold** text", "**bold** text"},
	} {
		if got := escapeLead(c.in); got != c.want {
			t.Errorf("escapeLead(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWrap(t *testing.T) {
	long := strings.Repeat("x", 30)
	for _, c := range []struct {
		in    string
		limit int
		want  []string
	}{
		{"a b c", 3, []string{"a b", "c"}},
		{long + " y", 10, []string{long, "y"}},
		// A code span is never broken, however long.
		{"see `a b c d` now", 8, []string{"see", "`a b c d`", "now"}},
		// A marker word stays on the line before rather than start one.
		{"aaaa - bb", 5, []string{"aaaa -", "bb"}},
		{"aaaa 1. bb", 5, []string{"aaaa 1.", "bb"}},
		{"aaaa # bb", 5, []string{"aaaa #", "bb"}},
		{"aaaa > bb", 5, []string{"aaaa >", "bb"}},
		{"aaaa ``` bb", 5, []string{"aaaa ```", "bb"}},
		{"aaaa <b> bb", 5, []string{"aaaa <b>", "bb"}},
		// The paragraph's own first marker is escaped.
		{"- a", 10, []string{`\- a`}},
		{"", 10, nil},
	} {
		got := wrap(c.in, c.limit)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestCapabilityOrder(t *testing.T) {
	in := []string{"approval.request", "custom.b", "deployment.create:prod", "deployment.create:moon", "deployment.create:test",
		"network.read:private", "network.read:public", "network.read", "deployment.create:*", "deployment.create:dev",
		"deployment.create:stage", "secret.read:any", "repository.read", "custom.a", "deployment.create:mars",
		"deployment.create:production"}
	want := "repository.read network.read network.read:public network.read:private deployment.create " +
		"deployment.create:development deployment.create:test deployment.create:staging deployment.create:production " +
		"deployment.create:mars deployment.create:moon secret.read approval.request custom.a custom.b"
	if got := strings.Join(capabilityList(in), " "); got != want {
		t.Errorf("capability order:\n got %s\nwant %s", got, want)
	}
	// §3.5's own example.
	if got := strings.Join(capabilityList([]string{"production.write", "deployment.create", "network.write"}), " "); got != "network.write production.write deployment.create" {
		t.Errorf("§3.5 example = %s", got)
	}
}

func TestPolicyText(t *testing.T) {
	block := &workflow.FailurePolicy{Action: workflow.ActionBlock}
	for _, c := range []struct {
		p    *workflow.FailurePolicy
		want string
	}{
		{nil, "block"},
		{block, "block"},
		{&workflow.FailurePolicy{Action: workflow.ActionAbort}, "abort"},
		{&workflow.FailurePolicy{Action: workflow.ActionEscalate, To: "on-call\n team"}, "escalate to on-call team"},
		{&workflow.FailurePolicy{Action: workflow.ActionRetry, MaxAttempts: 3, Then: block}, "retry 3x then block"},
		{&workflow.FailurePolicy{Action: workflow.ActionRetry, MaxAttempts: 2, Then: &workflow.FailurePolicy{
			Action: workflow.ActionRollback, Require: predicate.Truthy{Path: "rev.exists"}}}, "retry 2x then roll back (requires `rev.exists`)"},
	} {
		if got := policyText(c.p); got != c.want {
			t.Errorf("policyText = %q, want %q", got, c.want)
		}
	}
}

func TestTimingText(t *testing.T) {
	for _, c := range []struct {
		t    protocol.Timing
		want string
	}{
		{protocol.Timing{Kind: protocol.Always}, "always"},
		{protocol.Timing{Kind: protocol.Before, Phase: "completion"}, "before phase completion"},
		{protocol.Timing{Kind: protocol.During, Phase: "review"}, "during phase review"},
		{protocol.Timing{Kind: protocol.Before, State: "s"}, "before state s"},
		{protocol.Timing{Kind: protocol.During, State: "s.t"}, "during state s.t"},
	} {
		if got := timingText(c.t); got != c.want {
			t.Errorf("timingText(%+v) = %q, want %q", c.t, got, c.want)
		}
	}
}

func TestRegenerateCommand(t *testing.T) {
	for _, c := range []struct{ root, out, want string }{
		{".", "docs/instructions", "aepflow instruct --out docs/instructions"},
		{"tree", "docs/instructions/", "aepflow instruct --root tree --out docs/instructions/"},
		{"/abs/tree", "/abs/out", "aepflow instruct --root ROOT --out DIR"},
		{"my tree", "it's", `aepflow instruct --root 'my tree' --out 'it'\''s'`},
		{"a\nb", "x`y", "aepflow instruct --root ROOT --out DIR"},
		// Not UTF-8: the index would not be (§10); a C1 control is a
		// control character as C0's are.
		{"tree", "o\xffut", "aepflow instruct --root tree --out DIR"},
		{"t\u0085ree", "out", "aepflow instruct --root ROOT --out out"},
		{"é", "docs/é", "aepflow instruct --root 'é' --out 'docs/é'"},
	} {
		if got := RegenerateCommand(c.root, c.out); got != c.want {
			t.Errorf("RegenerateCommand(%q, %q) = %q, want %q", c.root, c.out, got, c.want)
		}
	}
}

func TestSortEntries(t *testing.T) {
	entries := []Entry{{Path: RelPath("a")}, {Path: RelPath("a-b")}, {Path: RelPath("a/b")}}
	SortEntries(entries)
	var got []string
	for _, e := range entries {
		got = append(got, e.Path)
	}
	// Path order, not id order: `-` (0x2d) < `.` (0x2e) < `/` (0x2f).
	if strings.Join(got, " ") != "a-b.md a.md a/b.md" {
		t.Errorf("entries in order %v", got)
	}
}

// FuzzWrap checks the wrapping invariants on any text: the words survive
// in order, no line but the first starts with a block marker, the first
// does not either once escaped, and no line exceeds the limit unless it is
// one atom or ends with a marker word that could not start the next.
func FuzzWrap(f *testing.F) {
	for _, s := range []string{"a b c", "see `a b` - 1. # x", "``a ` b`` c", "\\` x ` y", "- - -", "[x]: y z"} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		if !utf8.ValidString(s) || limit < 1 || limit > 200 || len(s) > 512 {
			return
		}
		lines := wrap(s, limit)
		if got, want := strings.Join(lines, " "), escapeLead(collapse(s)); got != want {
			t.Fatalf("wrap(%q) lost text: %q, want %q", s, got, want)
		}
		for i, l := range lines {
			word, _, _ := strings.Cut(l, " ")
			if isBlockMarker(word) {
				t.Fatalf("line %d of wrap(%q) starts with a marker: %q", i, s, l)
			}
			if l == "" || strings.HasSuffix(l, " ") {
				t.Fatalf("line %d of wrap(%q) is empty or ends in a space: %q", i, s, l)
			}
		}
	})
}
