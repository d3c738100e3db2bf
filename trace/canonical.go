package trace

// canonicalSpec builds the validated document whose compact form is digested
// (trace.md §5): absent optionals null, defaults materialised, sets sorted.
func canonicalSpec(s *Spec) map[string]any {
	rows := make([]any, 0, len(s.Expectations))
	for _, e := range s.Expectations {
		rows = append(rows, map[string]any{
			"id":         e.ID,
			"statement":  e.Statement,
			"severity":   e.Severity,
			"on_unknown": e.OnUnknown,
			"kind":       canonicalKind(&e.Kind),
		})
	}
	return map[string]any{"format": s.Format, "id": s.ID, "title": s.Title, "expectations": rows}
}

// canonicalKind is `{"expect": <name>, …params}` with the validated model's
// parameter names.
func canonicalKind(k *Kind) map[string]any {
	p := map[string]any{"expect": string(k.Name)}
	switch k.Name {
	case KindToolCalled, KindToolFailed, KindToolRepeated:
		p["selector"], p["count"] = k.Selector.canonical(), k.Count.canonical()
	case KindToolAbsent:
		p["selector"] = k.Selector.canonical()
	case KindToolResult:
		fields := map[string]any{}
		for f, m := range k.Result {
			fields[f] = m.canonical()
		}
		p["selector"], p["result"] = k.Selector.canonical(), map[string]any{"fields": fields}
	case KindToolResultBytes:
		p["selector"], p["bytes"], p["per"] = k.Selector.canonical(), k.Count.canonical(), k.Per
	case KindToolErrorRate:
		p["selector"], p["rate"] = k.Selector.canonical(), k.Range.canonical()
	case KindStepGenTime, KindStepExecTime:
		p["selector"], p["ms"] = k.Selector.canonical(), k.Count.canonical()
	case KindOrder:
		p["first"], p["before"] = k.First.canonical(), k.Before.canonical()
	case KindEnvPluginLoaded:
		p["plugin"], p["version"], p["source"] = k.Plugin, k.Version, k.Source
	case KindEnvExclusive:
		p["plugins"] = sortedSet(k.Plugins)
	case KindEnvOutputStyle, KindEnvModel, KindEnvPermissionMode, KindEnvAPIKeySource, KindSpeed, KindServiceTier:
		p["equals"] = *k.Equals
	case KindRateLimitOverage, KindCacheUsed:
		p["equals"] = *k.EqualsBool
	case KindEnvSkillAvailable, kindSkillAvailableAlias:
		p["skill"] = k.Skill
	case KindSkillInvoked, KindSkillCompleted:
		p["skill"], p["count"] = k.Skill, k.Count.canonical()
	case KindEnvAgentAvailable:
		p["agent"] = k.Agent
	case KindEnvToolAvailable:
		p["availability"] = canonicalAvailability(k.Availability)
	case KindEnvMCPServers, KindPermissionDenied, KindSubagentSpawned, KindTurns, KindAPIRequests,
		KindEventsAssistant, KindIterations, KindTokensThinking, KindThinkingEstimated:
		p["count"] = k.Count.canonical()
	case KindDurationTotal, KindDurationAPI, KindTTFT, KindTimeToRequest, KindTimeInferenceTotal, KindTimeToolExecTotal:
		p["ms"] = k.Count.canonical()
	case KindResult:
		p["is_error"], p["subtype"], p["stop_reason"], p["terminal_reason"] = optBool(k.Run.IsError), k.Run.Subtype, k.Run.StopReason, k.Run.TerminalReason
		p["api_error_status"] = canonicalAPIErrorStatus(k.Run.APIErrorStatus)
	case KindTextMatches:
		p["matcher"] = k.Matcher.canonical()
	case KindRateLimitStatus:
		p["allowed"] = sortedSet(k.Allowed)
	case KindRateLimitUtil:
		p["utilization"] = k.Range.canonical()
	case KindCacheHitRatio:
		p["ratio"] = k.Range.canonical()
	case KindTokensInput, KindTokensOutput, KindTokensTotal, KindCacheReadTokens, KindCacheCreatedTokens:
		p["count"], p["model"] = k.Count.canonical(), k.Model
	case KindCostTotal:
		p["usd"], p["model"] = k.Range.canonical(), k.Model
	case KindUsageTrend:
		p["field"], p["trend"] = k.Field, k.Trend
	case KindUsageShare:
		p["field"], p["share"] = k.Field, k.Range.canonical()
	}
	return p
}

func optBool(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}

func canonicalAvailability(a *Availability) map[string]any {
	switch a.Form {
	case "offered", "not_offered":
		return map[string]any{"form": a.Form, "tool": a.Tool}
	case "only":
		return map[string]any{"form": a.Form, "tools": a.Tools}
	}
	return map[string]any{"form": a.Form, "tools": a.Tools, "operations": a.Operations}
}

func canonicalAPIErrorStatus(s *APIErrorStatus) any {
	switch {
	case s == nil:
		return nil
	case s.Absent:
		return map[string]any{"api_error_status": "absent"}
	}
	return map[string]any{"api_error_status": "equals", "value": s.Equals}
}
