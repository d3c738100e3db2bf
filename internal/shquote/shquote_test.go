package shquote

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestArg: plain words stay as they are, anything else is single-quoted.
func TestArg(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"run.jsonl", "run.jsonl"},
		{"specs/eval.trace.yaml", "specs/eval.trace.yaml"},
		{"-", "-"},
		{"a=b:c@d,e+f", "a=b:c@d,e+f"},
		{"", "''"},
		{"my dir/x.yaml", "'my dir/x.yaml'"},
		{"it's", `'it'\''s'`},
		{"$HOME", "'$HOME'"},
		{"~/x", "'~/x'"},
		{"*.jsonl", "'*.jsonl'"},
		{"a`b`", "'a`b`'"},
		{"é", "'é'"},
		{"''", `''\'''\'''`},
	} {
		if got := Arg(c.in); got != c.want {
			t.Errorf("Arg(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestJoinRoundTrip: a POSIX shell reads the command line back into the
// arguments, whatever bytes they hold (NUL aside, which no argument holds).
func TestJoinRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	args := []string{"plain", "", "a b", "it's", `"q"`, "$HOME", "${x:-y}", "$(id)", "`id`", "a\\b", "*", "?", "[a]", "~", "#x", "a;b", "a&b", "a|b", "<x>", "(x)", "{a,b}", "!x", "a\nb", "\t", "é", "\x01\x7f", "'", "''x'"}
	out, err := exec.Command(sh, "-c", `printf '%s\0' `+Join(args...)).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if !slices.Equal(got, args) {
		t.Errorf("sh reads\n%q\nwant\n%q", got, args)
	}
}

// FuzzArg: any argument survives a shell's reading.
func FuzzArg(f *testing.F) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		f.Skip("no sh")
	}
	for _, s := range []string{"my specs/it's $HOME.trace.yaml", "", "'", "a\nb", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || len(s) > 256 {
			return // no argument holds NUL
		}
		out, err := exec.Command(sh, "-c", `printf '%s' `+Arg(s)).Output()
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if string(out) != s {
			t.Errorf("Arg(%q) = %s reads back as %q", s, Arg(s), out)
		}
	})
}
