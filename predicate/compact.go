package predicate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
)

// failure is a parse problem before it is positioned.
type failure struct {
	code, msg string
}

func invalidf(format string, args ...any) *failure {
	return &failure{code: CodeInvalid, msg: fmt.Sprintf(format, args...)}
}

// ParseCompact parses the compact string form alone (documents.md §5.3),
// simplified. The error, when there is one, is a diag.Diagnostic without a
// position whose Code is invalid_predicate or predicate_too_deep.
func ParseCompact(s string) (Predicate, error) {
	p, f := parseCompact(s, 0)
	if f != nil {
		return nil, diag.Errorf(f.code, "%s", f.msg)
	}
	return p, nil
}

// parseCompact applies the compact grammar to s, whose outermost predicate
// sits at depth.
func parseCompact(s string, depth int) (Predicate, *failure) {
	s = strings.TrimSpace(s)
	if depth > MaxDepth {
		return nil, &failure{code: CodeTooDeep, msg: fmt.Sprintf(
			"predicate is nested deeper than %d levels at %s", MaxDepth, describeText(s))}
	}
	switch s {
	case "":
		return nil, invalidf("predicate is empty")
	case "always", "true":
		return Always{}, nil
	case "never", "false":
		return Never{}, nil
	}
	if rest, ok := strings.CutPrefix(s, "not "); ok {
		x, f := parseCompact(rest, depth+1)
		if f != nil {
			return nil, f
		}
		return NewNot(x), nil
	}
	if p, f, ok := parseCall(s); ok {
		return p, f
	}
	if i, op := findOp(s); i >= 0 {
		return parseComparison(s[:i], op, s[i+len(op):])
	}
	if !ValidFactPath(s) {
		return nil, invalidf("%s is neither a keyword, a comparison nor a fact path", describeText(s))
	}
	return Truthy{Path: s}, nil
}

// parseCall recognises defined(p), exists(p) and missing(p); ok is false
// when s has none of these shapes.
func parseCall(s string) (Predicate, *failure, bool) {
	for _, name := range []string{"defined", "exists", "missing"} {
		rest, ok := strings.CutPrefix(s, name)
		if !ok {
			continue
		}
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			continue
		}
		p := strings.TrimSpace(rest[1 : len(rest)-1])
		if !ValidFactPath(p) {
			return nil, invalidf("`%s(…)` needs a fact path, found %s", name, describeText(p)), true
		}
		if name == "missing" {
			return Not{X: Defined{Path: p}}, nil, true
		}
		return Defined{Path: p}, nil, true
	}
	return nil, nil, false
}

// findOp returns the byte offset and spelling of the first comparison
// operator outside quotes, trying the two-character operators first at each
// position, or -1.
func findOp(s string) (int, Op) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '\'' || c == '"' {
			quote = c
			continue
		}
		for _, op := range []Op{Eq, Ne, Le, Ge, Lt, Gt} {
			if strings.HasPrefix(s[i:], string(op)) {
				return i, op
			}
		}
	}
	return -1, ""
}

func parseComparison(left string, op Op, right string) (Predicate, *failure) {
	left, right = strings.TrimSpace(left), strings.TrimSpace(right)
	if !ValidFactPath(left) {
		return nil, invalidf("the left side of `%s` must be a fact path, found %s", op, describeText(left))
	}
	if right == "" {
		return nil, invalidf("the right side of `%s` is empty", op)
	}
	return Compare{Left: Fact(left), Op: op, Right: RightOperand(right)}, nil
}

// RightOperand reads the right-hand side of a comparison (documents.md
// §5.3): unquoted text that contains `.`, is not a number and is a valid
// fact path reads that fact; anything else is a Literal.
func RightOperand(s string) Operand {
	if strings.Contains(s, ".") && ValidFactPath(s) {
		if _, isNum := ParseNumber(s); !isNum {
			return Fact(s)
		}
	}
	return Lit(Literal(s))
}

// describeText quotes s for a message, cut to a readable length.
func describeText(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		s = string(r[:limit]) + "…"
	}
	return "`" + s + "`"
}
