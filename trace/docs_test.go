package trace

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
)

const traceDoc = "../docs/trace.md"

// docRefusalHeading matches the `### CODE — title` heading that opens the
// section of one refusal code.
var docRefusalHeading = regexp.MustCompile("(?m)^### (TRACE-[A-Z]+-[0-9]{3}) — ")

// docRefusalExample matches an input block with a file name followed by the
// `text` block of what `aepflow trace` prints on stderr for it.
var docRefusalExample = regexp.MustCompile("(?s)```[a-z]+ ([^\\s`]+)\\n(.*?)```\\n\\n```text\\n(.*?)```\\n")

// TestDocumentedRefusals checks that every refusal example of docs/trace.md
// prints exactly the lines the page shows, and that every refusal code has
// an example in its own section, so the page cannot drift. With -update it
// rewrites the documented outputs for review.
func TestDocumentedRefusals(t *testing.T) {
	raw, err := os.ReadFile(traceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	var out strings.Builder
	last := 0
	seen := map[string]bool{}
	heads := docRefusalHeading.FindAllStringSubmatchIndex(doc, -1)
	for i, h := range heads {
		code, end := doc[h[2]:h[3]], len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		} else if next := strings.Index(doc[h[1]:], "\n## "); next >= 0 {
			end = h[1] + next + 1
		}
		for _, m := range docRefusalExample.FindAllStringSubmatchIndex(doc[h[1]:end], -1) {
			at := func(k int) int { return h[1] + m[k] }
			file, input, want := doc[at(2):at(3)], doc[at(4):at(5)], doc[at(6):at(7)]
			got := refuseExample(t, file, []byte(input))
			seen[code] = true
			if !strings.Contains(got, "\n"+code+" at ") {
				t.Errorf("%s: the example %s does not report it:\n%s", code, file, got)
			}
			if got != want && !*update {
				t.Errorf("%s: output of %s differs\n--- got\n%s--- documented\n%s", code, file, got, want)
			}
			out.WriteString(doc[last:at(6)])
			out.WriteString(got)
			last = at(7)
		}
	}
	out.WriteString(doc[last:])
	for _, code := range []string{
		CodeAdaptUnreadable, CodeAdaptEmpty,
		CodeSpecFormat, CodeSpecShape, CodeSpecDuplicateID, CodeSpecEmpty,
		CodeSpecUndecidable, CodeSpecMalformedID, CodeSpecUnsatisfiable, CodeSpecBadRegex,
	} {
		if !seen[code] {
			t.Errorf("no example for %s", code)
		}
	}
	if *update && out.String() != doc {
		if err := fsio.WriteFile(traceDoc, []byte(out.String()), fsio.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// refuseExample reads the example as `aepflow trace` does — a `.jsonl` file
// as a transcript, anything else as a specification — and returns what the
// command prints on stderr: the header, then one line per refusal.
func refuseExample(t *testing.T, file string, data []byte) string {
	t.Helper()
	var header string
	var refusals diag.List
	if filepath.Ext(file) == ".jsonl" {
		var adapter Adapter
		_, adapter, refusals = Read(data)
		header = fmt.Sprintf("transcript %s refused (read as %s)", file, adapter.Name)
	} else {
		_, refusals = ReadSpec(data)
		header = fmt.Sprintf("specification %s refused", file)
	}
	if len(refusals) == 0 {
		t.Errorf("%s is not refused", file)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d refusal(s)\n", header, len(refusals))
	for _, d := range refusals {
		b.WriteString(FormatRefusal(d) + "\n")
	}
	return b.String()
}
