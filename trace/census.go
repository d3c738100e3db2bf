package trace

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Census is the summary `aepflow trace inspect` prints (trace.md §6.1). Its
// JSON form is the reference's, nulls kept.
type Census struct {
	TranscriptDigest string         `json:"transcript_digest"`
	Events           int            `json:"events"`
	EventsByFamily   map[string]int `json:"events_by_family"`
	OpaqueEvents     int            `json:"opaque_events"`
	// AssistantEvents and APIRequests are nil when the wire records no
	// requests (a Codex rollout): not zero, unknown.
	AssistantEvents    *int                    `json:"assistant_events"`
	APIRequests        *int                    `json:"api_requests"`
	ToolTraffic        map[string]*ToolTraffic `json:"tool_traffic"`
	RepeatedCallGroups int                     `json:"repeated_call_groups"`
	Steps              []Step                  `json:"steps"`
	InferenceTotalMs   *int64                  `json:"inference_total_ms"`
	ToolExecTotalMs    *int64                  `json:"tool_exec_total_ms"`
}

// ToolTraffic is the traffic of one tool: calls, errors and correlated
// results, with input and result sizes in bytes.
type ToolTraffic struct {
	Calls       int    `json:"calls"`
	Errors      int    `json:"errors"`
	Results     int    `json:"results"`
	InputBytes  uint64 `json:"input_bytes"`
	ResultBytes uint64 `json:"result_bytes"`
}

// NewCensus summarises ir.
func NewCensus(ir *IR) *Census {
	c := &Census{
		TranscriptDigest: ir.TranscriptDigest,
		Events:           len(ir.Events),
		EventsByFamily:   map[string]int{},
		OpaqueEvents:     ir.Unread(),
		ToolTraffic:      map[string]*ToolTraffic{},
		Steps:            ir.steps,
	}
	if ir.RecordsRequests() {
		assistant, api := len(ir.Requests), apiRequests(ir.Requests)
		c.AssistantEvents, c.APIRequests = &assistant, &api
	}
	for _, e := range ir.Events {
		c.EventsByFamily[string(e.Family)]++
	}
	keys := map[[32]byte]int{}
	for _, ci := range ir.calls {
		call := ir.Events[ci].Call()
		t := c.ToolTraffic[call.Name]
		if t == nil {
			t = &ToolTraffic{}
			c.ToolTraffic[call.Name] = t
		}
		t.Calls++
		t.InputBytes += call.InputBytes
		if r := call.ResultEvent; r >= 0 {
			res := ir.Events[r].Result()
			t.Results++
			t.ResultBytes = addCapped(t.ResultBytes, res.ContentBytes)
			if res.IsError != nil && *res.IsError {
				t.Errors++
			}
		}
		keys[call.repKey]++
	}
	for _, n := range keys {
		if n > 1 {
			c.RepeatedCallGroups++
		}
	}
	c.InferenceTotalMs, c.ToolExecTotalMs = stepTotals(ir.steps)
	return c
}

// apiRequests counts distinct non-null request ids plus requests without one.
func apiRequests(reqs []Request) int {
	seen := map[string]bool{}
	n := 0
	for _, r := range reqs {
		if r.RequestID == nil {
			n++
		} else if !seen[*r.RequestID] {
			seen[*r.RequestID] = true
			n++
		}
	}
	return n
}

// stepTotals sums gen and exec over all steps; a total is nil when any value
// is nil or there are no steps.
func stepTotals(steps []Step) (gen, exec *int64) {
	if len(steps) == 0 {
		return nil, nil
	}
	var g, x int64
	gok, xok := true, true
	for _, s := range steps {
		if s.GenMs == nil {
			gok = false
		} else {
			g += *s.GenMs
		}
		if s.ExecMs == nil {
			xok = false
		} else {
			x += *s.ExecMs
		}
	}
	if gok {
		gen = &g
	}
	if xok {
		exec = &x
	}
	return gen, exec
}

// WriteText prints the census in the layout of trace.md §6.1, each line
// escaped (see textLines).
func (c *Census) WriteText(w io.Writer) error {
	var l textLines
	c.writeText(&l)
	return l.writeTo(w)
}

func (c *Census) writeText(l *textLines) {
	row := func(label, format string, args ...any) {
		l.printf("%-13s%s", label, fmt.Sprintf(format, args...))
	}
	row("transcript", "sha256:%s", c.TranscriptDigest)
	var fams []string
	for _, f := range slices.Sorted(maps.Keys(c.EventsByFamily)) {
		fams = append(fams, fmt.Sprintf("%d %s", c.EventsByFamily[f], f))
	}
	row("events", "%d total — %s", c.Events, strings.Join(fams, ", "))
	row("unread", "%d event(s) the adapter could not read", c.OpaqueEvents)
	if c.AssistantEvents != nil && c.APIRequests != nil {
		row("requests", "%d assistant events, %d api requests", *c.AssistantEvents, *c.APIRequests)
	} else {
		row("requests", "not recorded by this transcript format")
	}
	calls, results := 0, uint64(0)
	for _, name := range slices.Sorted(maps.Keys(c.ToolTraffic)) {
		t := c.ToolTraffic[name]
		row("tool", "%s: %d call(s), %d error(s), in %dB, results %dB", name, t.Calls, t.Errors, t.InputBytes, t.ResultBytes)
		calls += t.Calls
		results = addCapped(results, t.ResultBytes)
	}
	row("tools-total", "%d call(s), results %dB into context", calls, results)
	row("repeated", "%d identical call group(s)", c.RepeatedCallGroups)
	for k, s := range c.Steps {
		row("step", "%d. %s (event %d): gen %s, exec %s", k+1, s.Tool, s.CallEvent, msOrQ(s.GenMs), msOrQ(s.ExecMs))
	}
	row("time-split", "inference %s, tool-exec %s across %d step(s)", msOrQ(c.InferenceTotalMs), msOrQ(c.ToolExecTotalMs), len(c.Steps))
}

func msOrQ(v *int64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprintf("%dms", *v)
}
