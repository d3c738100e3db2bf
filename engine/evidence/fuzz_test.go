package evidence

import (
	"bytes"
	"os"
	"testing"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/testkit"
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

// maxFuzzInput bounds the inputs FuzzReadDocument reads, in bytes.
//
// Why a bound: whenever the Go fuzzer finds an input with new coverage, a
// worker minimizes it before fuzzing on, and the byte minimizer tries every
// cut v[:i]+v[j:] — about n²/2 calls of the fuzz function, each a YAML parse
// linear in n, so cubic in n overall. Seeded with the whole 2.3 KB
// all-kinds.yaml, every interesting mutant of it took minutes to minimize
// (capped only by -fuzzminimizetime, 60 s by default): both workers sat in
// the minimizer, the coordinator logged "execs: N (0/sec)" and the CI run
// made no progress. Minimization execs are not counted until it ends, and
// no single call is slow, which is why watchdogs in the body never fired.
//
// Records are read independently of each other and the largest real one is
// under 300 bytes, so a bound that fits one record (or two small ones) loses
// nothing the target checks; TestProjections reads the whole file.
const maxFuzzInput = 320

// splitRecords cuts an evidence list in block style into one document per
// record, each a one-element list, to seed the fuzzer with small inputs.
func splitRecords(data []byte) [][]byte {
	var out [][]byte
	for _, part := range bytes.SplitAfter(data, []byte("\n- ")) {
		rec := bytes.TrimSuffix(part, []byte("- "))
		if !bytes.HasPrefix(rec, []byte("- ")) {
			rec = append([]byte("- "), rec...)
		}
		out = append(out, rec)
	}
	return out
}

// FuzzReadDocument: evidence documents never panic, positions stay inside
// the input, and admitted records re-encode stably. Inputs over
// maxFuzzInput bytes are outside its domain (see there for why).
func FuzzReadDocument(f *testing.F) {
	data, err := os.ReadFile("testdata/all-kinds.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, rec := range splitRecords(data) {
		f.Add(rec)
	}
	f.Add([]byte("- {kind: diff, observed_at: 2024-01-01, producer: {producer: agent, id: a}}"))
	f.Add([]byte("[]"))
	f.Add([]byte("- {kind: test_result, observed_at: 2024-01-01, suite: unit, passed: 9007199254740993, failed: 1e400, skipped: 9223372036854775807, producer: {producer: agent, id: a}}"))
	f.Add([]byte("- {kind: metric_observation, observed_at: 2024-01-01, metric: m, value: -.inf, producer: {producer: agent, id: a}}"))
	f.Add([]byte("\"0\r\r")) // a syntax error on a CR-counted line
	f.Add([]byte("\u00850")) // NEL is a line break to YAML: the 0 stands on line 2
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		recs, diags := ReadDocument("f.yaml", data, now)
		// YAML breaks lines at LF, CR, CRLF, NEL, LS and PS; one more
		// for the line past a final break.
		lines := testkit.LineBound(data) + 1
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

// TestFuzzSeeds checks the fuzz seeds: every record of all-kinds.yaml is
// one seed, admitted on its own, and within maxFuzzInput (a seed over the
// bound would be skipped by the target and fuzz nothing).
func TestFuzzSeeds(t *testing.T) {
	data, err := os.ReadFile("testdata/all-kinds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seeds := splitRecords(data)
	if want := len(readAll(t)); len(seeds) != want {
		t.Fatalf("%d seeds, want one per record (%d)", len(seeds), want)
	}
	for i, s := range seeds {
		if len(s) > maxFuzzInput {
			t.Errorf("seed %d is %d bytes, over maxFuzzInput (%d)", i, len(s), maxFuzzInput)
		}
		recs, diags := ReadDocument("seed.yaml", s, now)
		if len(recs) != 1 || diags.HasErrors() {
			t.Errorf("seed %d: %d records, %v\n%s", i, len(recs), diags, s)
		}
	}
}
