package trace

import (
	"bytes"

	"github.com/aepflow/aepflow/internal/tracegen"
)

// genStreamJSON is tracegen.StreamJSON's transcript of turns tool calls,
// in memory.
func genStreamJSON(turns, output int) []byte {
	var b bytes.Buffer
	_ = tracegen.StreamJSON(&b, turns, output) // a bytes.Buffer does not fail
	return b.Bytes()
}

// genEventStream is tracegen.EventStream's transcript, in memory.
func genEventStream(turns, output int) []byte {
	var b bytes.Buffer
	_ = tracegen.EventStream(&b, turns, output)
	return b.Bytes()
}

// genSpec is a specification reading every part of a generated
// transcript: selectors with args, results, steps, requests, the terminal
// record.
const genSpec = `format: trace-spec/1
id: bench/generated
expectations:
  - {id: ran-tests, expect: {tool.called: {tool: Bash, args: {command: {contains: "make test"}}}}}
  - {id: no-edit, expect: {tool.absent: {tool: Edit}}}
  - {id: read-go, expect: {tool.called: {tool: Read, args: {file_path: {glob: "*/src/*.go"}}}}}
  - {id: results, expect: {tool.result: {tool: Bash, result: {interrupted: {equals: false}}}}}
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
