package trace

import (
	"path/filepath"
	"testing"
)

// BenchmarkCheckLargest reads the largest shared transcript and checks it
// against the 43-expectation specification, end to end from bytes.
func BenchmarkCheckLargest(b *testing.B) {
	dir := sharedCorpus(b)
	transcript := readFile(b, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl"))
	specData := readFile(b, filepath.Join(dir, "expectations.trace.yaml"))
	b.ReportAllocs()
	b.SetBytes(int64(len(transcript)))
	for b.Loop() {
		spec, _ := ReadSpec(specData)
		ir, _, _ := Read(transcript)
		if r, err := Check(spec, ir, CheckOptions{}); err != nil || r.Verdict != VerdictOK {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckOnly measures the evaluation alone, inputs already read.
func BenchmarkCheckOnly(b *testing.B) {
	dir := sharedCorpus(b)
	spec := mustSpec(b, readFile(b, filepath.Join(dir, "expectations.trace.yaml")))
	ir := mustRead(b, readFile(b, filepath.Join(dir, "plugin-eval-7hTYjT.jsonl")))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Check(spec, ir, CheckOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
