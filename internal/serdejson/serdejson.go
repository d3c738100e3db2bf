// Package serdejson writes JSON strings byte for byte as the reference's
// Rust tools (serde_json) write them, where a protocol compares bytes: the
// transition hook's refusal reason (engine.md §8.6) and the trace checker's
// compact values and digests (trace.md §1.9). Go's encoding/json escapes
// `<>&`, U+2028 and U+2029 and replaces invalid UTF-8, so it cannot be used
// there. LoneSurrogate finds the one escape encoding/json reads where
// serde_json refuses the string.
package serdejson

import "strconv"

// AppendString appends s to b as a JSON string escaped exactly as serde_json
// escapes: `\"`, `\\`, `\b \f \n \r \t`, every other byte below 0x20 as
// `\u00xx` (lowercase hex), and nothing else: not `<>&`, not U+2028/9, not
// non-ASCII, and invalid UTF-8 passes through as it is.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c < 0x20:
			esc = string([]byte{'\\', 'u', '0', '0', hex[c>>4], hex[c&0xf]})
		default:
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// LoneSurrogate returns the offset in lit, a JSON string literal the
// decoder accepted (or a stretch of a document holding whole literals), of the first `\uXXXX` escape of a UTF-16 surrogate
// that is not half of a pair (a high one followed by a low one). Such an
// escape stands for no character: encoding/json reads U+FFFD in its place,
// where serde_json refuses the string (a key, or a value read as a string).
func LoneSurrogate(lit []byte) (int, bool) {
	hex := func(b []byte) int {
		n, _ := strconv.ParseUint(string(b), 16, 16)
		return int(n)
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		i++ // the escaped character: skipped unless it starts \uXXXX
		if i+4 >= len(lit) || lit[i] != 'u' {
			continue
		}
		switch u := hex(lit[i+1 : i+5]); {
		case 0xdc00 <= u && u <= 0xdfff:
			return i - 1, true
		case 0xd800 <= u && u <= 0xdbff:
			j := i + 5
			if j+6 <= len(lit) && lit[j] == '\\' && lit[j+1] == 'u' {
				if v := hex(lit[j+2 : j+6]); 0xdc00 <= v && v <= 0xdfff {
					i = j + 5
					continue
				}
			}
			return i - 1, true
		}
		i += 4
	}
	return 0, false
}
