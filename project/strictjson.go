package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodeObject decodes the JSON object data into fields, key by key, as
// the reference's serde structures read a run's small files: a key
// matches a field only when it is spelt exactly so (encoding/json would
// also match `GENERATION` or `Generation`), a field given twice is an
// error ("duplicate field", where encoding/json keeps the last one), and
// other keys are skipped. state.json carries no digest of its own, so a
// pointer naming two generations must not be read as whichever comes
// last. Trailing data after the object is an error.
func decodeObject(data []byte, fields map[string]any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return err
	} else if tok != json.Delim('{') {
		return errors.New("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		field, known := fields[key]
		if !known {
			continue
		}
		if seen[key] {
			return fmt.Errorf("duplicate field `%s`", key)
		}
		seen[key] = true
		if err := json.Unmarshal(raw, field); err != nil {
			return fmt.Errorf("field `%s`: %v", key, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON object")
	}
	return nil
}
