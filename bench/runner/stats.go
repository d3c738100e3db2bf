package main

import (
	"math"
	"slices"
)

// median returns the median of xs (the mean of the middle two for an even
// count), or NaN for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ratios returns b[i]/a[i] for each pair.
func ratios(a, b []float64) []float64 {
	out := make([]float64, min(len(a), len(b)))
	for i := range out {
		out[i] = b[i] / a[i]
	}
	return out
}

// exponent is the scaling exponent k of cost ∝ size^k that turns a cost
// ratio into a size ratio: ln(costRatio) / ln(sizeRatio). 1 is linear.
func exponent(costRatio, sizeRatio float64) float64 {
	return math.Log(costRatio) / math.Log(sizeRatio)
}

// spread returns the smallest and largest of xs.
func spread(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(xs), slices.Max(xs)
}
