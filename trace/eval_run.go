package trace

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// lastOutcome returns the last run_outcome and its index, or -1.
func (ir *IR) lastOutcome() (*RunOutcome, int) {
	if len(ir.outcomes) == 0 {
		return nil, -1
	}
	i := ir.outcomes[len(ir.outcomes)-1]
	return ir.Events[i].Outcome(), i
}

func evalResult(ir *IR, k *Kind) Outcome {
	if len(ir.outcomes) == 0 {
		return unkOutcome("no_run_outcome", nil)
	}
	prev := -1
	for _, oi := range ir.outcomes {
		o := ir.Events[oi].Outcome()
		mismatches, absent := resultMismatches(o, k.Run)
		if absent != "" {
			return fieldAbsent(absent)
		}
		if len(mismatches) > 0 {
			if li := rejectedLimitBetween(ir, prev, oi); li >= 0 {
				p := map[string]any{"outcome_event": oi, "limit_event": li}
				if w := ir.Events[li].RateLimit().LimitType; w != nil {
					p["window"] = *w
				}
				return unkOutcome("run_cut_by_rate_limit", p)
			}
			return gapOutcome([]int{oi}, "run outcome at event %d: %s", oi, joinComma(mismatches))
		}
		prev = oi
	}
	last := ir.outcomes[len(ir.outcomes)-1]
	return okOutcome([]int{last}, "%d run outcome(s) match %s", len(ir.outcomes), runDisplay(k.Run))
}

// resultMismatches checks one session; absent names the first declared field
// the record lacks.
func resultMismatches(o *RunOutcome, r *RunResult) (mismatches []string, absent string) {
	if r.IsError != nil {
		if o.IsError == nil {
			return nil, "is_error"
		}
		if *o.IsError != *r.IsError {
			mismatches = append(mismatches, fmt.Sprintf("is_error is %t, expected %t", *o.IsError, *r.IsError))
		}
	}
	strs := []struct {
		want, got *string
		field     string
	}{{r.Subtype, o.Subtype, "subtype"}, {r.StopReason, o.StopReason, "stop_reason"}, {r.TerminalReason, o.TerminalReason, "terminal_reason"}}
	for _, f := range strs {
		if f.want == nil {
			continue
		}
		if f.got == nil {
			return nil, f.field
		}
		if *f.got != *f.want {
			mismatches = append(mismatches, fmt.Sprintf("%s is %s, expected %s", f.field, Quote(*f.got), Quote(*f.want)))
		}
	}
	if s := r.APIErrorStatus; s != nil {
		switch {
		case s.Absent && o.APIErrorStatus != nil:
			mismatches = append(mismatches, fmt.Sprintf("api_error_status is %s, expected absent", Quote(*o.APIErrorStatus)))
		case !s.Absent && (o.APIErrorStatus == nil || *o.APIErrorStatus != s.Equals):
			mismatches = append(mismatches, fmt.Sprintf("api_error_status is %s, expected %s", quoteOpt(o.APIErrorStatus), Quote(s.Equals)))
		}
	}
	return mismatches, ""
}

func runDisplay(r *RunResult) string {
	var parts []string
	if r.IsError != nil {
		parts = append(parts, fmt.Sprintf("is_error %t", *r.IsError))
	}
	for _, f := range []struct {
		v    *string
		name string
	}{{r.Subtype, "subtype"}, {r.StopReason, "stop_reason"}, {r.TerminalReason, "terminal_reason"}} {
		if f.v != nil {
			parts = append(parts, f.name+" "+Quote(*f.v))
		}
	}
	if s := r.APIErrorStatus; s != nil {
		if s.Absent {
			parts = append(parts, "api_error_status absent")
		} else {
			parts = append(parts, "api_error_status "+Quote(s.Equals))
		}
	}
	return "(" + joinComma(parts) + ")"
}

func joinComma(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += ", "
		}
		out += p
	}
	return out
}

// rejectedLimitBetween finds a rate_limit with status `rejected` strictly
// between two event indices. The limits are in index order: a binary
// search finds the first after from, so each call scans only the limits
// that lie between the two.
func rejectedLimitBetween(ir *IR, from, to int) int {
	for k := sort.SearchInts(ir.rateLimits, from+1); k < len(ir.rateLimits) && ir.rateLimits[k] < to; k++ {
		if li := ir.rateLimits[k]; deref(ir.Events[li].RateLimit().Status) == "rejected" {
			return li
		}
	}
	return -1
}

// evalRecordedCount bounds one whole number the terminal record carries.
func evalRecordedCount(ir *IR, k *Kind) Outcome {
	o, oi := ir.lastOutcome()
	if o == nil {
		return unkOutcome("no_run_outcome", nil)
	}
	var v *uint64
	var field string
	switch k.Name {
	case KindPermissionDenied:
		v, field = o.PermissionDenials, "permission_denials"
	case KindSubagentSpawned:
		v, field = o.SubagentsSpawned, "subagents_spawned"
	case KindTurns:
		v, field = o.NumTurns, "num_turns"
	case KindDurationTotal:
		v, field = o.DurationMs, "duration_ms"
	case KindDurationAPI:
		v, field = o.DurationAPIMs, "duration_api_ms"
	case KindTTFT:
		v, field = o.TTFTMs, "ttft_ms"
	case KindTimeToRequest:
		v, field = o.TimeToReqMs, "time_to_request_ms"
	case KindIterations, KindTokensThinking:
		if o.Usage == nil {
			return fieldAbsent("usage")
		}
		v, field = o.Usage.Iterations, "usage.iterations"
		if k.Name == KindTokensThinking {
			v, field = o.Usage.ThinkingTokens, "usage.thinking_tokens"
		}
	}
	if v == nil {
		return fieldAbsent(field)
	}
	return decideCount(k.Count, *v, false, nil, []int{oi}, fmt.Sprintf("%s is %d, bound %s", field, *v, k.Count))
}

func evalTextMatches(ir *IR, k *Kind) Outcome {
	if ir.finalText < 0 {
		return unkOutcome("no_final_text", nil)
	}
	t := ir.FinalText
	note := fmt.Sprintf("final assistant text (%d bytes, %d characters) against %s", len(t), utf8.RuneCountInString(t), k.Matcher.Display())
	return decideBool(k.Matcher.MatchText(t), []int{ir.finalText}, note)
}

func evalRateLimit(ir *IR, k *Kind) Outcome {
	if len(ir.rateLimits) == 0 {
		return unkOutcome("no_rate_limit_event", nil)
	}
	li := ir.rateLimits[len(ir.rateLimits)-1]
	r, at := ir.Events[li].RateLimit(), []int{li}
	switch k.Name {
	case KindRateLimitStatus:
		if r.Status == nil {
			return fieldAbsent("rate_limit.status")
		}
		ok := false
		for _, a := range k.Allowed {
			ok = ok || a == *r.Status
		}
		return decideBool(ok, at, fmt.Sprintf("status %s, allowed [%s]", Quote(*r.Status), joinComma(sortedSet(k.Allowed))))
	case KindRateLimitOverage:
		if r.IsUsingOverage == nil {
			return fieldAbsent("rate_limit.is_using_overage")
		}
		return decideBool(*r.IsUsingOverage == *k.EqualsBool, at, fmt.Sprintf("is_using_overage is %t, expected %t", *r.IsUsingOverage, *k.EqualsBool))
	}
	if r.Utilization == nil {
		return fieldAbsent("rate_limit.utilization")
	}
	return decideBool(k.Range.Holds(*r.Utilization), at, fmt.Sprintf("utilization %s, bound %s", shortFloat(*r.Utilization), k.Range))
}

// tokenSource reads the four token fields from usage or model_usage[M].
type tokenSource struct {
	input, output, cacheRead, cacheCreation *uint64
	cost                                    *float64
}

func tokensOf(o *RunOutcome, model *string) (tokenSource, *Outcome) {
	if model != nil {
		if o.ModelUsage == nil {
			r := fieldAbsent("model_usage")
			return tokenSource{}, &r
		}
		m, ok := o.ModelUsage[*model]
		if !ok {
			r := unkOutcome("model_not_used", map[string]any{"model": *model})
			return tokenSource{}, &r
		}
		return tokenSource{m.InputTokens, m.OutputTokens, m.CacheReadInputTokens, m.CacheCreationInputTokens, m.CostUSD}, nil
	}
	if o.Usage == nil {
		r := fieldAbsent("usage")
		return tokenSource{}, &r
	}
	u := o.Usage
	return tokenSource{u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, o.TotalCostUSD}, nil
}

func evalTokens(ir *IR, k *Kind) Outcome {
	o, oi := ir.lastOutcome()
	if o == nil {
		return unkOutcome("no_run_outcome", nil)
	}
	src, why := tokensOf(o, k.Model)
	if why != nil {
		return *why
	}
	var v *uint64
	var field string
	var sum *total
	switch k.Name {
	case KindTokensInput:
		v, field = src.input, "input_tokens"
	case KindTokensOutput:
		v, field = src.output, "output_tokens"
	case KindCacheReadTokens:
		v, field = src.cacheRead, "cache_read_input_tokens"
	case KindCacheCreatedTokens:
		v, field = src.cacheCreation, "cache_creation_input_tokens"
	case KindTokensTotal:
		field = "input_tokens + output_tokens"
		if src.input != nil && src.output != nil {
			sum = &total{}
			sum.plus(*src.input)
			sum.plus(*src.output)
		}
	}
	if v == nil && sum == nil {
		return fieldAbsent(field)
	}
	if sum == nil {
		sum = &total{v: *v}
	}
	scope := ""
	if k.Model != nil {
		scope = " for model " + Quote(*k.Model)
	}
	return decideTotal(k.Count, *sum, false, nil, []int{oi}, fmt.Sprintf("%s%s is %s, bound %s", field, scope, sum, k.Count))
}

func evalCost(ir *IR, k *Kind) Outcome {
	o, oi := ir.lastOutcome()
	if o == nil {
		return unkOutcome("no_run_outcome", nil)
	}
	cost := o.TotalCostUSD
	scope := ""
	if k.Model != nil {
		src, why := tokensOf(o, k.Model)
		if why != nil {
			return *why
		}
		cost, scope = src.cost, " for model "+Quote(*k.Model)
	}
	if cost == nil {
		return fieldAbsent("total_cost_usd")
	}
	return decideBool(k.Range.Holds(*cost), []int{oi}, fmt.Sprintf("cost%s $%.4f, bound %s USD", scope, *cost, k.Range))
}

// evalUsageFacts covers cache.used, cache.hit_ratio, speed and service_tier.
func evalUsageFacts(ir *IR, k *Kind) Outcome {
	o, oi := ir.lastOutcome()
	if o == nil {
		return unkOutcome("no_run_outcome", nil)
	}
	if o.Usage == nil {
		return fieldAbsent("usage")
	}
	u, at := o.Usage, []int{oi}
	switch k.Name {
	case KindCacheUsed:
		if u.CacheReadInputTokens == nil {
			return fieldAbsent("usage.cache_read_input_tokens")
		}
		used := *u.CacheReadInputTokens > 0
		return decideBool(used == *k.EqualsBool, at, fmt.Sprintf("cache_read_input_tokens is %d (used %t), expected %t", *u.CacheReadInputTokens, used, *k.EqualsBool))
	case KindCacheHitRatio:
		if u.CacheReadInputTokens == nil || u.InputTokens == nil {
			return fieldAbsent("usage.cache_read_input_tokens + usage.input_tokens")
		}
		read, input := *u.CacheReadInputTokens, *u.InputTokens
		var den total
		den.plus(read)
		den.plus(input)
		if den.v == 0 {
			return unkOutcome("ratio_undefined", map[string]any{"denominator": "cache reads plus input tokens"})
		}
		// In floats: the sum of two token counts may not fit a uint64.
		ratio := float64(read) / (float64(read) + float64(input))
		return decideBool(k.Range.Holds(ratio), at, fmt.Sprintf("hit ratio %.5f (%d of %s), bound %s", ratio, read, den, k.Range))
	case KindSpeed:
		return equalsField(u.Speed, "usage.speed", *k.Equals, at)
	}
	return equalsField(u.ServiceTier, "usage.service_tier", *k.Equals, at)
}
