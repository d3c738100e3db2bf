package conformance

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

func init() { register(instructCases...) }

// save returns a Then that writes the step's stdout to name under $WORK.
func save(name string) func(t *testing.T, e *Env, r Result) {
	return func(t *testing.T, e *Env, r Result) { writeFile(t, e, name, r.Stdout) }
}

// same returns a Then that requires the step's stdout to be the bytes of
// name under $WORK.
func same(name string) func(t *testing.T, e *Env, r Result) {
	return func(t *testing.T, e *Env, r Result) {
		if want := string(readFile(t, e.WorkPath(name))); r.Stdout != want {
			t.Errorf("stdout differs from %s:\n%s", name, r.Stdout)
		}
	}
}

var instructCases = []Case{
	{Name: "instruct/project", Setup: projectTree, Steps: []Step{
		{Args: []string{"aepflow", "instruct", "--root", "tree", "--id", "fx/flow", "--map", "fx/flow-steps"}, Golden: "instruct/project.md"},
		{Args: []string{"aepflow", "instruct", "--root", "tree", "--out", "D"}, Stdout: []string{`^D/fx/flow.md\nD/README.md\n\z`}},
		{Args: []string{"aepflow", "instruct", "--root", "tree", "--out", "D", "--check"}, NoStdout: true},
		{Args: []string{"aepflow", "instruct", "--root", "tree", "--id", "fx/nothing"}, Exit: 1, NoStdout: true, Stderr: []string{`\[unknown_workflow\]`}},
	}},

	// From cmd/aepflow/testdata/script/instruct_shared.txtar:
	// instructions.md §12.1 on the corpus tree, through the command line
	// (the facts themselves are held in instruct_corpus_test.go).
	{Name: "instruct/corpus-cli", Shared: true, Steps: []Step{
		// 1. --id adp/default and adp/default/2 give the same bytes,
		// twice; adp/default/1 is unknown_workflow.
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default"},
			Stdout: []string{"^`adp/default/2` · 10 states · 13 transitions · 15 principles bind it$"}, Then: save("one.md")},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default/2"}, Then: same("one.md")},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default"}, Then: same("one.md")},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default/1"}, Exit: 1,
			Stderr: []string{`\[unknown_workflow\]`, "the tree holds `adp/default` at version 2"},
			Then: func(t *testing.T, e *Env, r Result) {
				writeFile(t, e, "D/stale.md", string(readFile(t, e.WorkPath("one.md"))))
			}},
		// 2. Directory mode: the document and the index, in that order;
		// the index has one entry; a stale.md already there is left;
		// --check names it as the only orphan, with no diff; without it,
		// exit 0; one byte changed, a diff of that file only.
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--out", "D"},
			Stdout: []string{`^D/adp/default.md\nD/README.md\n\z`}, Then: func(t *testing.T, e *Env, r Result) {
				same("one.md")(t, e, Result{Stdout: string(readFile(t, e.WorkPath("D", "adp", "default.md")))})
				if _, err := os.Stat(e.WorkPath("D", "stale.md")); err != nil {
					t.Errorf("D/stale.md: %v", err)
				}
				index := string(readFile(t, e.WorkPath("D", "README.md")))
				if n := len(regexp.MustCompile(`(?m)^\* \[`).FindAllString(index, -1)); n != 1 {
					t.Errorf("the index has %d entries, want 1:\n%s", n, index)
				}
				for _, re := range []string{"^\\* \\[`adp/default.md`\\]\\(adp/default.md\\) — Standard development workflow \\(`adp/default/2`\\)$",
					`^aepflow instruct --root ROOT --out D$`} {
					if !regexp.MustCompile("(?m)" + re).MatchString(index) {
						t.Errorf("the index does not match %q:\n%s", re, index)
					}
				}
			}},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--out", "D", "--check"}, Exit: 1,
			Stdout: []string{`^orphan: D/stale.md\n\z`}, Then: func(t *testing.T, e *Env, r Result) {
				if err := os.Remove(e.WorkPath("D", "stale.md")); err != nil {
					t.Fatal(err)
				}
			}},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--out", "D", "--check"}, NoStdout: true,
			Then: func(t *testing.T, e *Env, r Result) {
				doc := string(readFile(t, e.WorkPath("D", "adp", "default.md")))
				writeFile(t, e, "D/adp/default.md", regexp.MustCompile(`(?m)^# Standard`).ReplaceAllString(doc, "# standard"))
			}},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--out", "D", "--check"}, Exit: 1,
			Stdout: []string{`^--- D/adp/default.md$`, `^-# standard development workflow$`}, Then: func(t *testing.T, e *Env, r Result) {
				if strings.Contains(r.Stdout, "README") {
					t.Errorf("the diff names the index:\n%s", r.Stdout)
				}
			}},
		// 3. No --out: out_required naming 1 document; --map x without
		// --id: exit 2.
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree"}, Exit: 1, Stderr: []string{`1 document for this tree.*\[out_required\]`}},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--map", "x"}, Exit: 2},
		// 4. The map by id and by file give the same bytes; a copy pinned
		// to adp/default/1, outside the tree, is version_mismatch naming
		// the map and adp/default/2.
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default", "--map", "development/default"}, Then: save("mapped.md")},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default", "--map", "$SHARED/corpus/tree/drivers/development/default.yaml"},
			Then: func(t *testing.T, e *Env, r Result) {
				same("mapped.md")(t, e, r)
				src := string(readFile(t, e.SharedPath("corpus", "tree", "drivers", "development", "default.yaml")))
				writeFile(t, e, "old.yaml", regexp.MustCompile(`(?m)^workflow: adp/default/2`).ReplaceAllString(src, "workflow: adp/default/1"))
			}},
		{Args: []string{"aepflow", "instruct", "--root", "$SHARED/corpus/tree", "--id", "adp/default", "--map", "old.yaml"}, Exit: 1,
			Stderr: []string{`\[version_mismatch\]`, "the step map `development/default` does not apply to workflow `adp/default/2` \\[map_does_not_apply\\]"}},
	}},
}
