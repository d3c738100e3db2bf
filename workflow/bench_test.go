package workflow

import (
	"fmt"
	"testing"
)

var benchSizes = []int{100, 1000, 10000}

// BenchmarkLoadValidate measures Load followed by Validate on generated
// workflows of growing size.
func BenchmarkLoadValidate(b *testing.B) {
	for _, n := range benchSizes {
		data := []byte(genWorkflow(n))
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				w, diags := Load("bench.yaml", data)
				if diags.HasErrors() {
					b.Fatal(diags[0].Error())
				}
				if diags := w.Validate(); len(diags) > 0 {
					b.Fatal(diags[0].Error())
				}
			}
		})
	}
}

// BenchmarkComputeLayout measures the layout alone on generated workflows
// of growing size.
func BenchmarkComputeLayout(b *testing.B) {
	for _, n := range benchSizes {
		w, diags := Load("bench.yaml", []byte(genWorkflow(n)))
		if diags.HasErrors() {
			b.Fatal(diags[0].Error())
		}
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if l := ComputeLayout(w); l.Depth != n {
					b.Fatalf("depth %d", l.Depth)
				}
			}
		})
	}
}
