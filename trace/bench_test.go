package trace

import (
	"bytes"
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

// scales are the sizes of the scaling benchmarks: 1× is a transcript of
// 100 tool calls with 1 KB of output each (about 250 KB), 10× and 100× ten
// and a hundred times as many calls. Allocations per op must grow at most
// linearly (TestOnePassScaling holds 1× against 10×); bench/run records
// the time per op of each size.
var scales = []struct {
	name  string
	turns int
}{{"1x", 100}, {"10x", 1000}, {"100x", 10000}}

// BenchmarkReadTranscript reads generated transcripts of each wire and
// scale as a stream into the IR, keeping the fields genSpec reads.
func BenchmarkReadTranscript(b *testing.B) {
	keep := mustSpec(b, []byte(genSpec)).Keep()
	for _, wire := range []struct {
		name string
		gen  func(int, int) []byte
	}{{"stream-json", genStreamJSON}, {"event-stream", genEventStream}} {
		for _, s := range scales {
			data := wire.gen(s.turns, 1000)
			b.Run(wire.name+"/"+s.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, _, refusals, err := ReadStream(bytes.NewReader(data), ReadOptions{Keep: keep}); err != nil || refusals != nil {
						b.Fatal(err, refusals)
					}
				}
			})
		}
	}
}

// BenchmarkCheckScale checks genSpec (14 expectations) against an IR
// already read, at each scale.
func BenchmarkCheckScale(b *testing.B) {
	spec := mustSpec(b, []byte(genSpec))
	for _, s := range scales {
		ir := mustRead(b, genStreamJSON(s.turns, 1000))
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Check(spec, ir, CheckOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
