// Package serdejson writes JSON strings byte for byte as the reference's
// Rust tools (serde_json) write them, where a protocol compares bytes: the
// transition hook's refusal reason (engine.md §8.6) and the trace checker's
// compact values and digests (trace.md §1.9). Go's encoding/json escapes
// `<>&`, U+2028 and U+2029 and replaces invalid UTF-8, so it cannot be used
// there.
package serdejson

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
