package trace

import "fmt"

// requestSeries collapses requests sharing an id into the last of them (its
// values and source line), in order of first appearance (trace.md §1.4).
func requestSeries(reqs []Request) []Request {
	out := make([]Request, 0, len(reqs))
	pos := make(map[string]int, len(reqs))
	for _, r := range reqs {
		if r.RequestID == nil {
			out = append(out, r)
			continue
		}
		if i, ok := pos[*r.RequestID]; ok {
			out[i] = r
			continue
		}
		pos[*r.RequestID] = len(out)
		out = append(out, r)
	}
	return out
}

// requestSeries returns ir's request series, collapsed once for every
// expectation that reads it. It must not be modified.
func (ir *IR) requestSeries() []Request {
	if ir.seriesOnce == nil { // an IR not built by ReadStream
		return requestSeries(ir.Requests)
	}
	ir.seriesOnce.Do(func() { ir.series = requestSeries(ir.Requests) })
	return ir.series
}

// requestEvents is what a request cites: events on its source line, else
// assistant text with its id, else its own event list. Both lookups are
// indexed (events are in line order; texts by request id are indexed once),
// so citing every request costs no scan of the events per request.
func requestEvents(ir *IR, r Request) []int {
	if out := ir.eventsOnLine(r.SourceLine); len(out) > 0 {
		return out
	}
	if r.RequestID != nil {
		if out := ir.textsOf(*r.RequestID); len(out) > 0 {
			return append([]int{}, out...)
		}
	}
	return append([]int{}, r.Events...)
}

func requestField(r Request, field string) *uint64 {
	switch field {
	case "input_tokens":
		return r.InputTokens
	case "output_tokens":
		return r.OutputTokens
	case "cache_read_input_tokens":
		return r.CacheReadInputTokens
	}
	return r.CacheCreationInputTokens
}

// seriesValues reads one field across the request series.
func seriesValues(ir *IR, field string) ([]Request, []uint64, *Outcome) {
	series := ir.requestSeries()
	if len(series) == 0 {
		o := unkOutcome("no_requests", nil)
		return nil, nil, &o
	}
	vals := make([]uint64, len(series))
	for i, r := range series {
		v := requestField(r, field)
		if v == nil {
			o := fieldAbsent("requests[]." + field)
			return nil, nil, &o
		}
		vals[i] = *v
	}
	return series, vals, nil
}

func evalUsageTrend(ir *IR, k *Kind) Outcome {
	series, vals, why := seriesValues(ir, k.Field)
	if why != nil {
		return *why
	}
	last := len(series) - 1
	if len(series) == 1 {
		return okOutcome(requestEvents(ir, series[0]), "one request: %s is %d", k.Field, vals[0])
	}
	moved := false
	for i := 1; i < len(vals); i++ {
		wrong := vals[i] < vals[i-1]
		if k.Trend == trendNonIncreasing {
			wrong = vals[i] > vals[i-1]
		}
		if wrong {
			return gapOutcome(requestEvents(ir, series[i]), "%s moved from %d (request %d) to %d (request %d), expected %s",
				k.Field, vals[i-1], i-1, vals[i], i, k.Trend)
		}
		moved = moved || vals[i] != vals[i-1]
	}
	if !moved {
		return unkOutcome("series_did_not_move", map[string]any{"field": "requests[]." + k.Field, "requests": len(series)})
	}
	return okOutcome(requestEvents(ir, series[last]), "%s is %s across %d requests, from %d to %d",
		k.Field, k.Trend, len(series), vals[0], vals[last])
}

func evalUsageShare(ir *IR, k *Kind) Outcome {
	series, vals, why := seriesValues(ir, k.Field)
	if why != nil {
		return *why
	}
	var sum total
	fsum := 0.0 // the share in floats: the sum may not fit a uint64
	peak := 0
	for i, v := range vals {
		sum.plus(v)
		fsum += float64(v)
		if v > vals[peak] {
			peak = i
		}
	}
	if sum.v == 0 {
		return unkOutcome("ratio_undefined", map[string]any{"denominator": "the sum of " + k.Field + " across requests"})
	}
	share := float64(vals[peak]) / fsum
	note := fmt.Sprintf("request %d holds %d of %s %s, share %s, bound %s", peak, vals[peak], sum, k.Field, shortFloat(share), k.Range)
	return decideBool(k.Range.Holds(share), requestEvents(ir, series[peak]), note)
}

func evalStepTime(ir *IR, k *Kind) Outcome {
	what := "gen"
	if k.Name == KindStepExecTime {
		what = "exec"
	}
	var steps []Step
	for _, s := range ir.steps {
		if k.Selector.Matches(ir.call(s.CallEvent)) {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		return nothingInScope(k.Selector)
	}
	var all, offenders []int
	var worst int64
	for _, s := range steps {
		v := s.GenMs
		if what == "exec" {
			v = s.ExecMs
		}
		if v == nil || *v < 0 {
			return unkOutcome("timestamp_absent", map[string]any{"event": s.CallEvent})
		}
		all = append(all, s.CallEvent)
		worst = max(worst, *v)
		if !k.Count.Holds(uint64(*v)) {
			offenders = append(offenders, s.CallEvent)
		}
	}
	if len(offenders) > 0 {
		return gapOutcome(offenders, "%d of %d step(s) of %s outside %s ms %s time", len(offenders), len(steps), k.Selector.Display(), k.Count, what)
	}
	return okOutcome(all, "%d step(s) of %s within %s ms %s time, longest %dms", len(steps), k.Selector.Display(), k.Count, what, worst)
}

func evalTimeTotal(ir *IR, k *Kind) Outcome {
	if len(ir.steps) == 0 {
		return unkOutcome("nothing_in_scope", map[string]any{"selector": "any tool"})
	}
	var sum total
	var all []int
	for _, s := range ir.steps {
		v := s.GenMs
		if k.Name == KindTimeToolExecTotal {
			v = s.ExecMs
		}
		if v == nil || *v < 0 {
			return unkOutcome("timestamp_absent", map[string]any{"event": s.CallEvent})
		}
		sum.plus(uint64(*v))
		all = append(all, s.CallEvent)
	}
	what := "inference"
	if k.Name == KindTimeToolExecTotal {
		what = "tool-exec"
	}
	return decideTotal(k.Count, sum, false, nil, all,
		fmt.Sprintf("%s total %sms across %d step(s), bound %s ms", what, sum, len(ir.steps), k.Count))
}
