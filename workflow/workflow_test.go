package workflow

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

// check runs Check and keeps the diagnostics.
func check(file string, data []byte) diag.List {
	_, diags := Check(file, data)
	return diags
}

// errorLines renders a list the way the .out files hold it: one d.Error()
// per line.
var errorLines = testkit.Lines

// fixtures checks the documents of ../testdata/workflow (shared with
// package schemas) under their base names.
var fixtures = testkit.Fixtures{
	Check: func(_ *testing.T, file string, data []byte) diag.List {
		return check(filepath.Base(file), data)
	},
	Print:   errorLines,
	Require: testkit.RequireDiagnostic,
}

// TestOK loads every ../testdata/workflow/ok document: each must load and validate
// without a single diagnostic.
func TestOK(t *testing.T) {
	fixtures.Clean(t, "../testdata/workflow/ok/*.yaml", "../testdata/workflow/ok/*.json")
}

// TestErr loads every ../testdata/workflow/err document and compares its diagnostics
// with the sibling .out file, byte for byte.
func TestErr(t *testing.T) {
	fixtures.Golden(t, *update, "../testdata/workflow/err/*.yaml", "../testdata/workflow/err/*.json")
}

// TestErrFixturesCoverEveryCode makes sure each code the package documents
// has an err fixture whose output names it.
func TestErrFixturesCoverEveryCode(t *testing.T) {
	codes := []string{
		"yaml_syntax", "duplicate_key", "yaml_alias", "non_string_key", "unknown_field",
		"missing_field", "wrong_type", "conflicting_alias", "invalid_identifier",
		"invalid_reference", "invalid_predicate", "predicate_too_deep", "invalid_value",
		CodeEmptyWorkflow, CodeUnknownInitialState, CodeUnknownState, CodeDuplicateTransition,
		CodeRollbackOnIrreversibleState, CodeIncompleteRollbackPolicy, CodeDeadEndState,
		CodeUnreachableState,
	}
	for _, code := range codes {
		out, err := os.ReadFile(filepath.Join("..", "testdata", "workflow", "err", code+".out"))
		if err != nil {
			t.Errorf("no fixture for %s: %v", code, err)
			continue
		}
		if !strings.Contains(string(out), "["+code+"]") {
			t.Errorf("%s.out does not report %s", code, code)
		}
	}
}
