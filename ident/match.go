package ident

import "strings"

// matches reports whether s has the shape of charset c. It implements the
// reference's regular expressions (the shared JSON Schemas' WorkflowId,
// StateId, StepMapId and the kebab and loose patterns, kept as the oracle in
// match_test.go) by hand: compiling them cost every process, the transition
// hook included, half a millisecond at start-up.
//
// A dotted id is components joined by `.` or `/`; a component is runs of
// [a-z0-9] joined by single separators (`-`, and `_` too for DottedSnake);
// the first component starts with a letter; the last component, when there
// are several, either has a letter in its first run or holds a separator,
// so that `adp/2` stays a version reference and never an id.
func matches(c Charset, s string) bool {
	switch c {
	case Loose:
		return matchesLoose(s)
	case Kebab:
		return isLower(s[0]) && component(s, "-")
	}
	seps := "-"
	if c == DottedSnake {
		seps = "-_"
	}
	if !isLower(s[0]) {
		return false
	}
	// Walk the components between `.` and `/` in place: this runs for every
	// id of every document, so it splits nothing into a new slice.
	var last string
	several := false
	for rest := s; ; {
		i := strings.IndexAny(rest, "./")
		comp := rest
		if i >= 0 {
			comp = rest[:i]
		}
		if comp == "" || !component(comp, seps) {
			return false // an empty component: a leading, trailing or repeated `.`/`/`
		}
		if i < 0 {
			last = comp
			break
		}
		several, rest = true, rest[i+1:]
	}
	if !several {
		return true
	}
	// The last component is a single run of digits only when it holds
	// neither a separator nor a letter.
	return strings.ContainsAny(last, seps) || strings.IndexFunc(last, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0
}

// component reports whether comp is runs of [a-z0-9] joined by single
// separators from seps.
func component(comp, seps string) bool {
	if comp == "" {
		return false
	}
	prevSep := true // a separator may not lead
	for i := 0; i < len(comp); i++ {
		b := comp[i]
		switch {
		case isLower(b) || isDigit(b):
			prevSep = false
		case strings.IndexByte(seps, b) >= 0 && !prevSep:
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

// matchesLoose reports whether s is ASCII alphanumerics joined by single
// `.`, `/`, `_` or `-` separators.
func matchesLoose(s string) bool {
	prevSep := true
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case isAlnum(b):
			prevSep = false
		case strings.IndexByte("./_-", b) >= 0 && !prevSep:
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

func isLower(b byte) bool { return b >= 'a' && b <= 'z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// MaxSubjectLen is the longest subject reference, in bytes: two identifiers
// and the colon between them.
const MaxSubjectLen = 2*MaxLen + 1

// ValidSubject reports whether s is an evidence subject reference
// `<kind>:<id>`: a kebab-case artifact kind, a colon and a loose id, at most
// MaxSubjectLen bytes (the shared schemas' SubjectRef).
func ValidSubject(s string) bool {
	kind, id, ok := strings.Cut(s, ":")
	return ok && len(s) <= MaxSubjectLen && kind != "" && id != "" && matches(Kebab, kind) && matches(Loose, id)
}
