package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// consoleBlock matches a ```console block: its `$ aepflow …` line and the
// output that follows.
var consoleBlock = regexp.MustCompile("(?s)```console\n\\$ aepflow ([^\n]*)\n(.*?)```")

// TestAnalysisDocs runs every console block of docs/analyze.md and
// docs/simulate.md in testdata/analyze-docs and compares the output byte
// for byte, so the worked examples cannot drift.
func TestAnalysisDocs(t *testing.T) {
	dir, err := filepath.Abs("testdata/analyze-docs")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, page := range []string{"../../docs/analyze.md", "../../docs/simulate.md"} {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range consoleBlock.FindAllStringSubmatch(string(data), -1) {
			n++
			args := strings.Fields(m[1])
			t.Run(filepath.Base(page)+" "+m[1], func(t *testing.T) {
				t.Chdir(dir)
				var stdout, stderr bytes.Buffer
				run(args, strings.NewReader(""), &stdout, &stderr)
				if got := stdout.String(); got != m[2] {
					t.Errorf("%s: the page shows\n%s\nthe command prints\n%s%s", page, m[2], got, stderr.String())
				}
			})
		}
	}
	if n < 2 {
		t.Fatalf("found %d console blocks, want one per page at least", n)
	}
}

// TestSimulateRefusesLargeScenario writes a scenario over the 4 MiB cap:
// it is refused before it is parsed, with nothing on stdout.
func TestSimulateRefusesLargeScenario(t *testing.T) {
	dir, err := filepath.Abs("testdata/analyze-docs")
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("# padding\n"), 500_000), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"simulate", "--id", "demo/gate", "--evidence", big}, strings.NewReader(""), &stdout, &stderr); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "the file is 5000000 bytes, over the limit of 4194304 bytes [input_too_large]") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}
