package hookmain

import (
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/transition"
)

// FuzzParse feeds command lines (arguments separated by NUL) to the flag
// parser: it must never panic, and a command line it accepts must hold no
// positional argument and no value transition.CheckValue refuses, and a
// refusal is worded on one line.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"--project\x00/p\x00--run\x00T/1",
		"--project=\x00x",
		"--plugin-dir\x00/a\x00--plugin-dir=/b",
		"--run",
		"-h",
		"--\x00--project\x00p",
		"-project\x00p",
		"--task\x00-",
		"--projet\x00p",
		"-x",
		"---project=p",
		"--map=a=b",
		"--x\ny\x1b[31m\x00p",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		var opts transition.Options
		var version bool
		_, err := parse(args, &opts, &version)
		if err != nil {
			var b strings.Builder
			printLine(&b, err.Error())
			if line := b.String(); !errors.Is(err, flag.ErrHelp) && strings.Count(line, "\n") != 1 || strings.ContainsAny(strings.TrimSuffix(line, "\n"), "\r\n\x1b") {
				t.Errorf("parse(%q): a message of more than one line: %q", args, line)
			}
			return
		}
		for _, fl := range opts.Flags() {
			for _, v := range fl.Values() {
				if transition.CheckValue(fl.Name, v) != nil && v != "" {
					t.Errorf("parse(%q) accepted --%s %q", args, fl.Name, v)
				}
			}
		}
	})
}
