// Package yamldoc is aepflow's strict reader of YAML and JSON documents.
//
// It parses bytes into a go.yaml.in/yaml/v3 node tree and refuses, as
// positioned diagnostics, everything the AEP documents forbid but a YAML
// library accepts silently: duplicate keys, anchors, aliases and merge keys,
// non-string keys, more than one document, and input beyond the documented
// size and nesting bounds. A Map then reads one mapping strictly, reporting
// unknown keys, missing keys, wrong types and key/alias conflicts, so that
// every model package (workflow, stepmap, protocol documents) shares one set
// of shape rules and codes (documents.md §2.4).
//
// It knows nothing of any document kind; it is not for flow documents,
// whose reader must keep the harness's own, different rules (package flow).
package yamldoc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/yamlerr"
	yaml "go.yaml.in/yaml/v3"
)

// Bounds on what Parse reads. A file beyond either is refused at once with
// input_too_large, without parsing on.
const (
	// MaxFileSize is the largest document, in bytes, Parse accepts (4 MiB:
	// the largest real AEP document is a few kilobytes).
	MaxFileSize = 4 << 20
	// MaxDepth is the deepest nesting of mappings and sequences Parse
	// accepts. Predicates nest at most 32 levels (documents.md §5.4), and
	// their containers add a handful more.
	MaxDepth = 64
)

// Codes of the shape diagnostics this package reports (documents.md §2.4).
const (
	CodeSyntax           = "yaml_syntax"
	CodeDuplicateKey     = "duplicate_key"
	CodeAlias            = "yaml_alias"
	CodeNonStringKey     = "non_string_key"
	CodeTooLarge         = "input_too_large"
	CodeUnknownField     = "unknown_field"
	CodeMissingField     = "missing_field"
	CodeWrongType        = "wrong_type"
	CodeConflictingAlias = "conflicting_alias"
	CodeInvalidValue     = "invalid_value"
)

// Document is one parsed file: its name as reported in diagnostics, its
// bytes, and the root content node (nil for an empty file).
type Document struct {
	File string
	Data []byte
	Root *yaml.Node
	// dotted maps the position of each value that stands under a key
	// holding a dot, and of the items of such a value that is a sequence
	// (down through nested sequences), to its name: the key whole
	// (`review.first`), with the indexes below it (`x.y[1]`). A document
	// path writes such a key as it is, so its last segment cannot name it
	// (Reader.NameOf). Positions, not nodes: a decoder that drops the
	// nodes it has read (workflow.DecodeReleasing) lets them go. Nil when
	// no key holds a dot.
	dotted map[diag.Pos]string
}

// PosOf returns the position of node n (the zero Pos for nil).
func PosOf(n *yaml.Node) diag.Pos {
	if n == nil {
		return diag.Pos{}
	}
	return diag.Pos{Line: n.Line, Column: n.Column}
}

// Parse reads data as one YAML (or JSON) document and checks it for the
// constructs AEP forbids. The returned Document is nil when the bytes could
// not be parsed at all or exceed a bound; otherwise its Root may still carry
// the reported problems, and callers should not validate it further when the
// list holds errors.
func Parse(file string, data []byte) (*Document, diag.List) {
	var diags diag.List
	if len(data) > MaxFileSize {
		diags.Add(diag.Errorf(CodeTooLarge, "the file is %d bytes, over the limit of %d bytes", len(data), MaxFileSize).
			At(file, diag.Pos{}).WithHint("AEP documents are small; check that this is the file you meant"))
		return nil, diags
	}
	root, err := decodeOne(data)
	if err != nil {
		diags.Add(syntaxDiagnostic(file, data, err))
		return nil, diags
	}
	if deep := boundAndClamp(root, MaxDepth, lineCount(data)); deep != nil {
		diags.Add(diag.Errorf(CodeTooLarge, "the document nests deeper than the limit of %d levels", MaxDepth).
			At(file, PosOf(deep)))
		return nil, diags
	}
	doc := &Document{File: file, Data: data, Root: root}
	doc.checkTree(root, &diags)
	return doc, diags
}

// decodeOne decodes the first document and refuses a second one.
func decodeOne(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var top yaml.Node
	if err := dec.Decode(&top); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &secondDocument{line: next.Line}
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		return top.Content[0], nil
	}
	return nil, nil
}

// secondDocument is decodeOne's refusal of a second document, which
// starts at line (1-based).
type secondDocument struct{ line int }

func (e *secondDocument) Error() string {
	return "a file holds one document, found a second one"
}

// syntaxDiagnostic turns a yaml.v3 error into a yaml_syntax diagnostic at
// the line it names (yaml.v3 reports no column: the first one is blamed,
// except for text after the document's end and a byte that is not UTF-8,
// found here). The line goes into the position, not the message.
func syntaxDiagnostic(file string, data []byte, err error) diag.Diagnostic {
	var second *secondDocument
	if errors.As(err, &second) {
		return diag.Errorf(CodeSyntax, "the file is not valid YAML or JSON: %s", second).
			At(file, diag.Pos{Line: min(second.line, lineCount(data)), Column: 1})
	}
	line, msg := yamlerr.Split(err)
	pos := diag.Pos{Line: max(1, min(line, lineCount(data))), Column: 1}
	hint := ""
	switch {
	case msg == yamlerr.Trailing:
		msg = "text follows the end of the document"
		hint = "a file holds one document (a JSON file one value): remove what follows it, or look for a bracket closed too early or a line indented less than the first"
		if at, ok := trailingStart(data, pos.Line); ok {
			pos = at
		}
	case line == 0 && strings.Contains(msg, "UTF-8"):
		// yaml.v3 names no line for a byte that is not UTF-8: the first
		// such byte is the one it met.
		if at, ok := firstInvalidUTF8(data); ok {
			pos = at
		}
	}
	d := diag.Errorf(CodeSyntax, "the file is not valid YAML or JSON: %s", msg).At(file, pos)
	if hint != "" {
		d = d.WithHint("%s", hint)
	}
	return d
}

// trailingStart is the position of the first byte after the end of the
// document's root node, which yaml.v3 refused as yamlerr.Trailing on line
// (1-based), found by yamlerr.TrailingOffset. The position is checked: the
// bytes before it must be one document that yaml.v3 reads, and it must lie
// on line.
func trailingStart(data []byte, line int) (diag.Pos, bool) {
	at, ok := yamlerr.TrailingOffset(data, lineStart(data, line))
	if !ok {
		return diag.Pos{}, false
	}
	pos := offsetPos(data, at)
	if pos.Line != line {
		return diag.Pos{}, false
	}
	if _, err := decodeOne(data[:at]); err != nil {
		return diag.Pos{}, false
	}
	return pos, true
}

// lineStart is the offset of the first byte of line (1-based), as
// lineCount breaks lines; len(data) past the last line.
func lineStart(data []byte, line int) int {
	n := 1
	for i := 0; i < len(data); {
		if n == line {
			return i
		}
		if b := diag.LineBreak(data, i); b > 0 {
			n++
			i += b
			continue
		}
		i++
	}
	return len(data)
}

// offsetPos is the position of the byte at offset off: its line, as
// lineCount breaks lines, and its column in code points, both 1-based.
func offsetPos(data []byte, off int) diag.Pos {
	pos := diag.Pos{Line: 1, Column: 1}
	for i := 0; i < off && i < len(data); {
		if b := diag.LineBreak(data, i); b > 0 {
			pos.Line, pos.Column = pos.Line+1, 1
			i += b
			continue
		}
		_, size := utf8.DecodeRune(data[i:])
		pos.Column++
		i += size
	}
	return pos
}

// firstInvalidUTF8 is the position of the first byte of data that does not
// begin a valid UTF-8 sequence: its line, as lineCount breaks lines, and
// its column in code points (as yaml.v3 counts them), both 1-based.
func firstInvalidUTF8(data []byte) (diag.Pos, bool) {
	pos := diag.Pos{Line: 1, Column: 1}
	for i := 0; i < len(data); {
		if b := diag.LineBreak(data, i); b > 0 {
			pos.Line, pos.Column = pos.Line+1, 1
			i += b
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return pos, true
		}
		pos.Column++
		i += size
	}
	return diag.Pos{}, false
}

// lineCount counts lines the way go.yaml.in/yaml/v3 breaks them: LF, CR
// and CRLF, and also NEL (U+0085), LS (U+2028) and PS (U+2029), which it
// counts as line breaks wherever they appear. The parser sometimes names
// the line after the last one at end of input.
func lineCount(data []byte) int {
	// Only LF, CR and the first bytes of NEL (C2 85), LS and PS (E2 80 A8,
	// E2 80 A9) can start a line break: without the last three, the
	// count is LF's, which a vectorised scan finds far faster than the
	// byte-by-byte rule (every document the tree loads is counted).
	if bytes.IndexByte(data, '\r') < 0 && bytes.IndexByte(data, 0xC2) < 0 && bytes.IndexByte(data, 0xE2) < 0 {
		return bytes.Count(data, []byte{'\n'}) + 1
	}
	return lineCountByRule(data)
}

// lineCountByRule is lineCount byte by byte: one more than the line breaks
// diag.LineBreak finds.
func lineCountByRule(data []byte) int {
	n := 1
	for i := 0; i < len(data); {
		if b := diag.LineBreak(data, i); b > 0 {
			n++
			i += b
			continue
		}
		i++
	}
	return n
}
