// Package tracegen writes synthetic agent transcripts of any length, the
// shape long sessions have: for the trace package's tests and in-process
// benchmarks and for bench/run's whole-process scalings alike, so that
// both measure the same inputs.
package tracegen

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// start is the first timestamp of a generated transcript.
var start = time.Date(2026, 8, 21, 12, 0, 0, 0, time.UTC)

// at is the timestamp ms milliseconds after start.
func at(ms int) string {
	return start.Add(time.Duration(ms) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// writer keeps the first error of a run of writes.
type writer struct {
	w   io.Writer
	err error
}

func (w *writer) printf(format string, args ...any) {
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, format, args...)
	}
}

// StreamJSON writes a Claude Code stream-json transcript of turns tool
// calls to w: per turn an assistant line (thinking, text, a Bash or Read
// call) and a user line with its result (output bytes of content, the same
// again in tool_use_result), after a session start, and a rate limit and a
// terminal record at the end.
func StreamJSON(w io.Writer, turns, output int) error {
	b := &writer{w: w}
	out := strings.Repeat("x", output)
	b.printf(`{"type":"system","subtype":"init","timestamp":%q,"model":"m-1","permissionMode":"default","tools":["Bash","Read","Edit"],"skills":["demo:skill"],"plugins":[{"name":"demo","version":"1.0.0"}],"mcp_servers":[]}`+"\n", at(0))
	for i := range turns {
		ms := 10 + i*100
		tool, input := "Bash", fmt.Sprintf(`{"command":"make test-%d","description":"run the tests"}`, i%7)
		if i%3 == 1 {
			tool, input = "Read", fmt.Sprintf(`{"file_path":"/repo/src/file%d.go"}`, i%11)
		}
		b.printf(`{"type":"assistant","request_id":"req_%d","timestamp":%q,"message":{"model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":%d},"content":[{"type":"thinking","thinking":"considering step %d"},{"type":"text","text":"Running step %d."},{"type":"tool_use","id":"toolu_%d","name":%q,"input":%s}]}}`+"\n",
			i/2, at(ms), 1000+i, 50+i%13, 900+i, i, i, i, tool, input)
		b.printf(`{"type":"user","timestamp":%q,"message":{"content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":%q,"is_error":%t}]},"tool_use_result":{"stdout":%q,"stderr":"","exitCode":%d,"interrupted":false}}`+"\n",
			at(ms+40), i, out, i%17 == 0, out, i%17)
	}
	b.printf(`{"type":"rate_limit_event","timestamp":%q,"rate_limit_info":{"status":"allowed","rateLimitType":"five_hour","utilization":0.5}}`+"\n", at(turns*100+20))
	b.printf(`{"type":"result","subtype":"success","is_error":false,"timestamp":%q,"num_turns":%d,"duration_ms":%d,"total_cost_usd":0.25,"permission_denials":[],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":10}}`+"\n",
		at(turns*100+50), turns, turns*100+50, turns*1000, turns*50)
	return b.err
}

// EventStream writes a metaharness.event/1 transcript of turns tool calls
// to w, shaped like StreamJSON's: per turn a turn start, a text, a Bash
// request (every ninth decided), its result of output bytes and the usage.
func EventStream(w io.Writer, turns, output int) error {
	b := &writer{w: w}
	out := strings.Repeat("y", output)
	line := func(format string, args ...any) {
		b.printf(`{"format":"metaharness.event/1",`+format+"}\n", args...)
	}
	line(`"event":"session.started","at":%q,"model":"m-1","permission_mode":"default","offered_tools":["Bash","Read"],"available_operations":["file.read","shell.exec"]`, at(0))
	for i := range turns {
		ms := 10 + i*100
		line(`"event":"turn.started","at":%q`, at(ms))
		line(`"event":"text","at":%q,"text":"step %d","request_id":"r%d"`, at(ms+1), i, i)
		line(`"event":"tool.requested","at":%q,"call_id":"c%d","name":"Bash","operations":["shell.exec"],"input":{"argv":["make","test-%d"]}`, at(ms+2), i, i%5)
		if i%9 == 0 {
			line(`"event":"tool.decided","at":%q,"call_id":"c%d","decision":{"decision":"allow"}`, at(ms+3), i)
		}
		line(`"event":"tool.result","at":%q,"call_id":"c%d","is_error":%t,"content":%q`, at(ms+40), i, i%13 == 0, out)
		line(`"event":"usage","at":%q,"request_id":"r%d","model":"m-1","usage":{"input_tokens":%d,"output_tokens":%d}`, at(ms+41), i, 1000+i, 40+i%7)
	}
	line(`"event":"session.ended","at":%q,"is_error":false,"subtype":"success","num_turns":%d,"usage":{"input_tokens":%d,"output_tokens":%d}`, at(turns*100+50), turns, turns*1000, turns*40)
	line(`"event":"stream.closed","at":%q,"events":%d,"reason":"completed"`, at(turns*100+60), turns*5+3)
	return b.err
}
