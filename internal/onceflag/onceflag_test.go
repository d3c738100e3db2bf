package onceflag

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestGuard(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", "a", "--out", "b"}, `--out is given twice ("a", then "b"); it takes one value, so give it once`},
		{[]string{"--out=a", "--out", "a"}, "--out is given twice; give it once"},
		{[]string{"--quiet", "--quiet=true"}, "--quiet is given twice; give it once"},
		{[]string{"--list", "a", "--list", "b", "--out", "a"}, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		out := fs.String("out", "", "")
		fs.Bool("quiet", false, "")
		var list []string
		fs.Func("list", "", func(v string) error { list = append(list, v); return nil })
		g := Guard(fs, "list")
		err := fs.Parse(tc.args)
		if tc.want == "" {
			if err != nil || g.Err() != nil || *out != "a" || len(list) != 2 {
				t.Errorf("%v: err %v, out %q, list %v", tc.args, err, *out, list)
			}
			continue
		}
		if err == nil || g.Err() == nil || g.Err().Error() != tc.want {
			t.Errorf("%v: Err() = %v; want %q", tc.args, g.Err(), tc.want)
		}
		if r, ok := As(g.Err()); !ok || r.Name != strings.TrimPrefix(strings.Fields(tc.want)[0], "--") {
			t.Errorf("%v: As = %v, %v", tc.args, r, ok)
		}
	}
}

// PrintDefaults prints what the flag package prints for the unwrapped
// flags: no "(default false)" for a boolean, no panic on a zero value.
func TestPrintDefaults(t *testing.T) {
	build := func() *flag.FlagSet {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.String("out", "", "the file")
		fs.String("format", "svg", "the format")
		fs.Bool("version", false, "the version")
		return fs
	}
	var want, got bytes.Buffer
	plain := build()
	plain.SetOutput(&want)
	plain.PrintDefaults()
	guarded := build()
	guarded.SetOutput(&got)
	Guard(guarded)
	PrintDefaults(guarded)
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
	if _, ok := guarded.Lookup("out").Value.(*value); !ok {
		t.Error("PrintDefaults left the values unwrapped")
	}
}
