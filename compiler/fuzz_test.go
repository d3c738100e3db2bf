package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/flow"
	"github.com/aepflow/aepflow/workflow"
)

// maxFuzzInput bounds the workflows FuzzProjection reads, in bytes; the
// largest seed is 740. Why a bound: Go minimizes every input that finds new
// coverage with about n²/2 calls of the fuzz function — here a load, a
// validation and, per format, two projections and three flow checks — so
// the mutator's kilobyte-sized inputs would keep a worker minimizing, not
// fuzzing (docs/fuzzing.md). Every projection rule shows on a few states.
const maxFuzzInput = 1024

// FuzzProjection projects arbitrary workflows: whatever loads and validates
// cleanly either is refused by the projection itself or yields, in YAML and
// in JSON, bytes the flow checker accepts (the generator must never emit a
// document plan refuses), and the same bytes on every run. The one
// exception is the documented one (projection.md §6.3): a text holding a
// C0 control character is warned about (control_character_in_text) and
// cannot be written as YAML, so the YAML document is refused; JSON, which
// escapes it, must still pass.
func FuzzProjection(f *testing.F) {
	files, err := filepath.Glob("testdata/project/*.yaml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, ".map.yaml") {
			continue // a step map, not a workflow
		}
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		w := loadClean(data)
		if w == nil {
			return
		}
		_, pds := Project(w, Options{})
		for _, format := range []Format{YAML, JSON} {
			out, _, ds := Generate(w, Options{}, format)
			if pds.HasErrors() {
				if out != nil {
					t.Fatalf("%s: bytes despite projection errors %v", format, pds)
				}
				continue
			}
			if format == YAML && hasCode(ds, CodeControlCharacter) {
				if out != nil {
					t.Fatalf("yaml: bytes despite a control character the warning says YAML cannot carry:\n%s", out)
				}
				continue
			}
			if out == nil || ds.HasErrors() {
				t.Fatalf("%s: the generated document is refused: %v\n%s", format, ds, data)
			}
			name := "generated." + string(format)
			if _, checked := flow.CheckBytes(name, out, flow.CheckOptions{}); checked.HasErrors() {
				t.Fatalf("%s: flow check refuses the output: %v\n%s", format, checked, out)
			}
			// A fresh load too, so that map order in Load cannot hide.
			again, _, _ := Generate(loadClean(data), Options{}, format)
			if !bytes.Equal(out, again) {
				t.Fatalf("%s: not deterministic:\n%s\n---\n%s", format, out, again)
			}
		}
	})
}

// hasCode reports whether l holds a diagnostic with code.
func hasCode(l diag.List, code string) bool {
	for _, d := range l {
		if d.Code == code {
			return true
		}
	}
	return false
}

// loadClean loads and validates a workflow, or returns nil on any error.
func loadClean(data []byte) *workflow.Workflow {
	w, ds := workflow.Load("f.yaml", data)
	if w == nil || ds.HasErrors() {
		return nil
	}
	if w.Validate().HasErrors() {
		return nil
	}
	return w
}
