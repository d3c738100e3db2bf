package workflow

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
)

var update = flag.Bool("update", false, "rewrite golden files")

// check loads and, when the shape is clean, validates one document, as a
// command would: the sorted list of every problem.
func check(file string, data []byte) diag.List {
	w, diags := Load(file, data)
	if w != nil && !diags.HasErrors() {
		diags.Extend(w.Validate())
	}
	return diags.Sorted()
}

// errorLines renders a list the way the .out files hold it: one d.Error()
// per line.
func errorLines(l diag.List) string {
	var b strings.Builder
	for _, d := range l {
		b.WriteString(d.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func fixtures(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"*.yaml", "*.json"} {
		m, err := filepath.Glob(filepath.Join("testdata", dir, pat))
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

// TestOK loads every testdata/ok document: each must load and validate
// without a single diagnostic.
func TestOK(t *testing.T) {
	for _, file := range fixtures(t, "ok") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got := check(filepath.Base(file), data); len(got) > 0 {
				t.Errorf("unexpected diagnostics:\n%s", errorLines(got))
			}
		})
	}
}

// TestErr loads every testdata/err document and compares its diagnostics
// with the sibling .out file, byte for byte.
func TestErr(t *testing.T) {
	for _, file := range fixtures(t, "err") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := errorLines(check(filepath.Base(file), data))
			if got == "" {
				t.Fatal("no diagnostics for a document that must fail")
			}
			golden := strings.TrimSuffix(file, filepath.Ext(file)) + ".out"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
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
		out, err := os.ReadFile(filepath.Join("testdata", "err", code+".out"))
		if err != nil {
			t.Errorf("no fixture for %s: %v", code, err)
			continue
		}
		if !strings.Contains(string(out), "["+code+"]") {
			t.Errorf("%s.out does not report %s", code, code)
		}
	}
}
