package tree

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadTreeFile decodes any bytes as each kind of tree document and
// checks that nothing panics and that positions stay inside the input.
func FuzzLoadTreeFile(f *testing.F) {
	files, _ := filepath.Glob("../examples/tree/*/*/*.yaml")
	more, _ := filepath.Glob("../examples/tree/*/*.yaml")
	for _, file := range append(files, more...) {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, uint8(0))
		}
	}
	f.Add([]byte("id: TASK-1\nobjective: x\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		kind := Kinds[int(k)%len(Kinds)]
		lines := 1
		for _, c := range data {
			if c == '\n' || c == '\r' {
				lines++
			}
		}
		for _, try := range []Kind{kind, ""} {
			_, diags := LoadDocument("f.yaml", data, try)
			for _, d := range diags {
				if d.Pos.Line > lines || d.Code == "" {
					t.Fatalf("bad diagnostic %v (input has %d lines)", d, lines)
				}
			}
		}
	})
}
