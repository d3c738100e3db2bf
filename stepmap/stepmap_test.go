package stepmap

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints diagnostics as the .out files hold them.
var render = testkit.Detailed

// fixtureDir holds the step-map fixtures, shared with package schemas.
var fixtureDir = filepath.Join("..", "testdata", "stepmap")

// fixtureName is the name diagnostics give a fixture: its path below
// fixtureDir, as `testdata/…`.
func fixtureName(file string) string {
	rel, err := filepath.Rel(fixtureDir, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(filepath.Join("testdata", rel))
}

// fixtures loads the step maps of fixtureDir; a clean load must yield a
// map.
var fixtures = testkit.Fixtures{
	Check: func(t *testing.T, file string, data []byte) diag.List {
		m, diags := Load(fixtureName(file), data)
		if len(diags) == 0 && m == nil {
			t.Fatal("no diagnostics and no map")
		}
		return diags
	},
	Print:   render,
	Require: testkit.RequireError,
}

func TestOKFixtures(t *testing.T) {
	fixtures.Clean(t, "../testdata/stepmap/ok/*.yaml", "../testdata/stepmap/ok/*.json")
}

func TestErrFixtures(t *testing.T) {
	fixtures.Golden(t, *update, "../testdata/stepmap/err/*.yaml", "../testdata/stepmap/err/*.json")
}

func TestDecodedModel(t *testing.T) {
	data, err := os.ReadFile("../testdata/stepmap/ok/full.yaml")
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
