package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/fsio"
	"github.com/aepflow/aepflow/internal/serdejson"
	"github.com/aepflow/aepflow/internal/yamlerr"
	"github.com/aepflow/aepflow/internal/yamltag"
	"go.yaml.in/yaml/v3"
)

// Limits of the reader. A flow document is a few kilobytes; these bounds only
// keep hostile input from exhausting memory or the stack.
const (
	// MaxSize is the largest document read, in bytes (16 MiB).
	MaxSize = 16 << 20
	// MaxDepth is the deepest nesting of arrays and objects accepted.
	MaxDepth = 256
	// maxValues bounds the values built from one YAML document, aliases
	// expanded (a "billion laughs" guard).
	maxValues = 1 << 20
)

// Raw is a flow document read into a generic value tree, not yet checked.
type Raw struct {
	// File is the name diagnostics use for the document.
	File string
	// Format is "YAML" or "JSON".
	Format string
	// Root is the top-level value.
	Root *Value
}

// ReadFile reads and decodes the flow document at path through
// fsio.ReadFile: a path that is not a regular file (a named pipe, a device,
// a directory) and a file over MaxSize are flow_unreadable, refused before
// a byte is read.
func ReadFile(path string) (*Raw, diag.List) {
	data, err := fsio.ReadFile(path, MaxSize)
	if err != nil {
		return nil, diag.List{unreadable(path, reason(err))}
	}
	return Read(path, data)
}

// reason strips the path and operation from an fsio refusal, which the
// flow_unreadable message names itself.
func reason(err error) error {
	var fe *fsio.Error
	if errors.As(err, &fe) {
		if fe.Kind == fsio.KindTooLarge {
			return fmt.Errorf("larger than %d bytes", MaxSize)
		}
		return errors.New(fe.Reason())
	}
	return err
}

func unreadable(path string, err error) diag.Diagnostic {
	return diag.Errorf("flow_unreadable", "cannot read flow document `%s`: %v", path, err).InFile(path)
}

// firstInvalidUTF8 is the offset of the first byte of data that does not
// begin a valid UTF-8 sequence (len(data) when there is none).
func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// lfPos is the position of the byte at offset off: its line, counting LF
// line breaks as every position of a flow document does, and its column
// in code points, both 1-based.
func lfPos(data []byte, off int) diag.Pos {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return diag.Pos{Line: bytes.Count(data[:off], []byte{'\n'}) + 1, Column: utf8.RuneCount(data[start:off]) + 1}
}

// Read decodes data, read from file, by file's extension (ASCII
// case-insensitive `.yaml`, `.yml` or `.json`). It keeps exact keys and
// integers, refuses duplicate keys, and reports flow_unreadable (not UTF-8,
// too large), flow_bad_extension or flow_parse_error.
func Read(file string, data []byte) (*Raw, diag.List) {
	switch ext := asciiLower(filepath.Ext(file)); ext {
	case ".yaml", ".yml":
		return ReadAs(file, "YAML", data)
	case ".json":
		return ReadAs(file, "JSON", data)
	case "":
		return nil, diag.List{diag.Errorf("flow_bad_extension",
			"flow document `%s` has no extension; expected `.json`, `.yaml` or `.yml`", file).InFile(file)}
	default:
		return nil, diag.List{diag.Errorf("flow_bad_extension",
			"flow document `%s` has extension `%s`; expected `.json`, `.yaml` or `.yml`", file, ext).InFile(file)}
	}
}

// DetectFormat tells the format of a flow document that has no file name
// (standard input) from its content: "JSON" when its first byte other
// than white space is `{`, else "YAML". A JSON flow document is an object;
// a YAML one written by any tool starts with a key or a comment.
func DetectFormat(data []byte) string {
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
		return "JSON"
	}
	return "YAML"
}

// ReadAs decodes data, read from file, as format ("YAML" or "JSON")
// whatever file's name: it is Read for a document without a name that
// tells, such as standard input (see DetectFormat).
func ReadAs(file, format string, data []byte) (*Raw, diag.List) {
	if len(data) > MaxSize {
		return nil, diag.List{unreadable(file, fmt.Errorf("larger than %d bytes", MaxSize))}
	}
	if !utf8.Valid(data) {
		off := firstInvalidUTF8(data)
		d := unreadable(file, fmt.Errorf("the byte 0x%02x is not UTF-8 text", data[off]))
		return nil, diag.List{d.At(file, lfPos(data, off))}
	}
	read := readYAML
	if format == "JSON" {
		read = readJSON
	}
	root, d := read(file, data)
	if d != nil {
		return nil, diag.List{*d}
	}
	return &Raw{File: file, Format: format, Root: root}, nil
}

// asciiLower lowers ASCII letters only, as the harness compares extensions.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// parseError builds a flow_parse_error naming the format and the position.
func parseError(file, format string, pos diag.Pos, msg string) *diag.Diagnostic {
	d := diag.Errorf("flow_parse_error", "%s parse error at line %d, column %d: %s",
		format, pos.Line, pos.Column, msg).At(file, pos)
	return &d
}

// ---- YAML ----

func readYAML(file string, data []byte) (*Value, *diag.Diagnostic) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, parseError(file, "YAML", diag.Pos{Line: 1, Column: 1}, "the document is empty")
		}
		return nil, yamlError(file, data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		if err != nil {
			return nil, yamlError(file, data, err)
		}
		pos := diag.Pos{Line: extra.Line, Column: extra.Column}
		if !pos.IsValid() {
			pos = diag.Pos{Line: 1, Column: 1}
		}
		return nil, parseError(file, "YAML", pos, "more than one document in the stream")
	}
	c := &yamlConv{file: file, lines: bytes.Count(data, []byte("\n")) + 1}
	return c.convert(&doc, 0)
}

// yamlError is the flow_parse_error of a yaml.v3 error: at the line it
// names (yamlerr.Split: yaml.v3 prints its parser's lines 0-based),
// clamped to the LF lines every position here counts (yaml.v3 also
// breaks lines at a lone CR, and names the line after the last at end of
// input), column 1; text after the end of the document at its first byte.
func yamlError(file string, data []byte, err error) *diag.Diagnostic {
	line, msg := yamlerr.Split(err)
	pos := diag.Pos{Line: max(1, min(line, bytes.Count(data, []byte("\n"))+1)), Column: 1}
	if msg == yamlerr.Trailing {
		msg = "text follows the end of the document"
		start := 0
		for n := 1; n < pos.Line; n++ {
			start += bytes.IndexByte(data[start:], '\n') + 1
		}
		if at, ok := yamlerr.TrailingOffset(data, start); ok {
			if p := lfPos(data, at); p.Line == pos.Line && oneYAMLDocument(data[:at]) {
				pos = p
			}
		}
	}
	return parseError(file, "YAML", pos, msg)
}

// oneYAMLDocument reports whether data is one YAML document, as yaml.v3
// reads it.
func oneYAMLDocument(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, extra yaml.Node
	return dec.Decode(&doc) == nil && dec.Decode(&extra) == io.EOF
}

type yamlConv struct {
	file    string
	lines   int // lines in the input, to clamp positions
	count   int
	deepest int // deepest level converted so far
	// keep counts the anchored nodes being converted: below one, the YAML
	// nodes must stay whole for the aliases that name it; elsewhere each
	// converted child is released, so the YAML tree shrinks as the value
	// tree grows and the two never both hold a large document whole.
	keep int
	// slab hands out Values from blocks, one allocation per block.
	slab []Value
	// anchors caches converted anchor targets with their expanded size, so
	// an alias costs its size against the budget without being rebuilt.
	anchors map[*yaml.Node]anchored
}

type anchored struct {
	v      *Value
	size   int
	height int // levels below the anchor's own
}

func (c *yamlConv) fail(n *yaml.Node, format string, args ...any) *diag.Diagnostic {
	return parseError(c.file, "YAML", c.pos(n), fmt.Sprintf(format, args...))
}

// pos is n's position, clamped into the input: yaml.v3 places the implicit
// null of an empty document after `---` on the line past the end.
func (c *yamlConv) pos(n *yaml.Node) diag.Pos {
	if n.Line > c.lines {
		return diag.Pos{Line: c.lines, Column: 1}
	}
	return diag.Pos{Line: n.Line, Column: n.Column}
}

func (c *yamlConv) convert(n *yaml.Node, depth int) (*Value, *diag.Diagnostic) {
	c.count++
	if c.count > maxValues {
		return nil, c.fail(n, "the document expands to more than %d values", maxValues)
	}
	if depth > MaxDepth {
		return nil, c.fail(n, "nesting deeper than %d levels", MaxDepth)
	}
	c.deepest = max(c.deepest, depth)
	if why, unreadable := yamltag.Unreadable(n); unreadable {
		return nil, c.fail(n, "%s; %s", why, yamltag.Hint)
	}
	if n.Anchor != "" {
		c.keep++
		defer func() { c.keep-- }()
	}
	pos := c.pos(n)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, c.fail(n, "the document is empty")
		}
		return c.convert(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, c.fail(n, "unknown alias")
		}
		a, ok := c.anchors[n.Alias]
		if !ok {
			before, outer := c.count, c.deepest
			c.deepest = depth + 1
			v, d := c.convert(n.Alias, depth+1)
			if d != nil {
				return nil, d
			}
			a = anchored{v: v, size: c.count - before, height: c.deepest - (depth + 1)}
			c.deepest = max(outer, c.deepest)
			if c.anchors == nil {
				c.anchors = map[*yaml.Node]anchored{}
			}
			c.anchors[n.Alias] = a
		} else {
			c.count += a.size
			if depth+1+a.height > MaxDepth {
				return nil, c.fail(n, "nesting deeper than %d levels", MaxDepth)
			}
			if c.count > maxValues {
				return nil, c.fail(n, "the document expands to more than %d values", maxValues)
			}
		}
		cp := *a.v // shallow: the tree below is shared, never mutated
		cp.Pos = pos
		return &cp, nil
	case yaml.SequenceNode:
		v := c.value(Value{Kind: ArrayValue, Pos: pos, Items: make([]*Value, 0, len(n.Content))})
		for i, it := range n.Content {
			iv, d := c.convert(it, depth+1)
			if d != nil {
				return nil, d
			}
			v.Items = append(v.Items, iv)
			c.release(n, i)
		}
		return v, nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.ScalarNode:
		return c.scalar(n), nil
	}
	return nil, c.fail(n, "unexpected YAML node")
}

// value returns a pointer to a copy of v, taken from the slab.
func (c *yamlConv) value(v Value) *Value {
	if len(c.slab) == 0 {
		c.slab = make([]Value, 256)
	}
	p := &c.slab[0]
	c.slab = c.slab[1:]
	*p = v
	return p
}

// release drops n's i-th child once converted, unless an anchor above needs
// it whole.
func (c *yamlConv) release(n *yaml.Node, i int) {
	if c.keep == 0 {
		n.Content[i] = nil
	}
}

func (c *yamlConv) mapping(n *yaml.Node, depth int) (*Value, *diag.Diagnostic) {
	v := c.value(Value{Kind: ObjectValue, Pos: c.pos(n), Members: make([]Member, 0, len(n.Content)/2)})
	var seen map[string]diag.Pos // only for large mappings; small ones scan their members
	if len(n.Content)/2 > smallMapping {
		seen = make(map[string]diag.Pos, len(n.Content)/2)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		for k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		kn := n.Content[i]
		if k.Kind != yaml.ScalarNode || (k.Tag != "!!str" && k.Tag != "!!merge") {
			return nil, c.fail(kn, "a mapping key must be a string")
		}
		kpos := c.pos(kn)
		if first, dup := firstKey(v.Members, seen, k.Value); dup {
			d := c.fail(kn, "duplicate key `%s` (first at line %d, column %d)", k.Value, first.Line, first.Column)
			*d = d.WithRelated(c.file, first, "first occurrence")
			return nil, d
		}
		if seen != nil {
			seen[k.Value] = kpos
		}
		val, d := c.convert(n.Content[i+1], depth+1)
		if d != nil {
			return nil, d
		}
		v.Members = append(v.Members, Member{Key: k.Value, KeyPos: kpos, Value: val})
		c.release(n, i+1)
	}
	return v, nil
}

// smallMapping is the number of keys up to which a mapping finds duplicate
// keys by scanning its members instead of indexing them.
const smallMapping = 16

// firstKey returns the position of key among the members read so far
// (indexed in seen when seen is not nil).
func firstKey(members []Member, seen map[string]diag.Pos, key string) (diag.Pos, bool) {
	if seen != nil {
		p, ok := seen[key]
		return p, ok
	}
	for _, m := range members {
		if m.Key == key {
			return m.KeyPos, true
		}
	}
	return diag.Pos{}, false
}

func (c *yamlConv) scalar(n *yaml.Node) *Value {
	v := c.value(Value{Pos: c.pos(n), Kind: StringValue, Text: n.Value})
	switch n.Tag {
	case "!!null":
		v.Kind, v.Text = NullValue, ""
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			v.Kind, v.Bool, v.Text = BoolValue, b, ""
		}
	case "!!int":
		v.Kind = IntValue
		if !isDecimal(n.Value) {
			v.NonDecimal = true // kept as written: the strict check refuses it
			break
		}
		var i int64
		var u uint64
		switch {
		case n.Decode(&i) == nil:
			v.Text = strconv.FormatInt(i, 10)
		case n.Decode(&u) == nil:
			v.Text = strconv.FormatUint(u, 10)
		default: // too large for 64 bits: keep the literal, out of every range
		}
	case "!!float":
		v.Kind = FloatValue
	}
	return v
}

// ---- JSON ----

type jsonReader struct {
	file  string
	data  []byte
	dec   *json.Decoder
	lines []int // byte offset of each line start
	// last is the last position computed, at offset lastOff: the reader
	// asks for positions in increasing order, so a column is counted
	// from there rather than from its line's start, which on a document
	// written on one line made reading it quadratic.
	last    diag.Pos
	lastOff int
	// counted is the bytes pos has counted characters over, which its
	// test holds to the document's size.
	counted int
}

func newJSONReader(file string, data []byte) *jsonReader {
	r := &jsonReader{file: file, data: data, dec: json.NewDecoder(bytes.NewReader(data)), last: diag.Pos{Line: 1, Column: 1}}
	r.dec.UseNumber()
	r.lines = append(r.lines, 0)
	for i, c := range data {
		if c == '\n' {
			r.lines = append(r.lines, i+1)
		}
	}
	return r
}

func readJSON(file string, data []byte) (*Value, *diag.Diagnostic) {
	r := newJSONReader(file, data)
	v, d := r.value(0)
	if d != nil {
		return nil, d
	}
	start := r.nextStart()
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, r.fail(start, "unexpected data after the top-level value")
	}
	return v, nil
}

// pos converts a byte offset to a 1-based line and code-point column. The
// column is counted from the last position asked for when off is on the
// same line and not before it, else from the line's start, so that reading
// a document costs time linear in its size, one line or many.
func (r *jsonReader) pos(off int) diag.Pos {
	if off > len(r.data) {
		off = len(r.data)
	}
	lo, hi := 0, len(r.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if r.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	from, col := r.lines[lo], 1
	if r.last.Line == lo+1 && r.lastOff >= from && r.lastOff <= off {
		from, col = r.lastOff, r.last.Column
	}
	p := diag.Pos{Line: lo + 1, Column: col + utf8.RuneCount(r.data[from:off])}
	r.counted += off - from
	if off == len(r.data) || utf8.RuneStart(r.data[off]) {
		r.last, r.lastOff = p, off // a character boundary: counting on from it adds up
	}
	return p
}

// nextStart is the offset of the next token: the decoder's offset past the
// separators it has not consumed yet.
func (r *jsonReader) nextStart() int {
	off := int(r.dec.InputOffset())
	for off < len(r.data) {
		switch r.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (r *jsonReader) fail(off int, format string, args ...any) *diag.Diagnostic {
	return parseError(r.file, "JSON", r.pos(off), fmt.Sprintf(format, args...))
}

// tokenError turns the decoder's error into a flow_parse_error at the
// offending byte. The decoder's own offset (SyntaxError.Offset) is not
// that byte's: it may stand before the separator that precedes it, or
// after it. Its input offset, past separators, is where the offending
// token starts; an error inside a token (a string, a literal, a number) is
// placed inside it by scanning the token alone. A byte the decoder quotes
// as a Latin-1 character (`'Ã'` for the first byte of `é`, `'ï'` for a
// byte order mark) is named as the character it begins.
func (r *jsonReader) tokenError(err error) *diag.Diagnostic {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return r.fail(len(r.data), "unexpected end of input")
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return r.fail(len(r.data), "%s", err)
	}
	msg := se.Error()
	off := r.nextStart()
	if strings.Contains(msg, " in string") || strings.Contains(msg, " in literal") || strings.Contains(msg, " in numeric literal") || strings.Contains(msg, " in \\u hexadecimal") {
		var v any
		var inner *json.SyntaxError
		if e := json.Unmarshal(r.data[off:], &v); errors.As(e, &inner) && inner.Offset > 0 {
			off += int(inner.Offset) - 1
		}
	}
	off = min(off, len(r.data))
	if prefix, rest, ok := strings.Cut(msg, "invalid character '"); ok && prefix == "" && off < len(r.data) && r.data[off] >= utf8.RuneSelf {
		if _, after, ok := strings.Cut(rest, "' "); ok {
			switch ch, size := utf8.DecodeRune(r.data[off:]); {
			case ch == '\ufeff' && off == 0:
				msg = "the file starts with a byte order mark (U+FEFF), which JSON does not allow"
			case ch == utf8.RuneError && size <= 1:
				msg = fmt.Sprintf("invalid byte 0x%02x %s", r.data[off], after)
			default:
				msg = fmt.Sprintf("invalid character %q %s", ch, after)
			}
		}
	}
	return r.fail(off, "%s", msg)
}

func (r *jsonReader) value(depth int) (*Value, *diag.Diagnostic) {
	start := r.nextStart()
	if depth > MaxDepth {
		return nil, r.fail(start, "nesting deeper than %d levels", MaxDepth)
	}
	tok, err := r.dec.Token()
	if err != nil {
		return nil, r.tokenError(err)
	}
	v := &Value{Pos: r.pos(start)}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return r.object(v, depth)
		}
		if t == '[' {
			return r.array(v, depth)
		}
		return nil, r.fail(start, "unexpected `%s`", t)
	case string:
		if d := r.surrogate(start, t); d != nil {
			return nil, d
		}
		v.Kind, v.Text = StringValue, t
	case bool:
		v.Kind, v.Bool = BoolValue, t
	case nil:
		v.Kind = NullValue
	case json.Number:
		v.Kind, v.Text = jsonNumber(string(t))
	}
	return v, nil
}

// jsonNumber classifies a number literal: an integer has no fraction and no
// exponent (the harness's u32 refuses `2.0`).
func jsonNumber(lit string) (ValueKind, string) {
	if strings.ContainsAny(lit, ".eE") {
		return FloatValue, lit
	}
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return IntValue, strconv.FormatInt(i, 10)
	}
	if u, err := strconv.ParseUint(lit, 10, 64); err == nil {
		return IntValue, strconv.FormatUint(u, 10)
	}
	return IntValue, lit
}

// surrogate refuses the string token s, read from start, when its literal
// escapes half of a UTF-16 surrogate pair without the other half
// (`"\ud800"`): that stands for no character, encoding/json reads U+FFFD in
// its place, and serde_json, the harness's reader, refuses the document.
// Only a token holding U+FFFD can hold one, so the others are not scanned.
func (r *jsonReader) surrogate(start int, s string) *diag.Diagnostic {
	if !strings.ContainsRune(s, utf8.RuneError) {
		return nil
	}
	lit := r.data[start:min(int(r.dec.InputOffset()), len(r.data))]
	if at, ok := serdejson.LoneSurrogate(lit); ok {
		return r.fail(start+at, "`%s` is half of a UTF-16 surrogate pair without its other half, which is no character", lit[at:at+6])
	}
	return nil
}

func (r *jsonReader) object(v *Value, depth int) (*Value, *diag.Diagnostic) {
	v.Kind = ObjectValue
	seen := map[string]diag.Pos{}
	for r.dec.More() {
		kstart := r.nextStart()
		tok, err := r.dec.Token()
		if err != nil {
			return nil, r.tokenError(err)
		}
		key, ok := tok.(string)
		if !ok {
			return nil, r.fail(kstart, "an object key must be a string")
		}
		if d := r.surrogate(kstart, key); d != nil {
			return nil, d
		}
		kpos := r.pos(kstart)
		if first, dup := seen[key]; dup {
			d := r.fail(kstart, "duplicate key `%s` (first at line %d, column %d)", key, first.Line, first.Column)
			*d = d.WithRelated(r.file, first, "first occurrence")
			return nil, d
		}
		seen[key] = kpos
		val, d := r.value(depth + 1)
		if d != nil {
			return nil, d
		}
		v.Members = append(v.Members, Member{Key: key, KeyPos: kpos, Value: val})
	}
	if _, err := r.dec.Token(); err != nil {
		return nil, r.tokenError(err)
	}
	return v, nil
}

func (r *jsonReader) array(v *Value, depth int) (*Value, *diag.Diagnostic) {
	v.Kind = ArrayValue
	v.Items = []*Value{}
	for r.dec.More() {
		it, d := r.value(depth + 1)
		if d != nil {
			return nil, d
		}
		v.Items = append(v.Items, it)
	}
	if _, err := r.dec.Token(); err != nil {
		return nil, r.tokenError(err)
	}
	return v, nil
}
