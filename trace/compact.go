package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aepflow/aepflow/internal/serdejson"
)

// Compact returns the canonical compact JSON text of v (trace.md §1.9): object
// keys sorted at every level, no spaces, only `"`, `\` and control characters
// escaped, integers as written and other numbers in shortest round-trip form.
// It is not encoding/json's output: that escapes HTML characters and
// U+2028/U+2029, which the reference does not.
//
// v holds the values decoding with UseNumber produces (nil, bool,
// json.Number, string, []any, map[string]any) and, for canonical documents
// built in Go, float64, int, int64, uint64, []string and *string.
//
// The engine's evidence encoder (evidence.AppendAny) looks alike but is
// kept apart on purpose: it writes numbers in the engine's display form
// (`1`, not `1.0`; engine.md §2.1) and escapes strings as encoding/json
// does, and its snapshots must keep re-encoding to the same bytes.
func Compact(v any) string {
	var b strings.Builder
	writeCompact(&b, v)
	return b.String()
}

func writeCompact(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(formatNumber(x))
	case float64:
		b.WriteString(FormatFloat(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case string:
		writeString(b, x)
	case *string:
		if x == nil {
			b.WriteString("null")
		} else {
			writeString(b, *x)
		}
	case []string:
		b.WriteByte('[')
		for i, s := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, s)
		}
		b.WriteByte(']')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCompact(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeCompact(b, x[k])
		}
		b.WriteByte('}')
	default:
		// Only reachable through a programming error; keep the output JSON.
		writeString(b, fmt.Sprint(x))
	}
}

// writeString writes s as serde_json writes a string (trace.md §1.9).
func writeString(b *strings.Builder, s string) { b.Write(serdejson.AppendString(nil, s)) }

// formatNumber writes a JSON number the way serde_json re-serialises it:
// integers that fit 64 bits as integers, everything else as an f64.
func formatNumber(n json.Number) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			return strconv.FormatUint(u, 10)
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return s
	}
	return FormatFloat(f)
}

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	if e, ok := err.(*strconv.NumError); ok {
		ne = e
	}
	return ne != nil && ne.Err == strconv.ErrRange
}

// FormatFloat formats f as the shortest text that round-trips, in the layout
// of the ryu crate the reference uses: integral values keep a `.0`, and the
// exponent form appears only below 1e-5 or from 1e16 up (`1e-7`, `1e16`).
// NaN and infinities, which JSON cannot carry, format as `null`.
func FormatFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	n := len(digits)
	kk := exp + 1 // position of the decimal point relative to the digits
	switch {
	case kk-n >= 0 && kk <= 16:
		return sign + digits + strings.Repeat("0", kk-n) + ".0"
	case kk > 0 && kk <= 16:
		return sign + digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		return sign + "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		return sign + digits + "e" + strconv.Itoa(kk-1)
	default:
		return sign + digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
}

// shortFloat formats f for notes and bound displays: shortest round-trip,
// without the `.0` of integral values (`1.0` → `1`).
func shortFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Quote returns s in double quotes with Rust-debug escaping, the form quoted
// displays use (trace.md §3.5): `"`, `\` and control characters escaped,
// printable non-ASCII kept.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		default:
			if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// decodeJSON decodes one complete JSON value with UseNumber, refusing
// anything but white space after it.
func decodeJSON(data []byte) (any, error) {
	var d lineDecoder
	return d.decode(data)
}

// lineDecoder decodes one JSON value per line of a transcript with one
// json.Decoder for all of them: a decoder per line allocated a decoder and
// a copy of the line's bytes every time, most of a long transcript's
// garbage. A decoder that failed, or stopped short of its line, is dropped
// and the next line gets a new one, so no line is read with another's
// bytes or state.
type lineDecoder struct {
	feed lineFeed
	dec  *json.Decoder
}

// decode decodes data, one line's bytes, as decodeJSON does.
func (d *lineDecoder) decode(data []byte) (any, error) {
	if d.dec == nil {
		d.dec = json.NewDecoder(&d.feed)
		d.dec.UseNumber()
	}
	d.feed.data = data
	var v any
	err := d.dec.Decode(&v)
	if err == nil && (!jsonBlank(d.feed.data) || !blankReader(d.dec.Buffered())) {
		err = fmt.Errorf("trailing data after the JSON value")
	}
	if err != nil {
		d.dec = nil
		return nil, err
	}
	if numberOutOfRange(data) {
		// The decoder is left as it is: it read the whole line.
		return nil, errNumberOutOfRange
	}
	return v, nil
}

// errNumberOutOfRange refuses a line holding a number no 64-bit float
// holds (`1e400`, a 400-digit integer), as serde_json, which the reference
// reads lines with, refuses it (trace.md §1.9: numbers other than 64-bit
// integers are f64). Kept, such a number read as ±Inf: `total_cost_usd:
// -1e400` held within every `at_most_usd`, and compact() wrote it `null`.
// The message quotes nothing of the line, so a redacted read can give it.
var errNumberOutOfRange = errors.New("a number is out of the range of a 64-bit float")

// numberOutOfRange reports whether data, one JSON value the decoder
// accepted, holds a number whose magnitude no float64 reaches. It scans the
// bytes (strings skipped) rather than the decoded tree, which is slower to
// walk; a number written without an exponent in fewer than 300 characters
// cannot be one (the largest float64 is below 1.8e308), so most are not
// parsed.
func numberOutOfRange(data []byte) bool {
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"': // to the closing quote: one after an even run of backslashes
			for {
				k := bytes.IndexByte(data[i+1:], '"')
				if k < 0 {
					return false
				}
				i += 1 + k
				n := 0
				for data[i-1-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(data) && strings.IndexByte("+-.0123456789eE", data[j]) >= 0 {
				j++
			}
			if n := data[i:j]; len(n) >= 300 || bytes.ContainsAny(n, "eE") {
				if f, err := strconv.ParseFloat(string(n), 64); err != nil && math.IsInf(f, 0) {
					return true
				}
			}
			i = j - 1
		}
	}
	return false
}

// lineFeed is the reader under a lineDecoder: the current line's bytes,
// then io.EOF until the next line is set.
type lineFeed struct{ data []byte }

func (f *lineFeed) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// jsonBlank reports whether b holds JSON white space only.
func jsonBlank(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\n")) == 0 }

// blankReader reports whether what r holds (a decoder's buffered bytes, in
// memory) is JSON white space only, read through a small buffer.
func blankReader(r io.Reader) bool {
	var buf [256]byte
	for {
		n, err := r.Read(buf[:])
		if !jsonBlank(buf[:n]) {
			return false
		}
		if err != nil {
			return true
		}
	}
}
