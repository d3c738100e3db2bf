package evidence

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/yamldoc"
)

// TestNullFieldRefused: a payload key given null (`failed: null`,
// `failed: ~`) is refused, in an evidence document and in a snapshot
// record alike, for every typed key of every kind. Only an absent key
// takes its default: null read as the default 0 made `tests.unit.failed
// == 0` hold for a run that reported nothing. Optional opaque keys keep
// null; a required one (a review's `reviewer`, an approval's `approver`)
// is refused: `reviewer: null` approved the review's subject with nobody
// behind it.
func TestNullFieldRefused(t *testing.T) {
	for _, rec := range readAll(t) {
		fields, _ := schemaOf(rec.Kind())
		for _, f := range fields {
			if f.typ == tAny && !f.required {
				continue
			}
			var snap bytes.Buffer
			rec.AppendJSON(&snap)
			for _, null := range []string{"null", "~"} {
				entry := evidenceEntry(t, rec, f.key, null)
				_, ds := ReadDocument("e.yaml", []byte(entry), now)
				checkNullRefused(t, ds, "[0]."+f.key, entry)
			}
			withNull := snapshotWithNull(t, snap.Bytes(), f.key)
			doc, ds := yamldoc.Parse("s.json", withNull)
			r := yamldoc.NewReader(doc, &ds)
			if _, ok := ReadRecord(r, doc.Root, "record"); ok {
				t.Errorf("snapshot record with `%s: null` accepted:\n%s", f.key, withNull)
			}
			checkNullRefused(t, ds, "record.value."+f.key, string(withNull))
		}
	}
}

// evidenceEntry writes rec as an evidence-document entry (its payload,
// observed_at and producer) with key set to the YAML scalar null.
func evidenceEntry(t *testing.T, rec Record, key, null string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("- kind: " + rec.Kind() + "\n  observed_at: 2024-05-01\n")
	b.WriteString("  producer: {producer: " + rec.Producer.Class + ", " + producerKeyOf(rec.Producer.Class) + ": " + rec.Producer.Name + "}\n")
	for k, v := range rec.Value.Fields {
		if k == key {
			continue
		}
		var vb bytes.Buffer
		writeAny(&vb, v)
		b.WriteString("  " + k + ": " + vb.String() + "\n")
	}
	b.WriteString("  " + key + ": " + null + "\n")
	return b.String()
}

func producerKeyOf(class string) string {
	k, _ := producerKey(class)
	return k
}

// snapshotWithNull returns the snapshot record snap with value.key null.
func snapshotWithNull(t *testing.T, snap []byte, key string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(snap, &m); err != nil {
		t.Fatal(err)
	}
	m["value"].(map[string]any)[key] = nil
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNullRefused wants an error at path that says it found null.
func checkNullRefused(t *testing.T, ds diag.List, path, input string) {
	t.Helper()
	for _, d := range ds {
		if d.Severity == diag.Error && d.Path == path && strings.HasSuffix(d.Message, "found null") {
			return
		}
	}
	t.Errorf("no refusal of the null at %s: %v\n%s", path, ds, input)
}
