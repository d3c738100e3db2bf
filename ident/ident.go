// Package ident holds AEP's identifier charsets and the `<id>/<major>`
// reference syntax (documents.md §3). It validates strings; it does not know
// which documents exist (that is the tree's job).
package ident

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLen is the longest identifier, in bytes, any charset accepts.
const MaxLen = 200

// Charset is one of the identifier grammars of documents.md §3.1.
type Charset int

const (
	// Kebab is `[a-z][a-z0-9]*(-[a-z0-9]+)*`: protocol, principle, phase and
	// approval ids and artifact kinds.
	Kebab Charset = iota
	// Dotted is kebab segments joined by `.` or `/` (later segments may start
	// with a digit, the last may not be all digits): workflow, profile, step
	// map and tool ids, external verifier names.
	Dotted
	// DottedSnake is Dotted with `_` also allowed inside a segment: state
	// and obligation ids.
	DottedSnake
	// Loose is `[A-Za-z0-9]([A-Za-z0-9]|[./_-][A-Za-z0-9])*`: task ids and
	// other run-level ids.
	Loose
)

var charsetNames = [...]string{Kebab: "kebab-case", Dotted: "dotted", DottedSnake: "dotted (underscores allowed)", Loose: "loose"}

// String names the charset for messages.
func (c Charset) String() string { return charsetNames[c] }

// Check returns nil when s is a valid identifier of charset c, otherwise an
// error saying why, in words fit for a diagnostic.
func Check(c Charset, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("it is empty")
	case len(s) > MaxLen:
		return fmt.Errorf("it is %d bytes long, over the limit of %d", len(s), MaxLen)
	case matches(c, s):
		return nil
	}
	return fmt.Errorf("it is not a %s identifier (%s)", c, reason(c, s))
}

// Valid reports whether s is a valid identifier of charset c.
func Valid(c Charset, s string) bool { return Check(c, s) == nil }

// reason finds the first rule s breaks, for a message.
func reason(c Charset, s string) string {
	first := s[0]
	if c == Loose {
		if !isAlnum(first) {
			return "it must start with an ASCII letter or digit"
		}
	} else if first < 'a' || first > 'z' {
		return "it must start with a lowercase ASCII letter"
	}
	seps := "-"
	switch c {
	case Dotted:
		seps = "-./"
	case DottedSnake:
		seps = "-_./"
	case Loose:
		seps = "-_./"
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case strings.IndexByte(seps, b) >= 0:
			if i == len(s)-1 || strings.IndexByte(seps, s[i+1]) >= 0 {
				return "separators may not trail or repeat"
			}
		case isAlnum(b) && (c == Loose || !isUpper(b)):
		default:
			// Named whole: a character beyond ASCII is several bytes.
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Sprintf("the byte '\\x%02x' is not allowed: it is not UTF-8", b)
			}
			return fmt.Sprintf("the character %q is not allowed", r)
		}
	}
	if c == Dotted || c == DottedSnake {
		return "its last component may not be all digits, since that reads as a version"
	}
	return "it breaks the charset's rules"
}

func isAlnum(b byte) bool { return isUpper(b) || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') }
func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// Kind prefixes a reference may carry (stripped before parsing).
var kindPrefixes = []string{"workflow:", "principle:", "profile:", "protocol:"}

// Ref is a parsed reference `<id>` or `<id>/<major>` (documents.md §3.2).
// Major is 0 when the reference is unpinned.
type Ref struct {
	ID    string
	Major uint32
}

// Pinned reports whether the reference names a major version.
func (r Ref) Pinned() bool { return r.Major != 0 }

// Accepts reports whether a document of the given version satisfies the
// reference: any version when unpinned, only its own major when pinned.
func (r Ref) Accepts(version uint32) bool { return r.Major == 0 || r.Major == version }

// String formats the reference as `<id>` or `<id>/<major>`.
func (r Ref) String() string {
	if r.Major == 0 {
		return r.ID
	}
	return fmt.Sprintf("%s/%d", r.ID, r.Major)
}

// ParseRef parses a reference whose id has charset c. The kind prefix is
// stripped first; the text after the last `/` is a version only when it is
// non-empty and all ASCII digits and something stands before it. A version
// of 0, or one beyond 2^32-1, is refused.
func ParseRef(c Charset, s string) (Ref, error) {
	text := s
	for _, p := range kindPrefixes {
		if strings.HasPrefix(text, p) {
			text = text[len(p):]
			break
		}
	}
	id, major := text, uint32(0)
	if i := strings.LastIndexByte(text, '/'); i > 0 && i < len(text)-1 && allDigits(text[i+1:]) {
		v, err := strconv.ParseUint(text[i+1:], 10, 32)
		if err != nil {
			return Ref{}, fmt.Errorf("the major version %q is out of range", text[i+1:])
		}
		if v == 0 {
			return Ref{}, fmt.Errorf("the major version must be 1 or more, found 0")
		}
		id, major = text[:i], uint32(v)
	}
	if err := Check(c, id); err != nil {
		return Ref{}, fmt.Errorf("its id %q is invalid: %v", id, err)
	}
	return Ref{ID: id, Major: major}, nil
}

// ParsePinnedRef parses a reference that must name a major version (protocol
// references, a step map's workflow pin).
func ParsePinnedRef(c Charset, s string) (Ref, error) {
	r, err := ParseRef(c, s)
	if err == nil && !r.Pinned() {
		return r, fmt.Errorf("it names no major version (write `%s/1` or the major it targets)", r.ID)
	}
	return r, err
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
