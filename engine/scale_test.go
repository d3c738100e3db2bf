package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aepflow/aepflow/engine/evidence"
)

// records returns n records of the kinds the mini plan's requirements and
// the derived facts read, the same sequence for the same n.
func records(n int) []evidence.Record {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	out := make([]evidence.Record, n)
	for i := range out {
		out[i] = randomRecord(r)
	}
	return out
}

// submitOneByOne submits recs to a new execution one record per call, as
// `aepflow evaluate` does with one evidence file per record.
func submitOneByOne(plan *Plan, recs []evidence.Record) *Execution {
	e := NewExecution(plan, nil, testNow)
	for _, rec := range recs {
		e.Submit(rec)
	}
	return e
}

// TestSubmitAllocationsGrowLinearly: submitting ten times the records one
// at a time allocates about ten times as much, not a hundred (each Submit
// used to rebuild the store from the whole log).
func TestSubmitAllocationsGrowLinearly(t *testing.T) {
	plan := miniPlan(t, miniTask)
	small, large := records(200), records(2000)
	a := testing.AllocsPerRun(3, func() { submitOneByOne(plan, small) })
	b := testing.AllocsPerRun(3, func() { submitOneByOne(plan, large) })
	if b > 12*a {
		t.Errorf("200 records: %.0f allocations; 2,000: %.0f (%.1f×, want at most 12×)", a, b, b/a)
	}
}

// TestRestoreAllocationsGrowLinearly: restoring a snapshot of ten times the
// records allocates about ten times as much.
func TestRestoreAllocationsGrowLinearly(t *testing.T) {
	plan := miniPlan(t, miniTask)
	snap := func(n int) []byte { return submitOneByOne(plan, records(n)).Snapshot().Encode() }
	small, large := snap(200), snap(2000)
	restore := func(data []byte) {
		s, ds := DecodeSnapshot("s.json", data)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if _, err := Restore(plan, nil, s, testNow); err != nil {
			t.Fatal(err)
		}
	}
	a := testing.AllocsPerRun(3, func() { restore(small) })
	b := testing.AllocsPerRun(3, func() { restore(large) })
	if b > 12*a {
		t.Errorf("200 records: %.0f allocations; 2,000: %.0f (%.1f×, want at most 12×)", a, b, b/a)
	}
}

// BenchmarkSubmitOneByOne submits 100, 1,000 and 10,000 records one per
// call.
func BenchmarkSubmitOneByOne(b *testing.B) {
	plan := miniPlan(b, miniTask)
	for _, n := range []int{100, 1000, 10000} {
		recs := records(n)
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				submitOneByOne(plan, recs)
			}
		})
	}
}

// BenchmarkRestore decodes and restores snapshots of 100, 1,000 and
// 10,000 records.
func BenchmarkRestore(b *testing.B) {
	plan := miniPlan(b, miniTask)
	for _, n := range []int{100, 1000, 10000} {
		data := submitOneByOne(plan, records(n)).Snapshot().Encode()
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				s, ds := DecodeSnapshot("s.json", data)
				if ds.HasErrors() {
					b.Fatal(ds)
				}
				if _, err := Restore(plan, nil, s, testNow); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
