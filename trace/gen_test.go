package trace

import (
	"fmt"
	"strings"
	"time"
)

// genStart is the first timestamp of generated transcripts.
var genStart = time.Date(2026, 8, 21, 12, 0, 0, 0, time.UTC)

func genTime(ms int) string {
	return genStart.Add(time.Duration(ms) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// genStreamJSON generates a Claude Code stream-json transcript of turns
// tool calls: per turn an assistant line (text, thinking, a Bash or Read
// call) and a user line with its result (output bytes of content, the same
// again in tool_use_result), plus a session start, a rate limit and a
// terminal record. It is what long sessions look like, at any length.
func genStreamJSON(turns, output int) []byte {
	var b strings.Builder
	out := strings.Repeat("x", output)
	fmt.Fprintf(&b, `{"type":"system","subtype":"init","timestamp":%q,"model":"m-1","permissionMode":"default","tools":["Bash","Read","Edit"],"skills":["demo:skill"],"plugins":[{"name":"demo","version":"1.0.0"}],"mcp_servers":[]}`+"\n", genTime(0))
	for i := range turns {
		ms := 10 + i*100
		tool, input := "Bash", fmt.Sprintf(`{"command":"make test-%d","description":"run the tests"}`, i%7)
		if i%3 == 1 {
			tool, input = "Read", fmt.Sprintf(`{"file_path":"/repo/src/file%d.go"}`, i%11)
		}
		fmt.Fprintf(&b, `{"type":"assistant","request_id":"req_%d","timestamp":%q,"message":{"model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d},"content":[{"type":"thinking","thinking":"considering step %d"},{"type":"text","text":"Running step %d."},{"type":"tool_use","id":"toolu_%d","name":%q,"input":%s}]}}`+"\n",
			i/2, genTime(ms), 1000+i, 50+i%13, 900+i, i, i, i, tool, input)
		fmt.Fprintf(&b, `{"type":"user","timestamp":%q,"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":%q,"is_error":%t}]},"tool_use_result":{"stdout":%q,"stderr":"","exitCode":%d,"interrupted":false}}`+"\n",
			genTime(ms+40), i, out, i%17 == 0, out, i%17)
	}
	fmt.Fprintf(&b, `{"type":"rate_limit_event","timestamp":%q,"rate_limit_info":{"status":"allowed","rateLimitType":"five_hour","utilization":0.5}}`+"\n", genTime(turns*100+20))
	fmt.Fprintf(&b, `{"type":"result","subtype":"success","is_error":false,"timestamp":%q,"num_turns":%d,"duration_ms":%d,"total_cost_usd":0.25,"permission_denials":[],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":10}}`+"\n",
		genTime(turns*100+50), turns, turns*100+50, turns*1000, turns*50)
	return []byte(b.String())
}

// genEventStream generates a metaharness.event/1 transcript of turns tool
// calls, shaped like genStreamJSON's.
func genEventStream(turns, output int) []byte {
	var b strings.Builder
	out := strings.Repeat("y", output)
	line := func(format string, args ...any) {
		b.WriteString(`{"format":"metaharness.event/1",`)
		fmt.Fprintf(&b, format, args...)
		b.WriteString("}\n")
	}
	line(`"event":"session.started","at":%q,"model":"m-1","permission_mode":"default","offered_tools":["Bash","Read"],"available_operations":["file.read","shell.exec"]`, genTime(0))
	for i := range turns {
		ms := 10 + i*100
		line(`"event":"turn.started","at":%q`, genTime(ms))
		line(`"event":"text","at":%q,"text":"step %d","request_id":"r%d"`, genTime(ms+1), i, i)
		line(`"event":"tool.requested","at":%q,"call_id":"c%d","name":"Bash","operations":["shell.exec"],"input":{"argv":["make","test-%d"]}`, genTime(ms+2), i, i%5)
		if i%9 == 0 {
			line(`"event":"tool.decided","at":%q,"call_id":"c%d","decision":{"decision":"allow"}`, genTime(ms+3), i)
		}
		line(`"event":"tool.result","at":%q,"call_id":"c%d","is_error":%t,"content":%q`, genTime(ms+40), i, i%13 == 0, out)
		line(`"event":"usage","at":%q,"request_id":"r%d","model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d}`, genTime(ms+41), i, 1000+i, 40+i%7)
	}
	line(`"event":"session.ended","at":%q,"is_error":false,"subtype":"success","num_turns":%d,"usage":{"input_tokens":%d,"output_tokens":%d}`, genTime(turns*100+50), turns, turns*1000, turns*40)
	line(`"event":"stream.closed","at":%q,"events":%d,"reason":"completed"`, genTime(turns*100+60), turns*5+3)
	return []byte(b.String())
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
