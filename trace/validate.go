package trace

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
)

// The identifier patterns of a specification, compiled on first use so
// that processes reading none do not pay for them at start-up.
var (
	identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`) })
	docIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)?$`) })
)

// MaxRegexInsts bounds the program a `{regex: …}` pattern compiles to, in
// RE2 instructions. Go's regexp is linear in the text but multiplies by the
// program's size: `[ab]{0,1000}c` compiles to about 2,000 instructions and
// takes over 20 s on a megabyte. Real patterns (`\.md$`, `^git (push|commit)`,
// `[a-z0-9-]+/[a-z0-9-]+\.md$`) compile to 5–40; x{0,100} to about 200.
const MaxRegexInsts = 256

// validator accumulates refusals other than TRACE-SPEC-002. It compiles
// each distinct regex and glob pattern once, however many matchers (or
// uses of an alias) write it.
type validator struct {
	out     diag.List
	regexes map[string]compiledRegex
	globs   map[string]*glob
}

// compiledRegex is a regex pattern compiled once: the program, or why it
// was refused.
type compiledRegex struct {
	re  *regexp.Regexp
	err string
}

func (v *validator) add(code, loc, format string, args ...any) {
	v.out.Add(refusal(code, loc, format, args...))
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// validateSpec applies trace.md §3.8 and fills in the validated forms
// (defaults, compiled regexes, env.tool_available's form).
func validateSpec(s *Spec) diag.List {
	v := &validator{regexes: map[string]compiledRegex{}, globs: map[string]*glob{}}
	if s.Format != SpecFormat {
		v.add(CodeSpecFormat, "format", "format is `%s`, expected `%s`", s.Format, SpecFormat)
	}
	if !docIDRe().MatchString(s.ID) {
		v.add(CodeSpecMalformedID, "id", "specification id `%s` is not an ident or ident/ident ([a-z0-9][a-z0-9-]*)", s.ID)
	}
	if len(s.Expectations) == 0 {
		v.add(CodeSpecEmpty, "expectations", "the specification declares no expectations")
	}
	seen := map[string]int{}
	for i := range s.Expectations {
		e := &s.Expectations[i]
		loc := fmt.Sprintf("expectations[%d]", i)
		if !identRe().MatchString(e.ID) {
			v.add(CodeSpecMalformedID, loc+".id", "expectation id `%s` is not an ident ([a-z0-9][a-z0-9-]*)", e.ID)
		}
		if first, dup := seen[e.ID]; dup {
			v.add(CodeSpecDuplicateID, loc+".id", "expectation id `%s` is already used by expectations[%d]", e.ID, first)
		} else {
			seen[e.ID] = i
		}
		v.kind(&e.Kind, loc+".expect."+e.written)
	}
	return v.out
}

func (v *validator) kind(k *Kind, loc string) {
	if k.Selector != nil {
		v.selector(k.Selector, loc)
	}
	if k.Count != nil {
		v.count(k.Count, loc+"."+countParam(k.Name))
	}
	switch k.Name {
	case KindEnvPluginLoaded:
		v.name(k.Plugin, loc+".plugin")
		v.optName(k.Version, loc+".version")
		v.optName(k.Source, loc+".source")
	case KindEnvExclusive:
		v.list(k.Plugins, loc+".plugins", false)
	case KindEnvOutputStyle, KindEnvModel, KindEnvPermissionMode, KindEnvAPIKeySource, KindSpeed, KindServiceTier:
		v.optName(k.Equals, loc+".equals")
	case KindEnvSkillAvailable, KindSkillInvoked, KindSkillCompleted:
		v.name(k.Skill, loc+".skill")
		if k.Count == nil && k.Name != KindEnvSkillAvailable {
			k.Count = atLeastOne()
		}
	case KindEnvAgentAvailable:
		v.name(k.Agent, loc+".agent")
	case KindEnvToolAvailable:
		v.availability(k.Availability, loc)
	case KindToolCalled:
		if k.Count == nil {
			k.Count = atLeastOne()
		}
	case KindToolAbsent:
		if !k.Selector.scoped() {
			v.add(CodeSpecUndecidable, loc, "`tool.absent` must name a tool, operation, subject or argument: an unscoped absence can never be decided")
		}
	case KindToolResult:
		if len(k.Result) == 0 {
			v.add(CodeSpecUndecidable, loc+".result", "`result` names no field to check")
		}
		v.matchers(k.Result, loc+".result")
	case KindOrder:
		v.selector(k.First, loc+".first")
		v.selector(k.Before, loc+".before")
		if Compact(k.First.canonical()) == Compact(k.Before.canonical()) {
			v.add(CodeSpecUndecidable, loc, "`first` and `before` select the same calls")
		}
	case KindResult:
		r := k.Run
		if r.IsError == nil && r.Subtype == nil && r.StopReason == nil && r.TerminalReason == nil && r.APIErrorStatus == nil {
			v.add(CodeSpecUndecidable, loc, "`result` declares no field")
		}
	case KindTextMatches:
		v.matcher(k.Matcher, loc)
		if k.Matcher.trivial() {
			v.add(CodeSpecUndecidable, loc, "the matcher %s is satisfied by every text", k.Matcher.Display())
		}
	case KindRateLimitStatus:
		v.list(k.Allowed, loc+".allowed", false)
	case KindTokensInput, KindTokensOutput, KindTokensTotal, KindCacheReadTokens, KindCacheCreatedTokens, KindCostTotal:
		v.optName(k.Model, loc+".model")
	case KindUsageShare:
		v.share(k.Range, loc)
	case KindEnvMCPServers, KindToolResultBytes, KindToolFailed, KindToolErrorRate, KindToolRepeated,
		KindPermissionDenied, KindSubagentSpawned, KindTurns, KindAPIRequests, KindEventsAssistant, KindIterations,
		KindRateLimitOverage, KindRateLimitUtil, KindTokensThinking, KindThinkingEstimated, KindCacheUsed,
		KindCacheHitRatio, KindUsageTrend, KindDurationTotal, KindDurationAPI, KindTTFT, KindTimeToRequest,
		KindStepGenTime, KindStepExecTime, KindTimeInferenceTotal, KindTimeToolExecTotal, kindSkillAvailableAlias:
	}
	if k.Range != nil && k.Name != KindUsageShare {
		param, lo, hi := rangeKeys(k.Name)
		if param != "" {
			loc += "." + param
		}
		v.rangeBound(k.Range, loc, lo, hi)
	}
}

// countParam names the parameter a kind's CountBound is written under.
func countParam(k KindName) string {
	switch k {
	case KindDurationTotal, KindDurationAPI, KindTTFT, KindTimeToRequest, KindStepGenTime, KindStepExecTime,
		KindTimeInferenceTotal, KindTimeToolExecTotal:
		return "ms"
	case KindToolResultBytes:
		return "bytes"
	}
	return "count"
}

// rangeKeys says where a kind's RangeBound is written: the parameter that
// holds it (tool.error_rate's `rate`), or "" when its sides are keys of the
// kind itself (cost.total, rate_limit.utilization, cache.hit_ratio,
// usage.share), and the names of its two sides as the author writes them.
// A refusal of the bound stands there and names them so.
func rangeKeys(k KindName) (param, lo, hi string) {
	switch k {
	case KindToolErrorRate:
		return "rate", "at_least", "at_most"
	case KindCostTotal:
		return "", "at_least_usd", "at_most_usd"
	}
	return "", "at_least", "at_most"
}

func (v *validator) name(s, loc string) {
	if blank(s) {
		v.add(CodeSpecUndecidable, loc, "the name is blank")
	}
}

func (v *validator) optName(s *string, loc string) {
	if s != nil {
		v.name(*s, loc)
	}
}

// list refuses an empty list or blank entries, and repeats when unique is set.
func (v *validator) list(l []string, loc string, unique bool) {
	if l == nil {
		return
	}
	if len(l) == 0 {
		v.add(CodeSpecUndecidable, loc, "the list is empty")
		return
	}
	seen := map[string]bool{}
	for _, s := range l {
		if blank(s) {
			v.add(CodeSpecUndecidable, loc, "the list holds a blank entry")
			return
		}
		if unique && seen[s] {
			v.add(CodeSpecUndecidable, loc, "the list repeats `%s`", s)
			return
		}
		seen[s] = true
	}
}

func (v *validator) selector(s *Selector, loc string) {
	s.prepare()
	if s.Tool != nil {
		v.name(*s.Tool, loc+".tool")
		if s.Tools != nil {
			v.add(CodeSpecUndecidable, loc+".tools", "`tool` and `tools` are both written; write one")
		}
	}
	v.list(s.Tools, loc+".tools", true)
	v.list(s.Operations, loc+".operations", true)
	if s.Subject != nil {
		v.matcher(s.Subject, loc+".subject")
	}
	v.matchers(s.Args, loc+".args")
}

func (v *validator) matchers(m map[string]*Matcher, loc string) {
	for _, f := range slices.Sorted(maps.Keys(m)) {
		if blank(f) {
			v.add(CodeSpecUndecidable, loc, "a field name is blank")
		}
		v.matcher(m[f], loc+"."+f)
	}
}

// matcher compiles a regex and refuses a fractional `equals`.
func (v *validator) matcher(m *Matcher, loc string) {
	switch m.Op {
	case "regex":
		c, ok := v.regexes[m.Text]
		if !ok {
			c = compileRegex(m.Text)
			v.regexes[m.Text] = c
		}
		if c.err != "" {
			v.add(CodeSpecBadRegex, loc, "%s", c.err)
			return
		}
		m.re = c.re
	case "glob":
		g, ok := v.globs[m.Text]
		if !ok {
			g = compileGlob(m.Text)
			v.globs[m.Text] = g
		}
		m.glob = g
	case "equals":
		if _, ok := m.Value.(float64); ok {
			v.add(CodeSpecUndecidable, loc, "`equals` takes a boolean, an integer or a string, not a fraction: write a bound instead")
		}
	}
}

// compileRegex compiles a regex pattern, refusing one that does not
// compile or whose program exceeds MaxRegexInsts.
func compileRegex(pattern string) compiledRegex {
	re, err := regexp.Compile(pattern)
	if err != nil {
		hint := ""
		if strings.HasPrefix(pattern, "*") || strings.Contains(pattern, "(*") || strings.Contains(pattern, "|*") {
			hint = "; a bare `*` is glob syntax, write `{glob: …}` or `.*`"
		} else {
			hint = " (note: a bare `*` is glob syntax, not regex)"
		}
		return compiledRegex{err: fmt.Sprintf("regex %s does not compile: %s%s", quoteShort(pattern), cutText(err.Error(), 200), hint)}
	}
	if n := regexInsts(pattern); n > MaxRegexInsts {
		return compiledRegex{err: fmt.Sprintf("regex %s compiles to %d instructions, over the limit of %d: matching time grows with the program's size; bound repetitions more tightly (`{0,1000}` repeats its operand a thousand times) or match with `contains` or `glob`",
			quoteShort(pattern), n, MaxRegexInsts)}
	}
	return compiledRegex{re: re}
}

// quoteShort quotes s as Quote does, cut to its first 80 characters (with
// `…` after the quote) so that a refusal of a long pattern stays one line.
func quoteShort(s string) string {
	const keep = 80
	if utf8.RuneCountInString(s) <= keep {
		return Quote(s)
	}
	r := []rune(s)
	return Quote(string(r[:keep])) + "…"
}

// cutText cuts s to its first n characters, marking the cut with `…`.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// regexInsts returns the size of the RE2 program pattern compiles to (the
// pattern is known to compile).
func regexInsts(pattern string) int {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return 0
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return 0
	}
	return len(prog.Inst)
}

func (v *validator) count(b *CountBound, loc string) {
	switch {
	case b.AtLeast == nil && b.AtMost == nil && b.Exactly == nil:
		v.add(CodeSpecUndecidable, loc, "the bound has no side: write `at_least`, `at_most` or `exactly`")
	case b.Exactly != nil && (b.AtLeast != nil || b.AtMost != nil):
		v.add(CodeSpecUnsatisfiable, loc, "`exactly` is written beside `at_least` or `at_most`")
	case b.AtLeast != nil && b.AtMost != nil && *b.AtLeast > *b.AtMost:
		v.add(CodeSpecUnsatisfiable, loc, "at_least %d is greater than at_most %d", *b.AtLeast, *b.AtMost)
	}
}

// rangeBound refuses a range bound with no side, a side that is not a
// number or sides no value can meet. loc is where the bound is written
// (the mapping that holds both sides), lo and hi its sides' names as
// written (rangeKeys); a side that is not a number is refused at its key.
func (v *validator) rangeBound(b *RangeBound, loc, lo, hi string) {
	switch {
	case b.AtLeast == nil && b.AtMost == nil:
		v.add(CodeSpecUndecidable, loc, "the bound has no side: write `%s` or `%s`", lo, hi)
	case b.AtLeast != nil && math.IsNaN(*b.AtLeast):
		v.add(CodeSpecUndecidable, loc+"."+lo, "`%s` is not a number", lo)
	case b.AtMost != nil && math.IsNaN(*b.AtMost):
		v.add(CodeSpecUndecidable, loc+"."+hi, "`%s` is not a number", hi)
	case b.AtLeast != nil && b.AtMost != nil && *b.AtLeast > *b.AtMost:
		v.add(CodeSpecUnsatisfiable, loc, "%s %s is greater than %s %s", lo, shortFloat(*b.AtLeast), hi, shortFloat(*b.AtMost))
	}
}

// share refuses usage.share bounds outside 0 < at_least ≤ 1, 0 < at_most < 1.
func (v *validator) share(b *RangeBound, loc string) {
	if b.AtLeast == nil && b.AtMost == nil {
		v.add(CodeSpecUndecidable, loc, "the bound has no side: write `at_least` or `at_most`")
		return
	}
	if b.AtLeast != nil && !(*b.AtLeast > 0 && *b.AtLeast <= 1) {
		v.add(CodeSpecUndecidable, loc+".at_least", "a share's at_least must lie in (0, 1]")
		return
	}
	if b.AtMost != nil && !(*b.AtMost > 0 && *b.AtMost < 1) {
		v.add(CodeSpecUndecidable, loc+".at_most", "a share's at_most must lie in (0, 1)")
		return
	}
	v.rangeBound(b, loc, "at_least", "at_most")
}

// availability picks env.tool_available's one form.
func (v *validator) availability(a *Availability, loc string) {
	w := a.written
	forms := 0
	if w.tool != nil {
		forms++
	}
	if w.tools != nil || w.ops != nil {
		forms++
	}
	if w.only != nil {
		forms++
	}
	switch {
	case forms == 0:
		v.add(CodeSpecUndecidable, loc, "write one of `tool`, `tools`/`operations` or `only`")
		return
	case forms > 1:
		v.add(CodeSpecUndecidable, loc, "`tool`, `tools`/`operations` and `only` are different claims; write one")
		return
	case w.available != nil && w.tool == nil:
		v.add(CodeSpecUndecidable, loc+".available", "`available` belongs to `tool` alone")
		return
	}
	switch {
	case w.tool != nil:
		v.name(*w.tool, loc+".tool")
		a.Form, a.Tool = "offered", *w.tool
		if w.available != nil && !*w.available {
			a.Form = "not_offered"
		}
	case w.only != nil:
		v.list(w.only, loc+".only", false)
		a.Form, a.Tools = "only", sortedSet(w.only)
	default:
		v.list(w.tools, loc+".tools", true)
		v.list(w.ops, loc+".operations", true)
		a.Form, a.Tools, a.Operations = "offered_any", sortedSet(w.tools), sortedSet(w.ops)
	}
}
