package flow

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aepflow/aepflow/diag"
)

// Keys each object may hold under the strict checks (flow-format.md §3.2).
var (
	topKeys    = []string{"$comment", "id", "root"}
	groupKeys  = []string{"gives", "id", "needs", "nodes", "repeat"}
	stepKeys   = []string{"id", "needs", "run"}
	repeatKeys = []string{"max"}
	// runKeysKnown are the §1.3 keys plus those the projection writes for
	// other readers.
	runKeysKnown = []string{"command", "context", "description", "evidence", "harness", "kind", "prompt", "scope", "state", "summary"}
)

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// strict runs §3.2 over the raw tree, where a node is a group if and only
// if it has the key `nodes`, and appends the findings sorted by path then
// code.
func (c *checker) strict(top *Value) {
	s := &strictWalk{c: c}
	s.unknownKeys(top, topKeys, "<flow>", "the top level")
	if cv, ok := top.Get("$comment"); ok {
		s.wantString(cv, "<flow>", "`$comment`")
	}
	rv, _ := top.Get("root")
	idv, _ := rv.Get("id")
	s.node(rv, idv.Text, true)
	slices.SortStableFunc(s.out, func(a, b diag.Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Code, b.Code))
	})
	c.out.Extend(s.out)
}

type strictWalk struct {
	c   *checker
	out diag.List
}

func (s *strictWalk) add(d diag.Diagnostic, path string, pos diag.Pos) {
	s.out.Add(d.At(s.c.file, pos).WithPath(path))
}

func (s *strictWalk) unknownKeys(v *Value, allowed []string, path, where string) {
	for _, m := range v.Members {
		if !slices.Contains(allowed, m.Key) {
			s.add(diag.Errorf("flow_unknown_key", "unknown key `%s` in %s; expected one of %s", m.Key, where, ticks(allowed)),
				path, m.KeyPos)
		}
	}
}

// wantString reports a null or non-string value of a structural key.
func (s *strictWalk) wantString(v *Value, path, what string) bool {
	switch v.Kind {
	case StringValue:
		return true
	case NullValue:
		s.add(diag.Errorf("flow_null_value", "%s of `%s` is null", what, path), path, v.Pos)
	default:
		s.add(diag.Errorf("flow_bad_type", "%s of `%s` is %s, not a string", what, path, v.aType()), path, v.Pos)
	}
	return false
}

// names checks a `needs` or `gives` array: its type, each name, duplicates.
func (s *strictWalk) names(v *Value, path, key, dupCode string, charset bool) {
	if v.Kind == NullValue {
		s.add(diag.Errorf("flow_null_value", "`%s` of `%s` is null; leave the key out instead", key, path), path, v.Pos)
		return
	}
	if v.Kind != ArrayValue {
		s.add(diag.Errorf("flow_bad_type", "`%s` of `%s` is %s, not an array of names", key, path, v.aType()), path, v.Pos)
		return
	}
	seen := map[string]bool{}
	for i, it := range v.Items {
		if it.Kind != StringValue {
			s.add(diag.Errorf("flow_bad_type", "element %d of `%s` of `%s` is %s, not a string", i, key, path, it.aType()), path, it.Pos)
			continue
		}
		if seen[it.Text] {
			s.add(diag.Errorf(dupCode, "`%s` of `%s` names `%s` twice", key, path, it.Text), path, it.Pos)
		}
		seen[it.Text] = true
		if charset && !nameRE().MatchString(it.Text) {
			s.add(diag.Errorf("flow_id_charset", "`%s` of `%s` names `%s`, which is not made of `A-Z`, `a-z`, `0-9`, `_` and `-`", key, path, it.Text), path, it.Pos)
		}
	}
}

// node checks one node at path (its parent's path joined with its id).
func (s *strictWalk) node(v *Value, path string, isRoot bool) {
	if v.Kind != ObjectValue {
		s.add(diag.Errorf("flow_bad_type", "node `%s` is %s, not an object", path, v.aType()), path, v.Pos)
		return
	}
	isGroup := v.Has("nodes")
	if isGroup {
		s.unknownKeys(v, groupKeys, path, "group `"+path+"`")
	} else {
		s.unknownKeys(v, stepKeys, path, "step `"+path+"`")
	}
	s.id(v, path)
	if nv, ok := v.Get("needs"); ok {
		s.names(nv, path, "needs", "flow_duplicate_need", false)
	}
	if isGroup {
		s.group(v, path, isRoot)
	} else {
		s.step(v, path)
	}
}

func (s *strictWalk) id(v *Value, path string) {
	idv, ok := v.Get("id")
	if !ok {
		s.add(diag.Errorf("flow_bad_type", "node `%s` has no `id`", path), path, v.Pos)
		return
	}
	if !s.wantString(idv, path, "`id`") {
		return
	}
	switch {
	case strings.TrimSpace(idv.Text) == "":
		s.add(diag.Errorf("flow_blank_node_id", "node `%s` has a blank `id`", path), path, idv.Pos)
	case !nameRE().MatchString(idv.Text):
		s.add(diag.Errorf("flow_id_charset", "id `%s` is not made of `A-Z`, `a-z`, `0-9`, `_` and `-`", idv.Text), path, idv.Pos)
	}
}

// childPath names a child by its id, or by its index when it has no
// usable id.
func childPath(parent string, i int, v *Value) string {
	if idv, ok := v.Get("id"); ok && idv.Kind == StringValue && strings.TrimSpace(idv.Text) != "" {
		return parent + "." + idv.Text
	}
	return parent + ".nodes[" + strconv.Itoa(i) + "]"
}

func (s *strictWalk) group(v *Value, path string, isRoot bool) {
	if rv, ok := v.Get("repeat"); ok {
		s.repeat(rv, path)
	}
	if gv, ok := v.Get("gives"); ok {
		if isRoot && gv.Kind == ArrayValue && len(gv.Items) == 0 {
			s.add(diag.Errorf("flow_root_gives", "the root `%s` declares an explicit `gives: []`; the root hands nothing on, leave the key out", path), path, gv.Pos)
		}
		s.names(gv, path, "gives", "flow_duplicate_gives", true)
		if gv.Kind == ArrayValue && len(gv.Items) > 0 && !hasDirectLLM(v) {
			s.add(diag.Errorf("flow_gives_unsatisfiable", "group `%s` promises `gives` but has no direct `llm` step to supply them; the run would always fail with a missing handoff", path), path, gv.Pos)
		}
	}
	nv, _ := v.Get("nodes")
	if nv.Kind == NullValue {
		s.add(diag.Errorf("flow_null_value", "`nodes` of `%s` is null", path), path, nv.Pos)
		return
	}
	if nv.Kind != ArrayValue {
		s.add(diag.Errorf("flow_bad_type", "`nodes` of `%s` is %s, not an array of nodes", path, nv.aType()), path, nv.Pos)
		return
	}
	allSteps := len(nv.Items) > 0
	for i, it := range nv.Items {
		if it.Has("nodes") || it.Kind != ObjectValue {
			allSteps = false
		}
		s.node(it, childPath(path, i, it), false)
	}
	if s.c.opts.Governed && allSteps && !isRoot {
		id := path[strings.LastIndex(path, ".")+1:]
		if strings.Contains(id, "-to-") || strings.HasSuffix(id, "-again") {
			idv, _ := v.Get("id")
			s.add(diag.Errorf("flow_state_name", "state group `%s` is named `%s`, which a governor reads as a retreat group (`-to-` or `-again`)", path, id), path, idv.Pos)
		}
	}
}

func (s *strictWalk) repeat(rv *Value, path string) {
	switch rv.Kind {
	case NullValue:
		s.add(diag.Errorf("flow_null_value", "`repeat` of `%s` is null; leave the key out instead", path), path, rv.Pos)
		return
	case ObjectValue:
	default:
		s.add(diag.Errorf("flow_bad_type", "`repeat` of `%s` is %s, not an object `{max: N}`", path, rv.aType()), path, rv.Pos)
		return
	}
	s.unknownKeys(rv, repeatKeys, path, "`repeat` of `"+path+"`")
	mv, ok := rv.Get("max")
	switch {
	case !ok:
		s.add(diag.Errorf("flow_bad_type", "`repeat` of `%s` has no `max`", path), path, rv.Pos)
	case mv.Kind == NullValue:
		s.add(diag.Errorf("flow_null_value", "`repeat.max` of `%s` is null", path), path, mv.Pos)
	default:
		// 0 is flow_repeat_zero's, or overridden by --max-attempts.
		n, ok := mv.uint32Value()
		switch {
		case !ok:
			d := diag.Errorf("flow_bad_type", "`repeat.max` of `%s` is %s, not an integer in 1..4294967295", path, mv.describe())
			if mv.Kind == StringValue && isDecimal(mv.Text) {
				if n, err := strconv.ParseUint(mv.Text, 10, 32); err == nil && n > 0 {
					d = d.WithHint("write the number without quotes: `max: %d`", n)
				}
			}
			s.add(d, path, mv.Pos)
		case mv.NonDecimal:
			// YAML 1.1 and 1.2 readers disagree on these forms (`010` is
			// 8 or 10, `3_0` is 30 or text): decimal, as JSON writes it,
			// is the one form every reader takes alike (docs/decisions.md).
			d := diag.Errorf("flow_bad_type", "`repeat.max` of `%s` is written `%s`, not as a decimal integer: YAML readers differ on that form", path, mv.Text)
			if digits := strings.TrimLeft(mv.Text, "+-"); len(digits) > 1 && digits[0] == '0' && digits[1] >= '0' && digits[1] <= '9' {
				d = d.WithHint("write it in decimal without the leading zero (YAML 1.1 reads `%s` as octal, %d; YAML 1.2 as decimal)", mv.Text, n)
			} else {
				d = d.WithHint("write it in decimal, as JSON does: `max: %d`", n)
			}
			s.add(d, path, mv.Pos)
		}
	}
}

// stepKind returns a step's kind as the harness reads it ("llm" when
// absent or null), or "" when `kind` is not a string.
func stepKind(v *Value) string {
	rv, ok := v.Get("run")
	if !ok || rv.Kind != ObjectValue {
		return KindLLM
	}
	kv, ok := rv.Get("kind")
	if !ok || kv.Kind == NullValue {
		return KindLLM
	}
	if kv.Kind != StringValue {
		return ""
	}
	return kv.Text
}

// hasDirectLLM reports whether a group has a direct `llm` step, the only
// kind of node that supplies its `gives`.
func hasDirectLLM(g *Value) bool {
	nv, _ := g.Get("nodes")
	for _, it := range nv.Items {
		if it.Kind == ObjectValue && !it.Has("nodes") && stepKind(it) == KindLLM {
			return true
		}
	}
	return false
}

func (s *strictWalk) step(v *Value, path string) {
	rv, ok := v.Get("run")
	kind := stepKind(v)
	if !ok || rv.Kind != ObjectValue {
		if ok && rv.Kind == NullValue {
			s.add(diag.Errorf("flow_null_value", "`run` of `%s` is null; leave the key out instead", path), path, rv.Pos)
		}
		s.add(diag.Warningf("flow_llm_no_prompt", "llm step `%s` has neither `prompt` nor `summary`; it runs on the flow's input alone", path), path, v.Pos)
		return
	}
	for _, m := range rv.Members {
		if !slices.Contains(runKeysKnown, m.Key) {
			s.add(diag.Warningf("flow_run_unknown_key", "`run` of `%s` has key `%s`, which the harness ignores", path, m.Key), path, m.KeyPos)
		}
	}
	for _, key := range []string{"state", "prompt", "summary", "description"} {
		if fv, ok := rv.Get(key); ok && fv.Kind != StringValue {
			s.add(diag.Errorf("flow_run_field_type", "`run.%s` of `%s` is %s, not a string; the harness would ignore it", key, path, fv.aType()), path, fv.Pos)
		}
	}
	if cv, ok := rv.Get("context"); ok {
		s.context(cv, path)
	}
	if sv, ok := rv.Get("scope"); ok && sv.Kind == ArrayValue {
		for i, it := range sv.Items {
			if it.Kind == StringValue && ruleHasSpace(it.Text) {
				s.add(diag.Errorf("flow_scope_whitespace", "scope rule %d of `%s`, %q, has spaces around its glob or word; the harness trims them", i, path, it.Text), path, it.Pos)
			}
		}
	}
	if kind == KindLLM && !nonBlankString(rv, "prompt") && !nonBlankString(rv, "summary") {
		s.add(diag.Warningf("flow_llm_no_prompt", "llm step `%s` has neither `prompt` nor `summary`; it runs on the flow's input alone", path), path, rv.Pos)
	}
	if cv, ok := rv.Get("command"); ok && kind != KindCommand {
		s.add(diag.Warningf("flow_command_ignored", "`command` of `%s` is ignored: the step's kind is `%s`, not `command`", path, kind), path, cv.Pos)
	}
}

func nonBlankString(v *Value, key string) bool {
	s, ok := v.Get(key)
	return ok && s.Kind == StringValue && strings.TrimSpace(s.Text) != ""
}

func ruleHasSpace(rule string) bool {
	k := strings.LastIndex(rule, "=")
	if k < 0 {
		return false
	}
	glob, word := rule[:k], rule[k+1:]
	return glob != strings.TrimSpace(glob) || word != strings.TrimSpace(word)
}

func (s *strictWalk) context(cv *Value, path string) {
	if cv.Kind != ArrayValue {
		s.add(diag.Errorf("flow_context_invalid", "`context` of `%s` is %s, not an array of workspace-relative paths", path, cv.aType()), path, cv.Pos)
		return
	}
	for i, it := range cv.Items {
		var why string
		switch {
		case it.Kind != StringValue:
			why = "is " + it.aType() + ", not a string"
		case it.Text == "":
			why = "is empty"
		case strings.HasPrefix(it.Text, "/"):
			why = "`" + it.Text + "` is absolute"
		case slices.Contains(strings.Split(it.Text, "/"), ".."):
			why = "`" + it.Text + "` has a `..` segment"
		default:
			continue
		}
		s.add(diag.Errorf("flow_context_invalid", "context entry %d of `%s` %s; entries are workspace-relative paths", i, path, why), path, it.Pos)
	}
}
