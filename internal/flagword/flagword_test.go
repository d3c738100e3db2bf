package flagword

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/aepflow/aepflow/internal/onceflag"
)

// TestStd: every error of the standard flag package is worded as aepflow
// words pflag's, for a flag of its own and one onceflag wraps alike.
func TestStd(t *testing.T) {
	for _, guarded := range []bool{false, true} {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--bogus"}, "unknown flag --bogus"},
			{[]string{"--fromat", "x"}, "unknown flag --fromat; did you mean --format?"},
			{[]string{"-x"}, "unknown shorthand flag -x"},
			{[]string{"--out"}, "--out needs a value"},
			{[]string{"--timeout", "5x"}, `invalid value "5x" for --timeout: want a duration such as 30s or 2m`},
			{[]string{"--timeout=a: b"}, `invalid value "a: b" for --timeout: want a duration such as 30s or 2m`},
			{[]string{"--count", "-1"}, `invalid value "-1" for --count: want a whole number from 0 to 18446744073709551615`},
			{[]string{"--quiet=maybe"}, `invalid value "maybe" for --quiet: want true or false`},
			{[]string{"---x"}, "bad flag syntax: ---x"},
		} {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.String("format", "svg", "")
			fs.String("out", "", "")
			fs.Duration("timeout", time.Minute, "")
			fs.Uint("count", 0, "")
			fs.Bool("quiet", false, "")
			if guarded {
				onceflag.Guard(fs)
			}
			err := fs.Parse(c.args)
			if err == nil {
				t.Fatalf("%q: parsed", c.args)
			}
			if got := Std(err, fs).Error(); got != c.want {
				t.Errorf("%q (guarded %v): %q, want %q", c.args, guarded, got, c.want)
			}
		}
	}
}

// TestStdEmpty: a string flag given "" is refused, named; an unset flag,
// a non-empty one and a flag of another type are not.
func TestStdEmpty(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", ""}, "--out must not be empty"},
		{[]string{"--format=x", "--out="}, "--out must not be empty"},
		{[]string{"--format", "svg", "--quiet"}, ""},
		{nil, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.String("format", "", "")
		fs.String("out", "", "")
		fs.Bool("quiet", false, "")
		onceflag.Guard(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		got := ""
		if err := StdEmpty(fs); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
