package trace

import (
	"maps"
	"slices"
)

// KindName is the canonical name of an expectation kind (trace.md §3.6).
type KindName string

// The 53 expectation kinds.
const (
	KindEnvPluginLoaded     KindName = "env.plugin_loaded"
	KindEnvExclusive        KindName = "env.exclusive"
	KindEnvOutputStyle      KindName = "env.output_style"
	KindEnvModel            KindName = "env.model"
	KindEnvPermissionMode   KindName = "env.permission_mode"
	KindEnvAPIKeySource     KindName = "env.api_key_source"
	KindEnvSkillAvailable   KindName = "env.skill_available"
	KindEnvAgentAvailable   KindName = "env.agent_available"
	KindEnvMCPServers       KindName = "env.mcp_servers"
	KindEnvToolAvailable    KindName = "env.tool_available"
	KindSkillInvoked        KindName = "skill.invoked"
	KindSkillCompleted      KindName = "skill.completed"
	KindToolCalled          KindName = "tool.called"
	KindToolAbsent          KindName = "tool.absent"
	KindToolResult          KindName = "tool.result"
	KindToolResultBytes     KindName = "tool.result_bytes"
	KindToolFailed          KindName = "tool.failed"
	KindToolErrorRate       KindName = "tool.error_rate"
	KindToolRepeated        KindName = "tool.repeated"
	KindOrder               KindName = "order"
	KindResult              KindName = "result"
	KindPermissionDenied    KindName = "permission.denied"
	KindSubagentSpawned     KindName = "subagent.spawned"
	KindTurns               KindName = "turns"
	KindAPIRequests         KindName = "api_requests"
	KindEventsAssistant     KindName = "events.assistant"
	KindIterations          KindName = "iterations"
	KindTextMatches         KindName = "text.matches"
	KindRateLimitStatus     KindName = "rate_limit.status"
	KindRateLimitOverage    KindName = "rate_limit.overage"
	KindRateLimitUtil       KindName = "rate_limit.utilization"
	KindTokensInput         KindName = "tokens.input"
	KindTokensOutput        KindName = "tokens.output"
	KindTokensTotal         KindName = "tokens.total"
	KindTokensThinking      KindName = "tokens.thinking"
	KindThinkingEstimated   KindName = "thinking.estimated"
	KindCostTotal           KindName = "cost.total"
	KindCacheUsed           KindName = "cache.used"
	KindCacheReadTokens     KindName = "cache.read_tokens"
	KindCacheCreatedTokens  KindName = "cache.created_tokens"
	KindCacheHitRatio       KindName = "cache.hit_ratio"
	KindUsageTrend          KindName = "usage.trend"
	KindUsageShare          KindName = "usage.share"
	KindDurationTotal       KindName = "duration.total"
	KindDurationAPI         KindName = "duration.api"
	KindTTFT                KindName = "ttft"
	KindTimeToRequest       KindName = "time_to_request"
	KindStepGenTime         KindName = "step.gen_time"
	KindStepExecTime        KindName = "step.exec_time"
	KindTimeInferenceTotal  KindName = "time.inference_total"
	KindTimeToolExecTotal   KindName = "time.tool_exec_total"
	KindSpeed               KindName = "speed"
	KindServiceTier         KindName = "service_tier"
	kindSkillAvailableAlias KindName = "skill.available"
)

// shape names the parameter layout a kind is written with (the schema's Raw* types).
type shape int

const (
	shapePluginLoaded shape = iota
	shapePlugins
	shapeEquals
	shapeEqualsBool
	shapeSkill
	shapeAgent
	shapeToolAvailable
	shapeCount
	shapeMs
	shapeSkillCount
	shapeToolCalled
	shapeSelector
	shapeToolResult
	shapeToolResultBytes
	shapeScopedCount
	shapeToolErrorRate
	shapeOrder
	shapeRunResult
	shapeMatcher
	shapeAllowed
	shapeRange
	shapeModelCount
	shapeCostTotal
	shapeUsageTrend
	shapeUsageShare
	shapeStepMs
)

// kindShapes maps every kind name as it may be written to its shape.
var kindShapes = map[KindName]shape{
	KindEnvPluginLoaded: shapePluginLoaded, KindEnvExclusive: shapePlugins,
	KindEnvOutputStyle: shapeEquals, KindEnvModel: shapeEquals, KindEnvPermissionMode: shapeEquals,
	KindEnvAPIKeySource: shapeEquals, KindEnvSkillAvailable: shapeSkill, kindSkillAvailableAlias: shapeSkill,
	KindEnvAgentAvailable: shapeAgent, KindEnvMCPServers: shapeCount, KindEnvToolAvailable: shapeToolAvailable,
	KindSkillInvoked: shapeSkillCount, KindSkillCompleted: shapeSkillCount,
	KindToolCalled: shapeToolCalled, KindToolAbsent: shapeSelector, KindToolResult: shapeToolResult,
	KindToolResultBytes: shapeToolResultBytes, KindToolFailed: shapeScopedCount, KindToolErrorRate: shapeToolErrorRate,
	KindToolRepeated: shapeScopedCount, KindOrder: shapeOrder, KindResult: shapeRunResult,
	KindPermissionDenied: shapeCount, KindSubagentSpawned: shapeCount, KindTurns: shapeCount,
	KindAPIRequests: shapeCount, KindEventsAssistant: shapeCount, KindIterations: shapeCount,
	KindTextMatches: shapeMatcher, KindRateLimitStatus: shapeAllowed, KindRateLimitOverage: shapeEqualsBool,
	KindRateLimitUtil: shapeRange, KindTokensInput: shapeModelCount, KindTokensOutput: shapeModelCount,
	KindTokensTotal: shapeModelCount, KindTokensThinking: shapeCount, KindThinkingEstimated: shapeCount,
	KindCostTotal: shapeCostTotal, KindCacheUsed: shapeEqualsBool, KindCacheReadTokens: shapeModelCount,
	KindCacheCreatedTokens: shapeModelCount, KindCacheHitRatio: shapeRange, KindUsageTrend: shapeUsageTrend,
	KindUsageShare: shapeUsageShare, KindDurationTotal: shapeMs, KindDurationAPI: shapeMs, KindTTFT: shapeMs,
	KindTimeToRequest: shapeMs, KindStepGenTime: shapeStepMs, KindStepExecTime: shapeStepMs,
	KindTimeInferenceTotal: shapeMs, KindTimeToolExecTotal: shapeMs, KindSpeed: shapeEquals, KindServiceTier: shapeEquals,
}

// KindNames returns the 53 canonical kind names, sorted.
func KindNames() []KindName {
	var out []KindName
	for _, k := range slices.Sorted(maps.Keys(kindShapeStrings())) {
		if KindName(k) != kindSkillAvailableAlias {
			out = append(out, KindName(k))
		}
	}
	return out
}

func kindShapeStrings() map[string]shape {
	m := make(map[string]shape, len(kindShapes))
	for k, v := range kindShapes {
		m[string(k)] = v
	}
	return m
}
