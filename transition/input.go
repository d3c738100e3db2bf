package transition

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/internal/serdejson"
)

// Input is the part of the loop's stdin document the hook reads
// (engine.md §8.2); every other key is ignored.
type Input struct {
	// Hook is the hook point; only "transition" is answered.
	Hook string
	// Path is the group's dotted flow path ("root", "root.specify", …).
	Path string
	// Moment is "enter" or "leave" (anything else cannot be answered).
	Moment string
	// Failed reports that a left attempt failed by itself.
	Failed bool
}

// ParseInput decodes the stdin document like the reference's serde
// structure: one JSON object; `hook` a string and required; `path` and
// `moment` strings and `failed` a bool, each optional (null is a wrong
// type, as in serde); a known key given twice, a value of the wrong type,
// invalid UTF-8 or trailing non-whitespace is an error.
func ParseInput(data []byte) (Input, error) {
	var in Input
	if !utf8.Valid(data) {
		return in, errors.New("the document is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return in, syntaxError(err)
	} else if tok != json.Delim('{') {
		return in, errors.New("the document is not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return in, syntaxError(err)
		}
		key, _ := tok.(string)
		if err := loneSurrogate(data, start, dec, key); err != nil {
			return in, err
		}
		switch key {
		case "hook", "path", "moment", "failed":
			if seen[key] {
				return in, fmt.Errorf("duplicate key %q", key)
			}
			seen[key] = true
			if err := readField(data, dec, key, &in); err != nil {
				return in, err
			}
		default:
			if err := skipValue(dec); err != nil {
				return in, err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return in, syntaxError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return in, errors.New("trailing characters after the JSON object")
	}
	if !seen["hook"] {
		return in, errors.New("missing key \"hook\"")
	}
	return in, nil
}

// readField reads the value of a known key into in; data is the
// document dec reads.
func readField(data []byte, dec *json.Decoder, key string, in *Input) error {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	if key == "failed" {
		b, ok := tok.(bool)
		if !ok {
			return fmt.Errorf("key \"failed\" must be a boolean, found %s", shape(tok))
		}
		in.Failed = b
		return nil
	}
	s, ok := tok.(string)
	if !ok {
		if tok == json.Delim('[') || tok == json.Delim('{') {
			_ = skipRest(dec) // the error below is the one to report
		}
		return fmt.Errorf("key %q must be a string, found %s", key, shape(tok))
	}
	if err := loneSurrogate(data, start, dec, s); err != nil {
		return err
	}
	switch key {
	case "hook":
		in.Hook = s
	case "path":
		in.Path = s
	case "moment":
		in.Moment = s
	}
	return nil
}

// loneSurrogate refuses the string s that dec has just read from
// data[start:] when its literal escapes half of a UTF-16 surrogate pair
// without the other half (`"\ud800"`): that stands for no character,
// encoding/json reads U+FFFD in its place, and serde_json refuses a key or
// a string field so escaped, so the reference cannot answer. Read as U+FFFD,
// a path or a hook would name nothing and proceed. Values of other keys are
// skipped unchecked, as serde_json skips them. Only a string holding U+FFFD
// can hold such an escape, so the others are not scanned.
func loneSurrogate(data []byte, start int64, dec *json.Decoder, s string) error {
	if !strings.ContainsRune(s, utf8.RuneError) {
		return nil
	}
	lit := data[start:min(dec.InputOffset(), int64(len(data)))]
	if at, ok := serdejson.LoneSurrogate(lit); ok {
		return fmt.Errorf("`%s` is half of a UTF-16 surrogate pair without its other half, which is no character", lit[at:at+6])
	}
	return nil
}

// skipValue reads and discards one value.
func skipValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	if tok == json.Delim('[') || tok == json.Delim('{') {
		return skipRest(dec)
	}
	return nil
}

// skipRest discards the rest of an array or object whose opening
// delimiter was read.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return syntaxError(err)
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
	return nil
}

// shape names a token's JSON type for messages.
func shape(tok json.Token) string {
	switch tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if tok == json.Delim('[') {
			return "an array"
		}
		return "an object"
	}
	return "a value"
}

func syntaxError(err error) error {
	if err == io.EOF {
		return errors.New("the document is empty or ends early")
	}
	return err
}
