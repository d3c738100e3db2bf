package trace

import (
	"fmt"
	"maps"
	"slices"
)

// evaluate decides one kind against the IR (trace.md §3.6).
func evaluate(ir *IR, k *Kind) Outcome {
	switch k.Name {
	case KindEnvPluginLoaded, KindEnvExclusive, KindEnvOutputStyle, KindEnvModel, KindEnvPermissionMode,
		KindEnvAPIKeySource, KindEnvSkillAvailable, kindSkillAvailableAlias, KindEnvAgentAvailable,
		KindEnvMCPServers, KindEnvToolAvailable:
		return evalEnv(ir, k)
	case KindSkillInvoked:
		return evalSkillInvoked(ir, k)
	case KindSkillCompleted:
		return evalSkillCompleted(ir, k)
	case KindToolCalled:
		return evalToolCalled(ir, k)
	case KindToolAbsent:
		return evalToolAbsent(ir, k)
	case KindToolResult:
		return evalToolResult(ir, k)
	case KindToolResultBytes:
		return evalToolResultBytes(ir, k)
	case KindToolFailed:
		return evalToolFailed(ir, k)
	case KindToolErrorRate:
		return evalToolErrorRate(ir, k)
	case KindToolRepeated:
		return evalToolRepeated(ir, k)
	case KindOrder:
		return evalOrder(ir, k)
	case KindResult:
		return evalResult(ir, k)
	case KindPermissionDenied, KindSubagentSpawned, KindTurns, KindIterations, KindTokensThinking,
		KindDurationTotal, KindDurationAPI, KindTTFT, KindTimeToRequest:
		return evalRecordedCount(ir, k)
	case KindAPIRequests, KindEventsAssistant:
		if !ir.RecordsRequests() {
			return unkOutcome("no_requests", nil)
		}
		return evalRequestCount(ir, k)
	case KindTextMatches:
		return evalTextMatches(ir, k)
	case KindRateLimitStatus, KindRateLimitOverage, KindRateLimitUtil:
		return evalRateLimit(ir, k)
	case KindTokensInput, KindTokensOutput, KindTokensTotal, KindCacheReadTokens, KindCacheCreatedTokens:
		return evalTokens(ir, k)
	case KindThinkingEstimated:
		if ir.lastEstimate < 0 {
			return unkOutcome("no_thinking_estimate", nil)
		}
		n := *ir.Events[ir.lastEstimate].Estimate().EstimatedTokens
		return decideCount(k.Count, n, false, nil, []int{ir.lastEstimate}, fmt.Sprintf("estimated %d thinking token(s), bound %s", n, k.Count))
	case KindCostTotal:
		return evalCost(ir, k)
	case KindCacheUsed, KindCacheHitRatio, KindSpeed, KindServiceTier:
		return evalUsageFacts(ir, k)
	case KindUsageTrend:
		return evalUsageTrend(ir, k)
	case KindUsageShare:
		return evalUsageShare(ir, k)
	case KindStepGenTime, KindStepExecTime:
		return evalStepTime(ir, k)
	case KindTimeInferenceTotal, KindTimeToolExecTotal:
		return evalTimeTotal(ir, k)
	}
	return unkOutcome("unsupported_kind", map[string]any{"kind": string(k.Name)})
}

// evalRequestCount bounds the api requests or the assistant events
// (trace.md §1.4); they cite nothing and unread events are ignored.
func evalRequestCount(ir *IR, k *Kind) Outcome {
	if k.Name == KindAPIRequests {
		n := apiRequests(ir.Requests)
		return decideCount(k.Count, uint64(n), false, nil, nil, fmt.Sprintf("%d api request(s), bound %s", n, k.Count))
	}
	n := len(ir.Requests)
	return decideCount(k.Count, uint64(n), false, nil, nil, fmt.Sprintf("%d assistant event(s), bound %s", n, k.Count))
}

// decideCount is trace.md §3.7; reason is the undecided reason under grow
// (nil means opaque_events without payload).
func decideCount(b *CountBound, observed uint64, grow bool, reason func() Outcome, events []int, note string) Outcome {
	holds := b.Holds(observed)
	if !grow {
		if holds {
			return okOutcome(events, "%s", note)
		}
		return gapOutcome(events, "%s", note)
	}
	switch {
	case holds && b.AtMost == nil && b.Exactly == nil:
		return okOutcome(events, "%s", note)
	case b.Exactly != nil && observed > *b.Exactly, b.Exactly == nil && b.AtMost != nil && observed > *b.AtMost:
		return gapOutcome(events, "%s", note)
	}
	if reason != nil {
		return reason()
	}
	return unkOutcome("opaque_events", nil)
}

// decideTotal is decideCount of a total. A total past every uint64 is
// past every bound's `at_most` and `exactly` and meets every `at_least`,
// so it decides (gap, or ok when only `at_least` is bound) whether or not
// the count may grow.
func decideTotal(b *CountBound, t total, grow bool, reason func() Outcome, events []int, note string) Outcome {
	if !t.over {
		return decideCount(b, t.v, grow, reason, events, note)
	}
	if b.AtMost == nil && b.Exactly == nil {
		return okOutcome(events, "%s", note)
	}
	return gapOutcome(events, "%s", note)
}

// decideGrowing wraps decideCount with the IR's unread events: the count
// may grow when an event is unread or a call undecided, and the undecided
// reason is the first undecided call's, else the unread events (built
// only when the outcome is undecided).
func decideGrowing(ir *IR, b *CountBound, observed uint64, undecided *Outcome, events []int, note string) Outcome {
	grow := ir.Unread() > 0 || undecided != nil
	reason := func() Outcome {
		if undecided != nil {
			return *undecided
		}
		return opaqueReason(ir)
	}
	return decideCount(b, observed, grow, reason, events, note)
}

func opaqueReason(ir *IR) Outcome {
	types := []string{}
	for _, i := range ir.opaque {
		if t := ir.Events[i].Opaque().EventType; t != nil {
			types = append(types, *t)
		}
	}
	return unkOutcome("opaque_events", map[string]any{"events": append([]int{}, ir.opaque...), "types": types})
}

// selected returns the indices of the calls a selector picks.
func selected(ir *IR, s *Selector) []int {
	var out []int
	for _, ci := range ir.calls {
		if s.Matches(ir.Events[ci].Call()) {
			out = append(out, ci)
		}
	}
	return out
}

func nothingInScope(s *Selector) Outcome {
	return unkOutcome("nothing_in_scope", map[string]any{"selector": s.Display()})
}

func (ir *IR) call(i int) *ToolCall { return ir.Events[i].Call() }

func (ir *IR) resultOf(ci int) *ToolResult {
	if r := ir.call(ci).ResultEvent; r >= 0 {
		return ir.Events[r].Result()
	}
	return nil
}

func noResult(ci int) Outcome {
	return unkOutcome("no_result_correlated", map[string]any{"call_event": ci})
}

func resultFieldAbsent(ir *IR, ci int, field string) Outcome {
	return unkOutcome("result_field_absent", map[string]any{"call_event": ci, "result_event": ir.call(ci).ResultEvent, "field": field})
}

func evalSkillInvoked(ir *IR, k *Kind) Outcome {
	calls := skillCalls(ir, k.Skill)
	return decideGrowing(ir, k.Count, uint64(len(calls)), nil, calls,
		fmt.Sprintf("%d call(s) of skill %s, bound %s", len(calls), Quote(k.Skill), k.Count))
}

func skillCalls(ir *IR, skill string) []int {
	var out []int
	for _, ci := range ir.calls {
		c := ir.call(ci)
		if v, ok := argument(c, "skill"); ok && c.Name == "Skill" && v.Kind == ValueString && v.Text == skill {
			out = append(out, ci)
		}
	}
	return out
}

// present reports whether fields records name with a value other than
// null (a JSON null is absent, trace.md §1.9).
func present(fields Fields, name string) bool {
	v, ok := fields.Get(name)
	return ok && v.Kind != ValueNull
}

// isString reports whether fields records name as the string want.
func isString(fields Fields, name, want string) bool {
	v, ok := fields.Get(name)
	return ok && v.Kind == ValueString && v.Text == want
}

func evalSkillCompleted(ir *IR, k *Kind) Outcome {
	calls := skillCalls(ir, k.Skill)
	var cited []int
	var undecided *Outcome
	n := 0
	for _, ci := range calls {
		r := ir.resultOf(ci)
		var why *Outcome
		switch {
		case r == nil:
			o := noResult(ci)
			why = &o
		case !present(r.Fields, "commandName"):
			o := resultFieldAbsent(ir, ci, "commandName")
			why = &o
		case !isString(r.Fields, "commandName", k.Skill):
			continue
		default:
			if s, ok := r.Fields.Get("success"); !ok || s.Kind != ValueBool {
				o := resultFieldAbsent(ir, ci, "success")
				why = &o
			} else if s.Text == "true" {
				n++
				cited = append(cited, ci, ir.call(ci).ResultEvent)
			}
		}
		if why != nil && undecided == nil {
			undecided = why
		}
	}
	return decideGrowing(ir, k.Count, uint64(n), undecided, cited,
		fmt.Sprintf("%d of %d call(s) of skill %s completed, bound %s", n, len(calls), Quote(k.Skill), k.Count))
}

func evalToolCalled(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	return decideGrowing(ir, k.Count, uint64(len(calls)), nil, calls,
		fmt.Sprintf("%d call(s) of %s, bound %s", len(calls), k.Selector.Display(), k.Count))
}

func evalToolAbsent(ir *IR, k *Kind) Outcome {
	if calls := selected(ir, k.Selector); len(calls) > 0 {
		return gapOutcome(calls, "%d call(s) of %s, expected none", len(calls), k.Selector.Display())
	}
	if c := ir.StreamClose; c != nil {
		return okOutcome(nil, "no call of %s; stream closed by %s (%s), %d unread event(s)",
			k.Selector.Display(), c.Witness, deref(c.Reason), ir.Unread())
	}
	return unkOutcome("stream_not_closed", map[string]any{"markers": append([]string{}, ir.ClosureMarkers...)})
}

func evalToolResult(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	if len(calls) == 0 {
		return nothingInScope(k.Selector)
	}
	var failing, results []int
	var undecided *Outcome
	for _, ci := range calls {
		r := ir.resultOf(ci)
		if r == nil {
			if undecided == nil {
				o := noResult(ci)
				undecided = &o
			}
			continue
		}
		re := ir.call(ci).ResultEvent
		results = append(results, re)
		for _, f := range slices.Sorted(maps.Keys(k.Result)) {
			v, ok := r.Fields.Get(f)
			if !ok {
				if undecided == nil {
					o := resultFieldAbsent(ir, ci, f)
					undecided = &o
				}
				continue
			}
			if !k.Result[f].MatchValue(v) {
				failing = append(failing, re)
				break
			}
		}
	}
	want := resultDisplay(k.Result)
	switch {
	case len(failing) > 0:
		return gapOutcome(failing, "%d of %d result(s) of %s fail %s", len(failing), len(calls), k.Selector.Display(), want)
	case undecided != nil:
		return *undecided
	}
	return okOutcome(results, "all %d result(s) of %s satisfy %s", len(results), k.Selector.Display(), want)
}

func resultDisplay(m map[string]*Matcher) string {
	s := "("
	for i, f := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			s += ", "
		}
		s += f + " " + m[f].Display()
	}
	return s + ")"
}

func evalToolResultBytes(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	if len(calls) == 0 {
		return nothingInScope(k.Selector)
	}
	var results []int
	for _, ci := range calls {
		if ir.resultOf(ci) == nil {
			return noResult(ci)
		}
		results = append(results, ir.call(ci).ResultEvent)
	}
	if k.Per == perEach {
		var offenders []int
		for _, re := range results {
			if !k.Count.Holds(ir.Events[re].Result().ContentBytes) {
				offenders = append(offenders, re)
			}
		}
		if len(offenders) > 0 {
			return gapOutcome(offenders, "%d of %d result(s) of %s outside %s bytes each", len(offenders), len(results), k.Selector.Display(), k.Count)
		}
		return okOutcome(results, "all %d result(s) of %s within %s bytes each", len(results), k.Selector.Display(), k.Count)
	}
	var sum total
	for _, re := range results {
		sum.plus(ir.Events[re].Result().ContentBytes)
	}
	note := fmt.Sprintf("%sB across %d result(s) of %s, bound %s", sum, len(results), k.Selector.Display(), k.Count)
	return decideTotal(k.Count, sum, ir.Unread() > 0, func() Outcome { return opaqueReason(ir) }, results, note)
}

// failures counts the failed results of calls; undecided is the first call
// whose failure cannot be read.
func failures(ir *IR, calls []int) (failed []int, undecided *Outcome) {
	for _, ci := range calls {
		r := ir.resultOf(ci)
		var why Outcome
		switch {
		case r == nil:
			why = noResult(ci)
		case r.IsError == nil:
			why = resultFieldAbsent(ir, ci, "is_error")
		default:
			if *r.IsError {
				failed = append(failed, ir.call(ci).ResultEvent)
			}
			continue
		}
		if undecided == nil {
			undecided = &why
		}
	}
	return failed, undecided
}

func evalToolFailed(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	if len(calls) == 0 {
		return nothingInScope(k.Selector)
	}
	failed, undecided := failures(ir, calls)
	return decideGrowing(ir, k.Count, uint64(len(failed)), undecided, failed,
		fmt.Sprintf("%d of %d call(s) of %s failed, bound %s", len(failed), len(calls), k.Selector.Display(), k.Count))
}

func evalToolErrorRate(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	if len(calls) == 0 {
		return nothingInScope(k.Selector)
	}
	failed, undecided := failures(ir, calls)
	if undecided != nil {
		return *undecided
	}
	rate := float64(len(failed)) / float64(len(calls))
	note := fmt.Sprintf("%d/%d call(s) of %s failed, rate %.3f, bound %s", len(failed), len(calls), k.Selector.Display(), rate, k.Range)
	if k.Range.Holds(rate) {
		return okOutcome(calls, "%s", note)
	}
	return gapOutcome(calls, "%s", note)
}

func evalToolRepeated(ir *IR, k *Kind) Outcome {
	calls := selected(ir, k.Selector)
	groups := map[[32]byte][]int{}
	for _, ci := range calls {
		key := ir.call(ci).repKey
		groups[key] = append(groups[key], ci)
	}
	var cited []int
	n := 0
	for _, group := range groups {
		if len(group) > 1 {
			n++
			cited = append(cited, group...)
		}
	}
	slices.Sort(cited)
	return decideGrowing(ir, k.Count, uint64(n), nil, cited,
		fmt.Sprintf("%d group(s) of identical calls among %d call(s) of %s, bound %s", n, len(calls), k.Selector.Display(), k.Count))
}

func evalOrder(ir *IR, k *Kind) Outcome {
	first, before := selected(ir, k.First), selected(ir, k.Before)
	if len(first) == 0 {
		return unkOutcome("never_occurred", map[string]any{"selector": k.First.Display()})
	}
	if len(before) == 0 {
		return unkOutcome("never_occurred", map[string]any{"selector": k.Before.Display()})
	}
	i, j := first[0], before[0]
	note := fmt.Sprintf("first %s at event %d, first %s at event %d", k.First.Display(), i, k.Before.Display(), j)
	if i < j {
		return okOutcome([]int{i, j}, "%s", note)
	}
	return gapOutcome([]int{i, j}, "%s", note)
}
