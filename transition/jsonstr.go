package transition

import "github.com/aepflow/aepflow/internal/serdejson"

// RefusalJSON returns the refusal's stdout: exactly `{"reason":"…"}` and a
// newline.
func RefusalJSON(reason string) []byte {
	b := append(make([]byte, 0, len(reason)+16), `{"reason":`...)
	b = serdejson.AppendString(b, reason)
	return append(b, '}', '\n')
}
