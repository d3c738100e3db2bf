package project

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
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
			return fieldError(key, raw, err)
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

// fieldError words a field's value that does not decode: what the field
// holds and what was found, as the project's other messages say it
// ("must be a whole number …, found the number 1.0"), not encoding/json's
// "cannot unmarshal number 1.0 into Go value of type uint64".
func fieldError(key string, raw json.RawMessage, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return fmt.Errorf("field `%s`: %v", key, err)
	}
	var want string
	switch k := te.Type.Kind(); {
	case k == reflect.String:
		want = "a string"
	case k == reflect.Bool:
		want = "a boolean"
	case k >= reflect.Uint && k <= reflect.Uint64:
		want = fmt.Sprintf("a whole number from 0 to %d", uint64(math.MaxUint64)>>(64-te.Type.Bits()))
	case k >= reflect.Int && k <= reflect.Int64:
		want = "a whole number"
	default:
		return fmt.Errorf("field `%s`: %v", key, err)
	}
	// encoding/json names the value's type ("string", "number"), and quotes
	// a number that does not fit ("number -1") itself: quote it once.
	found := te.Value
	if len(raw) <= 40 && !strings.Contains(found, " ") {
		found += " " + string(raw)
	}
	return fmt.Errorf("field `%s` must be %s, found the %s", key, want, found)
}
