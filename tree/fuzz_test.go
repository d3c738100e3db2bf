package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aepflow/aepflow/internal/testkit"
)

// FuzzLoadTreeFile decodes any bytes as each kind of tree document, alone
// and inside a small tree (so that the registry-wide checks judge it, with
// or without shape errors), and checks that nothing panics and that
// positions stay inside the input.
func FuzzLoadTreeFile(f *testing.F) {
	files, _ := filepath.Glob("../examples/tree/*/*/*.yaml")
	more, _ := filepath.Glob("../examples/tree/*/*.yaml")
	shaky, _ := filepath.Glob("testdata/shaky/*/*.yaml")
	for _, file := range append(append(files, more...), shaky...) {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, uint8(0))
		}
	}
	f.Add([]byte("id: TASK-1\nobjective: x\n"), uint8(2))
	// Files that hold no mapping: no kind to tell, refused as what they
	// hold (a sequence, a scalar, null, an empty document).
	for _, s := range []string{"- a\n- b\n", "hello\n", "# c\nnull\n", "---\n", "--- \n...\n", "!!binary aGk=\n", "\"\"\n"} {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte("\u00850"), uint8(0)) // NEL is a line break to YAML: the 0 stands on line 2
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		kind := Kinds[int(k)%len(Kinds)]
		lines := testkit.LineBound(data)
		for _, try := range []Kind{kind, ""} {
			_, diags := LoadDocument("f.yaml", data, try)
			for _, d := range diags {
				if d.Pos.Line > lines || d.Code == "" {
					t.Fatalf("bad diagnostic %v (input has %d lines)", d, lines)
				}
			}
		}
		_, diags := LoadSources(".", []Source{
			{Path: "workflows/w.yaml", Kind: KindWorkflow, Data: []byte(fuzzWorkflow)},
			{Path: "protocols/base.yaml", Kind: KindProtocol, Data: []byte("id: base\ntitle: B\nverifiers: [compiler]\n")},
			{Path: "f.yaml", Kind: kind, Data: data},
		})
		for _, d := range diags {
			if d.Code == "" || (d.File == "f.yaml" && d.Pos.Line > lines) {
				t.Fatalf("bad diagnostic %v (input has %d lines)", d, lines)
			}
		}
	})
}

// fuzzWorkflow is the workflow the fuzzed step maps may pin.
const fuzzWorkflow = "id: demo/w\ntitle: W\ninitial: a\nstates:\n  a: {title: A}\n  b: {title: B, terminal: true}\ntransitions:\n  - {from: a, to: b}\n"
