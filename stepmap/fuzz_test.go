package stepmap

import (
	"testing"
	"unicode/utf8"

	"github.com/aepflow/aepflow/internal/testkit"
)

// FuzzLoadStepMap checks that loading and validating any bytes never
// panics, and that every diagnostic with a position points inside the input.
func FuzzLoadStepMap(f *testing.F) {
	testkit.Seed(f, "../testdata/stepmap/ok/*.*", "../testdata/stepmap/err/*.*")
	f.Add([]byte(crossMap))
	f.Add([]byte("\u00850")) // NEL is a line break to YAML: the 0 stands on line 2
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags := Load("f.yaml", data)
		lines := testkit.LineBound(data)
		for _, d := range diags {
			if d.Pos.Line > lines || d.Pos.Line < 0 {
				t.Fatalf("diagnostic line %d beyond %d lines: %v", d.Pos.Line, lines, d)
			}
			if d.Code == "" || !utf8.ValidString(d.Code) {
				t.Fatalf("diagnostic without code: %v", d)
			}
		}
		if m != nil {
			// Cross-validation runs on maps with shape errors too (the
			// tree checks what decoded), so it must hold on any map.
			m.crossValidate(m.Workflow.ID, m.Workflow.Major, m.StateIDs())
			m.crossValidate(m.Workflow.ID, m.Workflow.Major, nil)
			for _, id := range m.StateIDs() {
				for _, s := range m.States[id].Steps {
					_ = s.Label()
				}
			}
		}
	})
}
