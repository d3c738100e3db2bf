package workflow

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

const codesDoc = "../docs/codes-workflow.md"

// docExample matches a `yaml <file>` block followed by a `text` block.
var docExample = regexp.MustCompile("(?s)```yaml ([^\\s`]+)\\n(.*?)```\\n\\n```text\\n(.*?)```\\n")

// TestDocumentedExamples checks that every example of docs/codes-workflow.md
// prints exactly the output the page shows, and that every code the package
// reports has an example there, so the page cannot drift.
func TestDocumentedExamples(t *testing.T) {
	raw, err := os.ReadFile(codesDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	matches := docExample.FindAllStringSubmatchIndex(doc, -1)
	if len(matches) == 0 {
		t.Fatal("no examples found")
	}
	var out strings.Builder
	last := 0
	seen := map[string]bool{}
	for _, m := range matches {
		file, input, want := doc[m[2]:m[3]], doc[m[4]:m[5]], doc[m[6]:m[7]]
		var b strings.Builder
		if err := diag.WriteText(&b, check(file, []byte(input)), nil); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		code := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		seen[code] = true
		if !strings.Contains(got, "["+code+"]") {
			t.Errorf("%s: the example does not report %s:\n%s", file, code, got)
		}
		if got != want && !*update {
			t.Errorf("%s: output differs\n--- got\n%s--- documented\n%s", file, got, want)
		}
		out.WriteString(doc[last:m[6]])
		out.WriteString(got)
		last = m[7]
	}
	out.WriteString(doc[last:])
	for _, code := range documentedCodes {
		if !seen[code] {
			t.Errorf("no example for %s", code)
		}
	}
	if *update && out.String() != doc {
		if err := os.WriteFile(codesDoc, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// documentedCodes are the codes docs/codes-workflow.md must explain.
var documentedCodes = []string{
	"unknown_field", "missing_field", "wrong_type", "conflicting_alias",
	CodeInvalidIdentifier, CodeInvalidReference, "invalid_predicate", "predicate_too_deep", "invalid_value",
	CodeEmptyWorkflow, CodeUnknownInitialState, CodeUnknownState, CodeDuplicateTransition,
	CodeRollbackOnIrreversibleState, CodeIncompleteRollbackPolicy, CodeDeadEndState,
	CodeUnreachableState,
}
