package trace

import (
	"fmt"
	"slices"
	"strings"
)

func evalEnv(ir *IR, k *Kind) Outcome {
	if ir.sessionStart < 0 {
		return unkOutcome("no_session_start", nil)
	}
	at := []int{ir.sessionStart}
	s := ir.Events[ir.sessionStart].Session()
	switch k.Name {
	case KindEnvPluginLoaded:
		return evalPluginLoaded(s, k, at)
	case KindEnvExclusive:
		if s.Plugins == nil {
			return fieldAbsent("plugins")
		}
		var names []string
		for _, p := range s.Plugins {
			names = append(names, p.Name)
		}
		got, want := sortedSet(names), sortedSet(k.Plugins)
		note := fmt.Sprintf("loaded plugins [%s], expected exactly [%s]", strings.Join(got, ", "), strings.Join(want, ", "))
		return decideBool(slices.Equal(got, want), at, note)
	case KindEnvOutputStyle:
		return equalsField(s.OutputStyle, "output_style", *k.Equals, at)
	case KindEnvModel:
		return equalsField(s.Model, "model", *k.Equals, at)
	case KindEnvPermissionMode:
		return equalsField(s.PermissionMode, "permission_mode", *k.Equals, at)
	case KindEnvAPIKeySource:
		return equalsField(s.APIKeySource, "api_key_source", *k.Equals, at)
	case KindEnvSkillAvailable, kindSkillAvailableAlias:
		return listed(s.Skills, "skills", "skill", k.Skill, at)
	case KindEnvAgentAvailable:
		return listed(s.Agents, "agents", "agent", k.Agent, at)
	case KindEnvMCPServers:
		if s.MCPServers == nil {
			return fieldAbsent("mcp_servers")
		}
		n := uint64(len(s.MCPServers))
		return decideCount(k.Count, n, false, nil, at, fmt.Sprintf("%d MCP server(s), bound %s", n, k.Count))
	case KindEnvToolAvailable:
		return evalToolAvailable(s, k.Availability, at)
	}
	return unkOutcome("unsupported_kind", map[string]any{"kind": string(k.Name)})
}

func decideBool(holds bool, events []int, note string) Outcome {
	if holds {
		return okOutcome(events, "%s", note)
	}
	return gapOutcome(events, "%s", note)
}

func equalsField(got *string, field, want string, at []int) Outcome {
	if got == nil {
		return fieldAbsent(field)
	}
	return decideBool(*got == want, at, fmt.Sprintf("%s is %s, expected %s", field, Quote(*got), Quote(want)))
}

func listed(list []string, field, what, name string, at []int) Outcome {
	if list == nil {
		return fieldAbsent(field)
	}
	in := slices.Contains(list, name)
	verb := "is not"
	if in {
		verb = "is"
	}
	return decideBool(in, at, fmt.Sprintf("%s %s %s among %d listed %s", what, Quote(name), verb, len(list), field))
}

func evalPluginLoaded(s *SessionStart, k *Kind, at []int) Outcome {
	if s.Plugins == nil {
		return fieldAbsent("plugins")
	}
	i := slices.IndexFunc(s.Plugins, func(p Plugin) bool { return p.Name == k.Plugin })
	if i < 0 {
		return gapOutcome(at, "plugin %s is not loaded", Quote(k.Plugin))
	}
	p := s.Plugins[i]
	pins := []struct {
		want, got *string
		field     string
	}{{k.Version, p.Version, "version"}, {k.Source, p.Source, "source"}}
	for _, pin := range pins {
		if pin.want == nil {
			continue
		}
		if pin.got == nil {
			return fieldAbsent("plugins[]." + pin.field)
		}
		if *pin.got != *pin.want {
			return gapOutcome(at, "plugin %s has %s %s, expected %s", Quote(k.Plugin), pin.field, Quote(*pin.got), Quote(*pin.want))
		}
	}
	return okOutcome(at, "plugin %s is loaded (version %s, source %s)", Quote(k.Plugin), quoteOpt(p.Version), quoteOpt(p.Source))
}

func quoteOpt(s *string) string {
	if s == nil {
		return "?"
	}
	return Quote(*s)
}

func evalToolAvailable(s *SessionStart, a *Availability, at []int) Outcome {
	switch a.Form {
	case "offered", "not_offered":
		if s.Tools == nil {
			return fieldAbsent("tools")
		}
		in := slices.Contains(s.Tools, a.Tool)
		verb := "is not"
		if in {
			verb = "is"
		}
		note := fmt.Sprintf("tool %s %s among %d offered tools", Quote(a.Tool), verb, len(s.Tools))
		return decideBool(in == (a.Form == "offered"), at, note)
	case "only":
		if s.Tools == nil {
			return fieldAbsent("tools")
		}
		got := sortedSet(s.Tools)
		note := fmt.Sprintf("offered tools [%s], expected exactly [%s]", strings.Join(got, ", "), strings.Join(a.Tools, ", "))
		return decideBool(slices.Equal(got, a.Tools), at, note)
	}
	return evalOfferedAny(s, a, at)
}

// evalOfferedAny: some tool offered or some operation available; a gap needs
// one consulted list to be recorded.
func evalOfferedAny(s *SessionStart, a *Availability, at []int) Outcome {
	recorded, last := false, ""
	if len(a.Tools) > 0 {
		last = "tools"
		if s.Tools != nil {
			recorded = true
			for _, t := range a.Tools {
				if slices.Contains(s.Tools, t) {
					return okOutcome(at, "tool %s is offered", Quote(t))
				}
			}
		}
	}
	if len(a.Operations) > 0 {
		last = "available_operations"
		if s.AvailableOperations != nil {
			recorded = true
			for _, op := range a.Operations {
				if slices.Contains(s.AvailableOperations, op) {
					return okOutcome(at, "operation %s is available", Quote(op))
				}
			}
		}
	}
	if recorded {
		return gapOutcome(at, "none of tools [%s] or operations [%s] is offered",
			strings.Join(a.Tools, ", "), strings.Join(a.Operations, ", "))
	}
	return fieldAbsent(last)
}
