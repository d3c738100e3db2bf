package main

import (
	"os"
	"runtime"
	"testing"
)

// TestMeasureChild is the process TestMeasurer measures: with
// AEPFLOW_MEASURE_CHILD=alloc it touches 64 MiB before exiting 3; with
// small it exits 3 at once. Outside that role it does nothing.
func TestMeasureChild(t *testing.T) {
	switch os.Getenv("AEPFLOW_MEASURE_CHILD") {
	case "alloc":
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1
		}
		runtime.KeepAlive(b)
		os.Exit(3)
	case "small":
		os.Exit(3)
	}
}

// TestMeasurer measures real processes through bench/runner/measure: the
// exit code comes through, a process that touches 64 MiB reports at least
// that, and one that touches nothing reports far less than this test
// process holds (a vforked child of this process would inherit its peak).
func TestMeasurer(t *testing.T) {
	measurer, err := build(t.TempDir(), "./measure", nil)
	if err != nil {
		t.Fatal(err)
	}
	hold := make([]byte, 128<<20) // this process's peak, which a child must not report
	for i := range hold {
		hold[i] = 1
	}
	child := func(mode string) Sample {
		p := Proc{Args: []string{os.Args[0], "-test.run=^TestMeasureChild$"}, Env: []string{"AEPFLOW_MEASURE_CHILD=" + mode}, Exit: 3}
		s, err := p.run(measurer)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		return s
	}
	if s := child("alloc"); s.PeakRSS < 64<<20 || s.Wall <= 0 || s.CPU <= 0 {
		t.Errorf("a process touching 64 MiB: %+v", s)
	}
	if s := child("small"); s.PeakRSS > 64<<20 {
		t.Errorf("a process touching nothing reports %d MiB: the runner's peak leaked in", s.PeakRSS>>20)
	}
	if _, err := (Proc{Args: []string{os.Args[0], "-test.run=^TestMeasureChild$"}, Env: []string{"AEPFLOW_MEASURE_CHILD=small"}}).run(measurer); err == nil {
		t.Error("an unexpected exit code passed")
	}
	runtime.KeepAlive(hold)
}
