package transition

// AppendJSONString appends s as a JSON string escaped exactly as serde_json
// escapes: `\"`, `\\`, `\b \f \n \r \t`, every other byte below 0x20 as
// `\u00xx` (lowercase hex), and nothing else — not `<>&`, not U+2028/9,
// not non-ASCII (engine.md §8.6). Go's encoding/json differs on all three.
func AppendJSONString(b []byte, s string) []byte {
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

// RefusalJSON returns the refusal's stdout: exactly `{"reason":"…"}` and a
// newline.
func RefusalJSON(reason string) []byte {
	b := append(make([]byte, 0, len(reason)+16), `{"reason":`...)
	b = AppendJSONString(b, reason)
	return append(b, '}', '\n')
}
