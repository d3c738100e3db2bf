package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// traceTime is the timestamp of generated line events, ms after the start.
func traceTime(ms int) string {
	return fmt.Sprintf("2026-08-21T%02d:%02d:%02d.%03dZ", 12+ms/3600000%12, ms/60000%60, ms/1000%60, ms%1000)
}

// writeStreamJSON writes a Claude Code stream-json transcript of n tool
// calls, as the trace package's genStreamJSON does.
func writeStreamJSON(path string, n int) error {
	return writeLines(path, func(w *bufio.Writer) {
		out := strings.Repeat("x", traceOutput)
		fmt.Fprintf(w, `{"type":"system","subtype":"init","timestamp":%q,"model":"m-1","permissionMode":"default","tools":["Bash","Read","Edit"],"skills":["demo:skill"],"plugins":[{"name":"demo","version":"1.0.0"}],"mcp_servers":[]}`+"\n", traceTime(0))
		for i := range n {
			ms := 10 + i*100
			tool, input := "Bash", fmt.Sprintf(`{"command":"make test-%d","description":"run the tests"}`, i%7)
			if i%3 == 1 {
				tool, input = "Read", fmt.Sprintf(`{"file_path":"/repo/src/file%d.go"}`, i%11)
			}
			fmt.Fprintf(w, `{"type":"assistant","request_id":"req_%d","timestamp":%q,"message":{"model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d},"content":[{"type":"thinking","thinking":"considering step %d"},{"type":"text","text":"Running step %d."},{"type":"tool_use","id":"toolu_%d","name":%q,"input":%s}]}}`+"\n",
				i/2, traceTime(ms), 1000+i, 50+i%13, 900+i, i, i, i, tool, input)
			fmt.Fprintf(w, `{"type":"user","timestamp":%q,"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":%q,"is_error":%t}]},"tool_use_result":{"stdout":%q,"stderr":"","exitCode":%d,"interrupted":false}}`+"\n",
				traceTime(ms+40), i, out, i%17 == 0, out, i%17)
		}
		fmt.Fprintf(w, `{"type":"rate_limit_event","timestamp":%q,"rate_limit_info":{"status":"allowed","rateLimitType":"five_hour","utilization":0.5}}`+"\n", traceTime(n*100+20))
		fmt.Fprintf(w, `{"type":"result","subtype":"success","is_error":false,"timestamp":%q,"num_turns":%d,"duration_ms":%d,"total_cost_usd":0.25,"permission_denials":[],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":10}}`+"\n",
			traceTime(n*100+50), n, n*100+50, n*1000, n*50)
	})
}

// writeEventStream writes a metaharness.event/1 transcript of n tool
// calls, as the trace package's genEventStream does.
func writeEventStream(path string, n int) error {
	return writeLines(path, func(w *bufio.Writer) {
		out := strings.Repeat("y", traceOutput)
		line := func(format string, args ...any) {
			w.WriteString(`{"format":"metaharness.event/1",`)
			fmt.Fprintf(w, format, args...)
			w.WriteString("}\n")
		}
		line(`"event":"session.started","at":%q,"model":"m-1","permission_mode":"default","offered_tools":["Bash","Read"],"available_operations":["file.read","shell.exec"]`, traceTime(0))
		for i := range n {
			ms := 10 + i*100
			line(`"event":"turn.started","at":%q`, traceTime(ms))
			line(`"event":"text","at":%q,"text":"step %d","request_id":"r%d"`, traceTime(ms+1), i, i)
			line(`"event":"tool.requested","at":%q,"call_id":"c%d","name":"Bash","operations":["shell.exec"],"input":{"argv":["make","test-%d"]}`, traceTime(ms+2), i, i%5)
			line(`"event":"tool.result","at":%q,"call_id":"c%d","is_error":%t,"content":%q`, traceTime(ms+40), i, i%13 == 0, out)
			line(`"event":"usage","at":%q,"request_id":"r%d","model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d}`, traceTime(ms+41), i, 1000+i, 40+i%7)
		}
		line(`"event":"session.ended","at":%q,"is_error":false,"subtype":"success","num_turns":%d,"usage":{"input_tokens":%d,"output_tokens":%d}`, traceTime(n*100+50), n, n*1000, n*40)
		line(`"event":"stream.closed","at":%q,"events":%d,"reason":"completed"`, traceTime(n*100+60), n*5+3)
	})
}

func writeLines(path string, write func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	write(w)
	if err := w.Flush(); err != nil {
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
