package main

import (
	"fmt"
	"github.com/aepflow/aepflow/analysis"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/engine/artifact"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/ident"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/gitrev"
	"github.com/aepflow/aepflow/internal/testkit"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/project"
	"github.com/aepflow/aepflow/render"
	"github.com/aepflow/aepflow/transition"
	"github.com/aepflow/aepflow/tree"
	"github.com/aepflow/aepflow/yamldoc"
)

// TestSecurityBounds checks the limits of docs/security.md's Bounds table
// against the constants the readers use (the companion's rows are checked
// by render/graphviz, which this binary must not link).
func TestSecurityBounds(t *testing.T) {
	rows := testkit.TableRows(t, "../../docs/security.md", "## Bounds")
	size := fsio.FormatSize
	checked := map[string]string{
		"AEP document (tree file, `validate FILE`, `flow --workflow`, `--map FILE`, `drivers/`, `diff OLD NEW`, a file of `diff --against`'s revision)": size(yamldoc.MaxFileSize),
		"a git revision's documents in all (`diff --against`), from git's listing before a blob is read":                                                size(maxRevisionBytes),
		"a git revision's listing (`git ls-tree`, `diff --against`)":                                                                                    size(gitrev.MaxListing),
		"AEP document nesting":                                                       fmt.Sprintf("%d levels", yamldoc.MaxDepth),
		"a tree's documents in all":                                                  size(tree.MaxTreeBytes),
		"task document (`--task`, the project's task)":                               size(yamldoc.MaxFileSize),
		"evidence document (`evaluate --evidence`)":                                  size(yamldoc.MaxFileSize) + " each",
		"evidence documents of one `evaluate` in all":                                size(maxEvidenceBytes),
		"engine snapshot (`evaluate --snapshot`, `render --snapshot`)":               size(yamldoc.MaxFileSize),
		"`project.yaml`":                                                             size(yamldoc.MaxFileSize),
		"planning file (`planning/<dir>/<name>.md`)":                                 size(artifact.MaxPlanningFile),
		"a planning store in all":                                                    size(artifact.MaxStoreBytes),
		"entries of a planning store (files and directories, planning files or not)": grouped(artifact.MaxStoreEntries),
		"entries one walk of a tree's directory meets (files and directories, documents or not, at any depth)": grouped(tree.MaxDirEntries),
		"run file (snapshot, cursor)":                                       size(project.MaxRunFile) + " (a snapshot is then decoded under the document bound, " + size(yamldoc.MaxFileSize) + ")",
		"run record (`state.json`, a generation's manifest, `launch.json`)": size(project.MaxRunRecord),
		"flow document (`plan --flow`)":                                     size(flow.MaxSize),
		"flow document nesting":                                             fmt.Sprintf("%d levels", flow.MaxDepth),
		"the hook's stdin":                                                  size(transition.MaxStdin),
		"the hook's stdin, until the writer closes it":                      fmt.Sprintf("%d s", int(transition.MaxStdinWait.Seconds())),
		"standard input (every `-` but a transcript's), until it ends":      fmt.Sprintf("%d s in all (`maxStdinWait`), from the first read", int(maxStdinWait.Seconds())),
		"the `--out` file `--check` compares with (`flow`, `render`; each file of `instruct --check`'s directory)": size(maxCheckedFile),
		"what `aepflow render` holds of the companion's stdout, and of its stderr":                                 size(int64(maxCompanionOutput)) + " each; the companion is then killed",
		"a workflow laid out as SVG or PNG":         fmt.Sprintf("%d states, %d transitions", render.MaxLayoutStates, render.MaxLayoutTransitions),
		"predicate nesting":                         fmt.Sprintf("%d levels", predicate.MaxDepth),
		"scenario document (`simulate --evidence`)": size(analysis.MaxScenarioFile) + " each",
		"records of one `simulate`, all scenario files together, and all its walk submits": fmt.Sprintf("%d records", analysis.MaxScenarioRecords),
		"a `simulate` walk":                                                            fmt.Sprintf("a visit budget of at most %d per state, %d moves", analysis.MaxVisitBudget, analysis.MaxMoves),
		"one `analyze` decision":                                                       fmt.Sprintf("%d conjuncts, %d pair intersections, %d atom comparisons", analysis.MaxConjuncts, analysis.MaxDecisionPairs, analysis.MaxDecisionWork),
		"one workflow's `analyze` decisions in all":                                    fmt.Sprintf("%d pair intersections, %d atom comparisons", analysis.MaxWorkflowPairs, analysis.MaxWorkflowWork),
		"diagnostics printed per file, in text (JSON and SARIF keep all)":              fmt.Sprint(diag.DefaultMaxPerFile),
		"a source line printed under a diagnostic":                                     fmt.Sprintf("%d code points around the caret", diag.DefaultMaxWidth),
		"identifier length":                                                            fmt.Sprintf("%d bytes", ident.MaxLen),
		"the companion's layout time (`aepflow-render --timeout`, `render --timeout`)": "60 s; `aepflow render` kills the companion " + strings.TrimSuffix(companionGrace.String(), "s") + " s past it",
	}
	for first, want := range checked {
		row, ok := rows[first]
		if !ok {
			t.Errorf("docs/security.md has no bounds row %q", first)
			continue
		}
		if row[1] != want {
			t.Errorf("row %q: the limit reads %q; the code says %q", first, row[1], want)
		}
	}
	for first := range rows {
		if _, ok := checked[first]; !ok && checkedElsewhere[first] == "" {
			t.Errorf("docs/security.md's bounds row %q is checked by no test: add it to TestSecurityBounds or to checkedElsewhere", first)
		}
	}
	if d := renderTimeoutDefault(t); d != "1m0s" {
		t.Errorf("render --timeout defaults to %s; docs/security.md says 60 s", d)
	}
}

// grouped writes n as the page does, its thousands comma-separated.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// checkedElsewhere names the rows of docs/security.md's Bounds table that
// TestSecurityBounds does not compare with a constant of this binary, and
// why each is still kept honest; a new row must go here or there.
var checkedElsewhere = map[string]string{
	"input": "the header",
	"any file read, when it is not a regular file":          "a behaviour: internal/fsio/fsio_test.go, inputs_special.txtar",
	"anchors, aliases, merge keys":                          "a behaviour: yamldoc/yamldoc_test.go",
	"flow document values (YAML aliases expanded)":          "flow/read.go's unexported maxValues: not compared with the page",
	"DOT text on the companion's stdin":                     "render/graphviz/graphviz_test.go (this binary must not link it)",
	"DOT text on the companion's stdin, until it ends":      "cmd/aepflow-render/main_test.go (this binary must not link it)",
	"DOT that holds no graph (empty, blank, comments only)": "a behaviour: cmd/aepflow-render/main_test.go",
	"a graph the companion lays out":                        "render/graphviz/graphviz_test.go",
	"a PNG picture":                                         "render/graphviz/graphviz_test.go",
	"`extends` chains (protocols, profiles)":                "unexported in tree and engine: engine/references_test.go checks the refusal, not the number",
	"project discovery":                                     "project's unexported maxDiscoveryLevels: project/project_test.go",
	"the search for nearby trees (`empty_tree`'s hint)":     "tree/empty.go's unexported bounds: not compared with the page",
}

// renderTimeoutDefault returns the default of `render --timeout`.
func renderTimeoutDefault(t *testing.T) string {
	f := newRenderCmd().Flags().Lookup("timeout")
	if f == nil {
		t.Fatal("render has no --timeout")
	}
	return f.DefValue
}
