package main

import (
	"math"
	"testing"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{2, 2, 9, 2, 2}, 2},
	}
	for _, c := range cases {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing must be NaN")
	}
	in := []float64{3, 1, 2}
	median(in)
	if in[0] != 3 {
		t.Error("median sorted its argument")
	}
}

func TestRatiosAndExponent(t *testing.T) {
	r := ratios([]float64{1, 2, 4}, []float64{10, 30, 20})
	if len(r) != 3 || r[0] != 10 || r[1] != 15 || r[2] != 5 {
		t.Errorf("ratios = %v", r)
	}
	if got := exponent(10, 10); math.Abs(got-1) > 1e-12 {
		t.Errorf("10x cost for 10x size: exponent %v, want 1", got)
	}
	if got := exponent(100, 10); math.Abs(got-2) > 1e-12 {
		t.Errorf("100x cost for 10x size: exponent %v, want 2", got)
	}
	if got := exponent(11.5, 10); got < 1.06 || got > 1.07 {
		t.Errorf("exponent(11.5, 10) = %v", got)
	}
	lo, hi := spread([]float64{3, 1, 2})
	if lo != 1 || hi != 3 {
		t.Errorf("spread = %v, %v", lo, hi)
	}
}

func TestTimesNeverRoundsAcrossALimit(t *testing.T) {
	cases := map[float64]string{10.52: "10.52×", 10.499: "10.50×", 1.2: "1.20×", 250: "250×"}
	for x, want := range cases {
		if got := times(x); got != want {
			t.Errorf("times(%v) = %q, want %q", x, got, want)
		}
	}
}
