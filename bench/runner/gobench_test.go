package main

import (
	"slices"
	"testing"
)

func TestParseBench(t *testing.T) {
	out := []byte(`goos: linux
goarch: amd64
pkg: github.com/aepflow/aepflow/compiler
cpu: Intel(R) Xeon(R) Processor
BenchmarkProject/states=100-2         	    3000	    350000 ns/op	  120000 B/op	    1487 allocs/op
BenchmarkProject/states=100-2         	    3000	    370000 ns/op	  120000 B/op	    1487 allocs/op
BenchmarkCheckAndPlan/nodes=100-2     	       5	   7870341 ns/op	   1.43 MB/s	  654467 B/op	   10158 allocs/op
BenchmarkNoSuffix 	 10	 5 ns/op
--- SKIP: BenchmarkNative
PASS
ok  	github.com/aepflow/aepflow/compiler	3.2s
`)
	rs := parseBench(out)
	if len(rs) != 4 {
		t.Fatalf("%d results: %+v", len(rs), rs)
	}
	if rs[0].Name != "BenchmarkProject/states=100" || rs[0].NsPerOp() != 350000 || rs[0].AllocsPerOp() != 1487 || rs[0].BytesPerOp() != 120000 {
		t.Errorf("first line: %+v", rs[0])
	}
	if rs[2].Figures["MB/s"] != 1.43 || rs[2].AllocsPerOp() != 10158 {
		t.Errorf("custom metric line: %+v", rs[2])
	}
	if rs[3].Name != "BenchmarkNoSuffix" || rs[3].NsPerOp() != 5 {
		t.Errorf("no GOMAXPROCS suffix: %+v", rs[3])
	}
	names, groups := byName(rs)
	if !slices.Equal(names, []string{"BenchmarkProject/states=100", "BenchmarkCheckAndPlan/nodes=100", "BenchmarkNoSuffix"}) {
		t.Errorf("names %v", names)
	}
	if got := medianOf(groups["BenchmarkProject/states=100"], "ns/op"); got != 360000 {
		t.Errorf("median ns/op %v", got)
	}
}
