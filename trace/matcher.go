package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// MatchValue reports whether a recorded JSON value satisfies m (trace.md
// §3.5): `equals` compares like with like, the others read `text_of(v)`,
// the string itself or else its compact JSON, which is v.Text.
func (m *Matcher) MatchValue(v Value) bool {
	if m.Op == "equals" {
		return equalsValue(m.Value, v)
	}
	return m.MatchText(v.Text)
}

// MatchText reports whether plain text satisfies m; `equals` matches text
// only when it is a string equal to it.
func (m *Matcher) MatchText(t string) bool {
	switch m.Op {
	case "exact":
		return t == m.Text
	case "contains":
		return strings.Contains(t, m.Text)
	case "glob":
		return m.compiledGlob().match(t)
	case "regex":
		return m.re != nil && m.re.MatchString(t)
	case "equals":
		s, ok := m.Value.(string)
		return ok && s == t
	}
	return false
}

// equalsValue compares like with like: bool with bool, an integer with a JSON
// integer of equal value (a recorded float never matches), string with string.
func equalsValue(want any, got Value) bool {
	switch w := want.(type) {
	case bool:
		return got.Kind == ValueBool && got.Text == strconv.FormatBool(w)
	case string:
		return got.Kind == ValueString && got.Text == w
	case int64:
		i, ok := got.integer()
		return ok && i == w
	}
	return false
}

// compiledGlob returns the glob validation compiled, or compiles it (for a
// Matcher built without ReadSpec).
func (m *Matcher) compiledGlob() *glob {
	if m.glob != nil {
		return m.glob
	}
	return compileGlob(m.Text)
}

// Display renders m as reasons and notes show it: `= "s"`, `~ "s"`,
// `glob "p"`, `regex "p"`, `== x`.
func (m *Matcher) Display() string {
	switch m.Op {
	case "exact":
		return "= " + Quote(m.Text)
	case "contains":
		return "~ " + Quote(m.Text)
	case "glob":
		return "glob " + Quote(m.Text)
	case "regex":
		return "regex " + Quote(m.Text)
	}
	switch v := m.Value.(type) {
	case string:
		return "== " + Quote(v)
	case float64:
		return "== " + shortFloat(v)
	default:
		return fmt.Sprintf("== %v", v)
	}
}

// canonical is the matcher's externally tagged canonical form.
func (m *Matcher) canonical() map[string]any {
	if m.Op == "equals" {
		return map[string]any{"equals": m.Value}
	}
	return map[string]any{m.Op: m.Text}
}

// trivial reports whether every text satisfies m (refused for text.matches).
func (m *Matcher) trivial() bool {
	switch m.Op {
	case "contains":
		return m.Text == ""
	case "glob":
		return m.Text != "" && strings.Trim(m.Text, "*") == ""
	case "regex":
		return m.re != nil && m.re.MatchString("") && m.re.MatchString("\x00")
	}
	return false
}
