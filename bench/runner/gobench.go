package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// GoBench is one `go test -bench` run: the benchmarks matching Bench in
// package Pkg, each run for Benchtime (`5x`, `1s`; quick mode uses
// QuickBenchtime when set).
type GoBench struct {
	Pkg            string
	Bench          string
	Benchtime      string
	QuickBenchtime string
}

// BenchResult is one benchmark line of `go test -bench -benchmem`: the
// name without the GOMAXPROCS suffix, and its figures (ns/op, B/op,
// allocs/op, and any custom metric such as MB/s) by unit.
type BenchResult struct {
	Name    string
	Figures map[string]float64
}

// NsPerOp, BytesPerOp and AllocsPerOp return the standard figures.
func (r BenchResult) NsPerOp() float64     { return r.Figures["ns/op"] }
func (r BenchResult) BytesPerOp() float64  { return r.Figures["B/op"] }
func (r BenchResult) AllocsPerOp() float64 { return r.Figures["allocs/op"] }

// run runs the benchmarks count times and returns every result line, in
// output order (count lines per benchmark).
func (g GoBench) run(quick bool, count int) ([]BenchResult, error) {
	benchtime := g.Benchtime
	if quick && g.QuickBenchtime != "" {
		benchtime = g.QuickBenchtime
	}
	args := []string{"test", "-run", "^$", "-bench", g.Bench, "-benchmem", "-count", strconv.Itoa(count)}
	if benchtime != "" {
		args = append(args, "-benchtime", benchtime)
	}
	cmd := exec.Command("go", append(args, g.Pkg)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(append(args, g.Pkg), " "), err, out)
	}
	results := parseBench(out)
	if len(results) == 0 {
		return nil, fmt.Errorf("go test -bench %s %s printed no benchmark (skipped?):\n%s", g.Bench, g.Pkg, out)
	}
	return results, nil
}

// benchLine matches `BenchmarkX/sub-8   123   456 ns/op   7 B/op ...`.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.+)$`)

// parseBench reads the result lines of `go test -bench` output.
func parseBench(out []byte) []BenchResult {
	var results []BenchResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := BenchResult{Name: m[1], Figures: map[string]float64{}}
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				r.Figures[fields[i+1]] = v
			}
		}
		results = append(results, r)
	}
	return results
}

// byName groups results by benchmark name, keeping the first-seen order of
// names.
func byName(results []BenchResult) (names []string, groups map[string][]BenchResult) {
	groups = map[string][]BenchResult{}
	for _, r := range results {
		if _, ok := groups[r.Name]; !ok {
			names = append(names, r.Name)
		}
		groups[r.Name] = append(groups[r.Name], r)
	}
	return names, groups
}

// medianOf returns the median of one figure over results.
func medianOf(results []BenchResult, unit string) float64 {
	xs := make([]float64, 0, len(results))
	for _, r := range results {
		if v, ok := r.Figures[unit]; ok {
			xs = append(xs, v)
		}
	}
	return median(xs)
}
