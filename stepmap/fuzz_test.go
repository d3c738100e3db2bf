package stepmap

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzLoadStepMap checks that loading and validating any bytes never
// panics, and that every diagnostic with a position points inside the input.
func FuzzLoadStepMap(f *testing.F) {
	for _, dir := range []string{"ok", "err"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.*"))
		for _, file := range files {
			if filepath.Ext(file) == ".out" {
				continue
			}
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(crossMap))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags := Load("f.yaml", data)
		lines := 1
		for _, c := range data {
			if c == '\n' || c == '\r' {
				lines++
			}
		}
		for _, d := range diags {
			if d.Pos.Line > lines || d.Pos.Line < 0 {
				t.Fatalf("diagnostic line %d beyond %d lines: %v", d.Pos.Line, lines, d)
			}
			if d.Code == "" || !utf8.ValidString(d.Code) {
				t.Fatalf("diagnostic without code: %v", d)
			}
		}
		if m != nil && !diags.HasErrors() {
			m.crossValidate(m.Workflow.ID, m.Workflow.Major, m.StateIDs())
			for _, id := range m.StateIDs() {
				for _, s := range m.States[id].Steps {
					_ = s.Label()
				}
			}
		}
	})
}
