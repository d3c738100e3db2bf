package evidence

import (
	"bytes"
	"os"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/predicate"
	"github.com/aepflow/aepflow/yamldoc"
)

func decodeOne(t testing.TB, data []byte) Record {
	t.Helper()
	doc, diags := yamldoc.Parse("r.json", data)
	if doc == nil {
		t.Fatalf("%v", diags)
	}
	r := yamldoc.NewReader(doc, &diags)
	rec, ok := ReadRecord(r, doc.Root, "record")
	if !ok || diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, data)
	}
	return rec
}

// FuzzReadDocument: evidence documents never panic, positions stay inside
// the input, and admitted records re-encode stably.
func FuzzReadDocument(f *testing.F) {
	if data, err := os.ReadFile("testdata/all-kinds.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("- {kind: diff, observed_at: 2024-01-01, producer: {producer: agent, id: a}}"))
	f.Add([]byte("[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, diags := ReadDocument("f.yaml", data, now)
		lines := bytes.Count(data, []byte("\n")) + 2
		for _, d := range diags {
			if d.Pos.Line > lines {
				t.Errorf("position %v beyond %d lines: %v", d.Pos, lines, d)
			}
		}
		for _, r := range recs {
			r.Project(func(string, predicate.Value) {})
			var b bytes.Buffer
			r.AppendJSON(&b)
			doc, ds := yamldoc.Parse("r.json", b.Bytes())
			if doc == nil {
				t.Fatalf("re-read failed: %v\n%s", ds, b.Bytes())
			}
			var l diag.List
			back, ok := ReadRecord(yamldoc.NewReader(doc, &l), doc.Root, "r")
			if !ok {
				t.Fatalf("re-read refused: %v\n%s", l, b.Bytes())
			}
			var b2 bytes.Buffer
			back.AppendJSON(&b2)
			if !bytes.Equal(b.Bytes(), b2.Bytes()) {
				t.Fatalf("unstable:\n%s\n%s", b.Bytes(), b2.Bytes())
			}
		}
	})
}
