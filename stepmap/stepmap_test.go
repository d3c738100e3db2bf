package stepmap

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints diagnostics one per line with their document path, then
// the hint indented: the form the .out files hold.
func render(l diag.List) string {
	var b strings.Builder
	for _, d := range l.Sorted() {
		b.WriteString(d.Error())
		if d.Path != "" && d.File != "" {
			b.WriteString(" @ " + d.Path)
		}
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("  hint: " + d.Hint + "\n")
		}
	}
	return b.String()
}

func fixtures(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	for _, ext := range []string{"*.yaml", "*.json"} {
		m, err := filepath.Glob(filepath.Join("testdata", dir, ext))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s", dir)
	}
	return files
}

func TestOKFixtures(t *testing.T) {
	for _, f := range fixtures(t, "ok") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, diags := Load(f, data)
			if len(diags) > 0 || m == nil {
				t.Fatalf("want no diagnostics, got:\n%s", render(diags))
			}
		})
	}
}

func TestErrFixtures(t *testing.T) {
	for _, f := range fixtures(t, "err") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, diags := Load(f, data)
			if !diags.HasErrors() {
				t.Fatalf("want errors, got none")
			}
			golden(t, strings.TrimSuffix(f, filepath.Ext(f))+".out", render(diags))
		})
	}
}

// golden compares got with the file, or rewrites the file under -update.
func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("diagnostics differ from %s\ngot:\n%s\nwant:\n%s", file, got, want)
	}
}

func TestDecodedModel(t *testing.T) {
	data, err := os.ReadFile("testdata/ok/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, diags := Load("full.yaml", data)
	if len(diags) != 0 {
		t.Fatal(render(diags))
	}
	if m.Workflow.ID != "demo/review" || m.Workflow.Major != 1 || m.WorkflowText != "workflow:demo/review/1" {
		t.Errorf("pin = %+v %q", m.Workflow, m.WorkflowText)
	}
	if got := strings.Join(m.StateIDs(), ","); got != "done,draft,review" {
		t.Errorf("state ids = %s", got)
	}
	draft := m.States["draft"]
	if draft.VisitBudget != 5 || m.States["review"].VisitBudget != DefaultVisitBudget || m.States["done"].VisitBudget != DefaultVisitBudget {
		t.Errorf("budgets: %d %d", draft.VisitBudget, m.States["review"].VisitBudget)
	}
	llm, cmd, rec := draft.Steps[0], draft.Steps[1], draft.Steps[2]
	if llm.Harness != "b10x" || llm.Retries != 1 || strings.Join(llm.Context, "|") != "docs/plan.md|README.md" {
		t.Errorf("llm step: %+v", llm)
	}
	if llm.Scope[0].Paths[0] != "src/**" || llm.Scope[1].Write != WritePartialOnly {
		t.Errorf("scope: %+v", llm.Scope)
	}
	e := cmd.Evidence
	if e.Kind != "test_result" || e.Suite != "e2e" || e.Subject != "story:AUTH-1" || e.Tool != "go" || cmd.Retries != 0 {
		t.Errorf("evidence normalisation: %+v retries %d", e, cmd.Retries)
	}
	if *cmd.CircuitBreaker != 2 || *cmd.DependsOn != "database" {
		t.Errorf("breaker: %v %v", cmd.CircuitBreaker, cmd.DependsOn)
	}
	if rec.Retries != DefaultCommandRetries || *rec.Evidence.Record != "{run_directory}/v.yaml" {
		t.Errorf("record step: %+v", rec)
	}
	if m.States["review"].Steps[0].Retries != 0 {
		t.Error("operator retries must be 0")
	}
}

func TestLabel(t *testing.T) {
	desc := "the unit suite"
	tests := []struct {
		step Step
		want string
	}{
		{Step{Kind: KindCommand, Description: &desc, Run: []string{"go", "test"}}, desc},
		{Step{Kind: KindCommand, Run: []string{"go", "test", "./..."}}, "go test ./..."},
		{Step{Kind: KindLLM, Prompt: "Write it."}, "Write it."},
		{Step{Kind: KindOperator, Prompt: "Approve."}, "Approve."},
	}
	for _, tt := range tests {
		if got := tt.step.Label(); got != tt.want {
			t.Errorf("Label() = %q, want %q", got, tt.want)
		}
	}
}
