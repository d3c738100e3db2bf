package compiler

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/workflow"
)

const codesDoc = "../docs/codes-projection.md"

// docHeading matches the `### code` heading that opens a section.
var docHeading = regexp.MustCompile("(?m)^### `([a-z_]+)`$")

// docBlock matches a `yaml <file>` or `text` block.
var docBlock = regexp.MustCompile("(?s)```(yaml|text) ?([^\\s`]*)\\n(.*?)```\\n")

// TestDocumentedExamples checks that every example of
// docs/codes-projection.md prints exactly the output the page shows, and
// that every projection code has an example, so the page cannot drift.
func TestDocumentedExamples(t *testing.T) {
	raw, err := os.ReadFile(codesDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	out := doc
	seen := map[string]bool{}
	heads := docHeading.FindAllStringSubmatchIndex(doc, -1)
	for i, h := range heads {
		code, end := doc[h[2]:h[3]], len(doc)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		body := doc[h[1]:end]
		seen[code] = true
		files := map[string][]byte{}
		var workflowFile, mapFile, want string
		for _, b := range docBlock.FindAllStringSubmatch(body, -1) {
			switch {
			case b[1] == "text":
				want = b[3]
			case strings.HasSuffix(b[2], ".map.yaml"):
				mapFile, files[b[2]] = b[2], []byte(b[3])
			default:
				workflowFile, files[b[2]] = b[2], []byte(b[3])
			}
		}
		got := projectExample(t, files, workflowFile, mapFile)
		if !strings.Contains(got, "["+code+"]") {
			t.Errorf("%s: the example does not report it:\n%s", code, got)
		}
		if got != want {
			if *update {
				out = strings.Replace(out, "```text\n"+want+"```", "```text\n"+got+"```", 1)
				continue
			}
			t.Errorf("%s: output differs\n--- got\n%s--- documented\n%s", code, got, want)
		}
	}
	for _, code := range []string{CodeNothingToRun, CodeMapDoesNotApply, CodeMisreadByGovernor, CodeRefusedByHarness, CodeNotPlainString, CodeControlCharacter} {
		if !seen[code] {
			t.Errorf("no example for %s", code)
		}
	}
	if *update && out != doc {
		if err := os.WriteFile(codesDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// projectExample projects the example as `aepflow flow --workflow FILE
// [--map FILE]` does and returns the diagnostics as the text printer
// prints them.
func projectExample(t *testing.T, files map[string][]byte, workflowFile, mapFile string) string {
	t.Helper()
	w, ds := workflow.Load(workflowFile, files[workflowFile])
	ds.Extend(w.Validate())
	if ds.HasErrors() {
		t.Fatalf("%s does not load: %v", workflowFile, ds.Err())
	}
	var opts Options
	if mapFile != "" {
		read := func(name string) ([]byte, error) {
			if data, ok := files[name]; ok {
				return data, nil
			}
			return nil, errors.New("no such example file")
		}
		m, mds := SelectMap(mapFile, nil, w, read)
		ds.Extend(mds)
		opts.Map = m
	}
	if !ds.HasErrors() {
		_, _, gds := Generate(w, opts, YAML)
		ds.Extend(gds)
	}
	var b strings.Builder
	if err := diag.WriteText(&b, ds.Sorted(), nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
