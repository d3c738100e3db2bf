package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/aepflow/aepflow/internal/tracegen"
)

// The trace dimension (issue 13): `aepflow trace check` as a whole process
// over generated transcripts of growing length — a 10× longer transcript in
// at most 10.5× the time, peak memory at most twice the transcript's size
// plus 64 MiB — a suite of transcripts of growing count (issue 16), and
// the trace package's Go benchmarks at 1×/10×/100×.
func init() {
	register(&Page{
		Name: "trace",
		Go: map[string]GoBench{
			"scale": {Pkg: "./trace", Bench: "ReadTranscript|CheckScale|CheckLargest|CheckOnly", Benchtime: "5x", QuickBenchtime: "2x"},
			"suite": {Pkg: "./trace", Bench: "CheckSuite1000", Benchtime: "3x", QuickBenchtime: "1x"},
		},
		Scalings: map[string]*Scaling{
			"stream-json":  {Unit: "tool calls", Sizes: []int{4000, 40000}, Setup: traceProcess(writeStreamJSON, 0)},
			"event-stream": {Unit: "tool calls", Sizes: []int{4000, 40000}, Setup: traceProcess(writeEventStream, 1)},
			"suite":        {Unit: "transcripts", Sizes: []int{100, 1000}, Setup: suiteProcess},
		},
		Facts: traceFacts,
	})
}

// traceOutput is the bytes of tool output each generated call returns (the
// bulk of a real transcript).
const traceOutput = 1000

// traceSpec reads every part of a generated transcript (the spec of the
// trace package's benchmarks, genSpec).
const traceSpec = `format: trace-spec/1
id: bench/generated
expectations:
  - {id: ran-tests, expect: {tool.called: {tool: Bash, args: {command: {contains: "make test"}}}}}
  - {id: no-edit, expect: {tool.absent: {tool: Edit}}}
  - {id: read-go, expect: {tool.called: {tool: Read, args: {file_path: {glob: "*/src/*.go"}}}}}
  - {id: results, severity: advisory, expect: {tool.result: {tool: Bash, result: {interrupted: {equals: false}}}}}
  - {id: failures, severity: advisory, expect: {tool.failed: {tool: Bash, count: {at_most: 1000000}}}}
  - {id: error-rate, severity: advisory, expect: {tool.error_rate: {rate: {at_most: 0.5}}}}
  - {id: repeated, severity: advisory, expect: {tool.repeated: {count: {at_least: 0}}}}
  - {id: steps, expect: {step.exec_time: {tool: Bash, ms: {at_most: 1000}}}}
  - {id: inference, expect: {time.inference_total: {ms: {at_least: 0}}}}
  - {id: trend, severity: advisory, expect: {usage.trend: {field: input_tokens, trend: non_decreasing}}}
  - {id: share, severity: advisory, expect: {usage.share: {field: output_tokens, at_most: 0.9}}}
  - {id: outcome, expect: {result: {is_error: false}}}
  - {id: model, expect: {env.model: {equals: m-1}}}
  - {id: final, expect: {text.matches: {regex: "^Running|^step"}}}
`

// traceProcess is `aepflow trace check` over one generated transcript of n
// tool calls written by write; exit is the code the check must end with.
func traceProcess(write func(path string, calls int) error, exit int) func(w *Work, n int) (Proc, error) {
	return func(w *Work, n int) (Proc, error) {
		bin, err := w.Binary("./cmd/aepflow")
		if err != nil {
			return Proc{}, err
		}
		dir, err := w.Mkdir(fmt.Sprintf("trace-%p-%d", write, n))
		if err != nil {
			return Proc{}, err
		}
		spec, transcript := filepath.Join(dir, "spec.trace.yaml"), filepath.Join(dir, "run.jsonl")
		if err := os.WriteFile(spec, []byte(traceSpec), 0o644); err != nil {
			return Proc{}, err
		}
		if err := write(transcript, n); err != nil {
			return Proc{}, err
		}
		return Proc{Args: []string{bin, "trace", "check", "--spec", spec, "--transcript", transcript}, Exit: exit}, nil
	}
}

// suiteProcess is `aepflow trace check` over a directory of n generated
// transcripts of 50 tool calls each, half stream-json, half event streams
// (whose `read-go` row gaps: exit 1).
func suiteProcess(w *Work, n int) (Proc, error) {
	bin, err := w.Binary("./cmd/aepflow")
	if err != nil {
		return Proc{}, err
	}
	dir, err := w.Mkdir(fmt.Sprintf("trace-suite-%d", n))
	if err != nil {
		return Proc{}, err
	}
	spec := filepath.Join(dir, "spec.trace.yaml")
	if err := os.WriteFile(spec, []byte(traceSpec), 0o644); err != nil {
		return Proc{}, err
	}
	runs := filepath.Join(dir, "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return Proc{}, err
	}
	for i := range n {
		write := writeStreamJSON
		if i%2 == 1 {
			write = writeEventStream
		}
		if err := write(filepath.Join(runs, fmt.Sprintf("%05d.jsonl", i)), 50); err != nil {
			return Proc{}, err
		}
	}
	return Proc{Args: []string{bin, "trace", "check", "--spec", spec, "--transcript", runs}, Exit: 1}, nil
}

// writeStreamJSON writes tracegen.StreamJSON's transcript of n tool calls
// to path, the trace package's benchmarks' input at another length.
func writeStreamJSON(path string, n int) error {
	return writeLines(path, func(w *bufio.Writer) error { return tracegen.StreamJSON(w, n, traceOutput) })
}

// writeEventStream writes tracegen.EventStream's transcript to path.
func writeEventStream(path string, n int) error {
	return writeLines(path, func(w *bufio.Writer) error { return tracegen.EventStream(w, n, traceOutput) })
}

// writeLines creates path and writes it through a buffer with write.
func writeLines(path string, write func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// traceFacts records the sizes of the generated transcripts, so the page
// can name them and hold peak memory against them: `NAME-N` formatted,
// `NAME-N-bytes` the byte count (for the template's arithmetic).
func traceFacts(w *Work) (map[string]string, error) {
	dir, err := w.Mkdir("trace-sizes")
	if err != nil {
		return nil, err
	}
	facts := map[string]string{}
	for _, c := range []struct {
		name  string
		write func(string, int) error
	}{{"stream-json", writeStreamJSON}, {"event-stream", writeEventStream}} {
		for _, n := range []int{4000, 40000} {
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", c.name, n))
			if err := c.write(path, n); err != nil {
				return nil, err
			}
			info, err := os.Stat(path)
			if err != nil {
				return nil, err
			}
			os.Remove(path)
			key := fmt.Sprintf("%s-%d", c.name, n)
			facts[key] = mib(float64(info.Size()))
			facts[key+"-bytes"] = strconv.FormatInt(info.Size(), 10)
		}
	}
	return facts, nil
}

// The trace page's template reads a transcript's size (a fact, which is
// text) as a number — NaN when it is not one, as in the template test's
// synthetic results — and adds the 64 MiB of the memory target.
func init() {
	funcs["float"] = func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	funcs["add"] = func(a, b float64) float64 { return a + b }
}
