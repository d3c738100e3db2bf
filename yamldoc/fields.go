package yamldoc

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aepflow/aepflow/diag"
	"github.com/aepflow/aepflow/internal/suggest"
	yaml "go.yaml.in/yaml/v3"
)

// Reader reports shape problems of one document into a shared list. Model
// packages create one per document and pass it down their decoders.
type Reader struct {
	File  string
	Diags *diag.List

	data    []byte              // the document's bytes, for fixes that replace a value in place
	lines   []int               // byte offset of each line's start, built on first use
	missing map[string]bool     // paths of required keys found missing
	budget  *suggest.Budget     // the did-you-mean work of the whole document
	dotted  map[diag.Pos]string // the document's values under keys holding a dot (Document.dotted)

	// span is the last column ValueSpan found, with its byte offset:
	// decoders ask in document order, so the next is found by walking on
	// from it, not from its line's start (which made a document written
	// on one line quadratic to decode).
	span struct{ line, col, off int }
	// stepped counts the characters ValueSpan walked over, which its
	// test holds to the document's size.
	stepped int
}

// NewReader returns a Reader for doc's file reporting into diags.
func NewReader(doc *Document, diags *diag.List) *Reader {
	return &Reader{File: doc.File, Diags: diags, data: doc.Data, dotted: doc.dotted}
}

// Report adds d, located at node n of this reader's file with document
// path path.
func (r *Reader) Report(n *yaml.Node, path string, d diag.Diagnostic) {
	r.Diags.Add(d.At(r.File, PosOf(n)).WithPath(path))
}

// WrongType reports that n at path is not the expected shape. An alias
// node is not reported again: Parse already refused every alias.
func (r *Reader) WrongType(n *yaml.Node, path, expected string) {
	if n != nil && n.Kind == yaml.AliasNode {
		return
	}
	if n == nil && r.missing[path] {
		return // Require reported the missing key: that is the cause
	}
	r.Report(n, path, diag.Errorf(CodeWrongType, "%s must be %s, found %s", r.NameOf(n, path), expected, ShapeOf(n)))
}

// NameOf names the value n at path in a message: the key it stands under,
// in backticks, whole even when the key holds a dot (a state
// `review.first`, a fact `diff.exists`), with the indexes that lead to n
// below it (`x.y[1]`); "the document" for the root, "the empty key" for a
// key "". A path joins keys with `.` and writes each as it is (documents.md
// §7: `states.<s>`), so its last segment alone would name `first`: Parse
// records where the values of such keys stand. Otherwise (no dot in the
// key, no n) the path's last segment names it.
func (r *Reader) NameOf(n *yaml.Node, path string) string {
	seg := lastSegment(path)
	if n != nil && r.dotted != nil {
		// The recorded name is used only where it ends the path, so a
		// position that is not the value's own cannot name another key.
		if name, ok := r.dotted[PosOf(n)]; ok && (path == name || strings.HasSuffix(path, "."+name)) {
			seg = name
		}
	}
	switch {
	case path == "":
		return "the document"
	case seg == "":
		return "the empty key"
	default:
		return "`" + seg + "`"
	}
}

// Invalid reports an invalid_value at n: the field, the value and what is
// accepted.
func (r *Reader) Invalid(n *yaml.Node, path, format string, args ...any) {
	r.Report(n, path, diag.Errorf(CodeInvalidValue, format, args...))
}

// Key joins a document path and a mapping key: "a.b".
func Key(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// KeyOf is Key(path, key) for the value n found under key, and "" when
// there is none: nothing is ever reported at an absent value, and the
// decoders of the documents a hook reads by the thousand would otherwise
// join a path for every optional key a document leaves out.
func KeyOf(n *yaml.Node, path, key string) string {
	if n == nil {
		return ""
	}
	return Key(path, key)
}

// Index joins a document path and a sequence index: "a[3]".
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func lastSegment(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// Map reads one YAML mapping strictly. Every key the decoder asks for (or
// names with Allow) is allowed; Done reports the others as unknown_field.
// A Map over a node that is not a mapping reports wrong_type once and then
// answers every lookup with "absent", so decoders need no special case.
//
// Most mappings hold a handful of keys, and a document holds one Map per
// mapping (a 10,000-state workflow, tens of thousands), so a Map looks keys
// up by scanning while the mapping is small and builds its indexes only for
// mappings keyed by data (states), which hold thousands.
type Map struct {
	r       *Reader
	node    *yaml.Node
	path    string
	allowed keySet
	keys    map[string]int // key -> index of the key node in node.Content; nil while small
	missing map[string]diag.Diagnostic
	// misspelt holds the allowed keys Done found an unknown key close to.
	misspelt map[string]bool
	// blamed is set when the node is not a mapping and that was reported:
	// its keys are then not blamed again, one by one, as missing values.
	blamed bool
}

// smallMap is the number of entries up to which a mapping's keys are
// scanned rather than indexed.
const smallMap = 16

// Map starts reading node n, found at path, as a mapping. A nil or null
// node reads as an empty mapping when nullOK is set. The Map is a value,
// which a decoder keeps in a variable and passes on by its address: it
// then stays on the decoder's stack (a document holds one Map per
// mapping, and the hook reads every document of a tree).
func (r *Reader) Map(n *yaml.Node, path string, nullOK bool) Map {
	m := Map{r: r, node: n, path: path}
	switch {
	case n != nil && n.Kind == yaml.MappingNode:
		if len(n.Content)/2 > smallMap {
			m.keys = make(map[string]int, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if _, dup := m.keys[k.Value]; !dup && k.Kind == yaml.ScalarNode {
					m.keys[k.Value] = i
				}
			}
		}
	case nullOK && IsNull(n):
	default:
		r.WrongType(n, path, "a mapping")
		m.node, m.blamed = nil, true
	}
	return m
}

// index returns the index in node.Content of key's first scalar key node.
func (m *Map) index(key string) (int, bool) {
	if m.node == nil {
		return 0, false
	}
	if m.keys != nil {
		i, ok := m.keys[key]
		return i, ok
	}
	for i := 0; i+1 < len(m.node.Content); i += 2 {
		if k := m.node.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return i, true
		}
	}
	return 0, false
}

// Path returns the document path of the mapping.
func (m *Map) Path() string { return m.path }

// Node returns the mapping node (nil when it was not a mapping).
func (m *Map) Node() *yaml.Node { return m.node }

// Reader returns the reader the mapping reports into.
func (m *Map) Reader() *Reader { return m.r }

// Allow declares keys as known without reading them.
func (m *Map) Allow(keys ...string) {
	for _, k := range keys {
		m.allowed.add(k)
	}
}

// Get returns the value node of key, or nil when absent; the key becomes
// allowed.
func (m *Map) Get(key string) *yaml.Node {
	m.Allow(key)
	if i, ok := m.index(key); ok {
		return m.node.Content[i+1]
	}
	return nil
}

// KeyNode returns the key node of key, or nil when absent.
func (m *Map) KeyNode(key string) *yaml.Node {
	if i, ok := m.index(key); ok {
		return m.node.Content[i]
	}
	return nil
}

// Has reports whether key is present (even with a null value).
func (m *Map) Has(key string) bool {
	m.Allow(key)
	_, ok := m.index(key)
	return ok
}

// GetAlias returns the value of key or of its alias, and the spelling that
// was used. Giving both is conflicting_alias.
func (m *Map) GetAlias(key, alias string) (*yaml.Node, string) {
	a, b := m.Get(key), m.Get(alias)
	if a != nil && b != nil {
		m.r.Report(m.KeyNode(alias), Key(m.path, alias),
			diag.Errorf(CodeConflictingAlias, "`%s` and its alias `%s` are both given", key, alias).
				WithHint("keep one of the two spellings"))
	}
	if a != nil {
		return a, key
	}
	if b != nil {
		return b, alias
	}
	return nil, key
}

// Require returns the value of key, reporting missing_field at the mapping
// when it is absent.
func (m *Map) Require(key string) *yaml.Node {
	v := m.Get(key)
	if v == nil && m.blamed {
		m.r.markMissing(Key(m.path, key)) // the mapping's own shape is the cause
	}
	if v == nil && m.node != nil {
		d := diag.Errorf(CodeMissingField, "the required key `%s` is missing", key).At(m.r.File, PosOf(m.node)).WithPath(m.path)
		m.r.Diags.Add(d)
		m.r.markMissing(Key(m.path, key))
		if m.missing == nil {
			m.missing = map[string]diag.Diagnostic{}
		}
		m.missing[key] = d
	}
	return v
}

// markMissing records that the value at path is absent for a reported
// cause, so that WrongType does not blame it as "found nothing".
func (r *Reader) markMissing(path string) {
	if r.missing == nil {
		r.missing = map[string]bool{}
	}
	r.missing[path] = true
}

// Done reports every key of the mapping that was neither read nor allowed,
// listing the allowed keys in byte order.
func (m *Map) Done() {
	if m.node == nil {
		return
	}
	var allowed []string // sorted at the first unknown key: most mappings have none
	var finder *suggest.Finder
	for i := 0; i+1 < len(m.node.Content); i += 2 {
		k := m.node.Content[i]
		if m.allowed.has(k.Value) || k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			continue
		}
		if allowed == nil {
			allowed = m.allowed.sorted()
		}
		if finder == nil {
			// Keys the mapping already holds are no suggestion: renaming
			// to one would make a duplicate.
			if m.r.budget == nil {
				m.r.budget = suggest.NewBudget()
			}
			finder = suggest.NewFinderWithin(slices.DeleteFunc(slices.Clone(allowed), func(a string) bool {
				_, present := m.index(a)
				return present
			}), m.r.budget)
		}
		d := diag.Errorf(CodeUnknownField, "unknown key `%s`", k.Value)
		if k.Value == "" {
			d = diag.Errorf(CodeUnknownField, "unknown key \"\" (an empty key)")
		}
		d = d.
			WithHint("allowed keys: %s", strings.Join(allowed, ", "))
		if best, ok := finder.Closest(k.Value); ok {
			if m.misspelt == nil {
				m.misspelt = map[string]bool{}
			}
			m.misspelt[best] = true
			if missing, ok := m.missing[best]; ok {
				// The misspelling is why the required key is missing:
				// one diagnostic, the cause, says both.
				m.r.drop(missing)
				delete(m.missing, best)
				d.Message += fmt.Sprintf(", so the required key `%s` is missing", best)
			}
		}
		m.r.Report(k, Key(m.path, k.Value), m.r.Suggest(d, k, finder))
	}
}

// Misspelt reports whether Done found an unknown key whose closest allowed
// key is key: the author probably wrote key, misspelt, so a rule about
// key's absence would blame a consequence. It answers false before Done.
func (m *Map) Misspelt(key string) bool { return m.misspelt[key] }

// drop removes the last diagnostic equal to d (by code, position, path and
// message) from the reader's list.
func (r *Reader) drop(d diag.Diagnostic) {
	l := *r.Diags
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].Code == d.Code && l[i].File == d.File && l[i].Pos == d.Pos && l[i].Path == d.Path && l[i].Message == d.Message {
			*r.Diags = slices.Delete(l, i, i+1)
			return
		}
	}
}

// Suggest returns d with a "did you mean" for the name that node n holds,
// looked up with f: the hint names the closest candidate, and when n's
// text can be replaced in place a Fix does so. Without a close candidate
// d is returned unchanged.
func (r *Reader) Suggest(d diag.Diagnostic, n *yaml.Node, f *suggest.Finder) diag.Diagnostic {
	if n == nil || f == nil {
		return d
	}
	best, ok := f.Closest(n.Value)
	if !ok {
		return d
	}
	d = d.WithSuggestion(best)
	if fix, ok := r.ReplaceFix(n, best); ok {
		d = d.WithFix(fix)
	}
	return d
}

// ReplaceFix returns the edit that replaces the text of scalar node n by
// with. It exists only where the source holds n's value verbatim on one
// line (a plain scalar, or a quoted one without escapes; the quotes stay),
// so that the edit is exact.
func (r *Reader) ReplaceFix(n *yaml.Node, with string) (diag.Fix, bool) {
	span, ok := r.ValueSpan(n)
	if !ok {
		return diag.Fix{}, false
	}
	return diag.Replace(r.File, span, n.Value, with), true
}

// ValueSpan returns the span of scalar node n's value in the source (inside
// its quotes, if any), and whether the source holds exactly the value
// there.
func (r *Reader) ValueSpan(n *yaml.Node) (diag.Span, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Line < 1 || n.Column < 1 || n.Value == "" || r.data == nil {
		return diag.Span{}, false
	}
	col := n.Column
	switch n.Style &^ yaml.TaggedStyle {
	case 0:
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		col++
	default:
		return diag.Span{}, false
	}
	if r.lines == nil {
		r.lines = lineOffsets(r.data)
	}
	if n.Line > len(r.lines) {
		return diag.Span{}, false
	}
	off, c := r.lines[n.Line-1], 1
	if r.span.line == n.Line && r.span.col <= col {
		off, c = r.span.off, r.span.col
	}
	for ; c < col; c++ {
		if off >= len(r.data) || r.data[off] == '\n' {
			return diag.Span{}, false
		}
		_, size := utf8.DecodeRune(r.data[off:])
		off += size
		r.stepped++
	}
	r.span.line, r.span.col, r.span.off = n.Line, col, off
	if !bytes.HasPrefix(r.data[off:], []byte(n.Value)) || strings.ContainsAny(n.Value, "\r\n") {
		return diag.Span{}, false
	}
	start := diag.Pos{Line: n.Line, Column: col}
	end := diag.Pos{Line: n.Line, Column: col + utf8.RuneCountInString(n.Value)}
	return diag.Span{Start: start, End: end}, true
}

// lineOffsets returns the byte offset of each line's start (lines end at
// LF).
func lineOffsets(data []byte) []int {
	out := []int{0}
	for i, c := range data {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// keySet is a set of strings: the first keys in an array inside the Map
// (a decoder asks for about ten), the rest in a map (payload mappings allow
// every key they hold). A Map is made per mapping read, so the set must
// cost no allocation of its own in the common case.
type keySet struct {
	n      int
	inline [12]string
	more   map[string]bool
}

func (s *keySet) add(k string) {
	switch {
	case s.has(k):
	case s.n < len(s.inline):
		s.inline[s.n] = k
		s.n++
	default:
		if s.more == nil {
			s.more = map[string]bool{}
		}
		s.more[k] = true
	}
}

func (s *keySet) has(k string) bool {
	return slices.Contains(s.inline[:s.n], k) || s.more[k]
}

// sorted returns the keys in byte order.
func (s *keySet) sorted() []string {
	out := append(slices.Collect(maps.Keys(s.more)), s.inline[:s.n]...)
	slices.Sort(out)
	return out
}

// Keys returns the mapping's key nodes in document order (nil when it was not
// a mapping). Use it for maps keyed by data, such as states.
func (m *Map) Keys() []*yaml.Node {
	if m.node == nil {
		return nil
	}
	keys := make([]*yaml.Node, 0, len(m.node.Content)/2)
	for i := 0; i+1 < len(m.node.Content); i += 2 {
		keys = append(keys, m.node.Content[i])
	}
	return keys
}

// String decodes n as a string. Unquoted timestamps read as their text.
func (r *Reader) String(n *yaml.Node, path string) (string, bool) {
	if !isString(n) {
		r.WrongType(n, path, "a string")
		return "", false
	}
	return n.Value, true
}

// isString reports whether n is a scalar that reads as a string.
func isString(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && isStringTag(n.Tag)
}

// OptString decodes n as a string, or reports absence (nil or null) as
// ("", false) without a diagnostic.
func (r *Reader) OptString(n *yaml.Node, path string) (string, bool) {
	if IsNull(n) {
		return "", false
	}
	return r.String(n, path)
}

// Bool decodes n as a boolean.
func (r *Reader) Bool(n *yaml.Node, path string) (bool, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		r.WrongType(n, path, "a boolean")
		return false, false
	}
	v, err := strconv.ParseBool(strings.ToLower(n.Value))
	if err != nil {
		r.WrongType(n, path, "a boolean")
		return false, false
	}
	return v, true
}

// Uint32 decodes n as an integer in [min, 2^32-1], reporting wrong_type for a
// non-integer and invalid_value for one out of range.
func (r *Reader) Uint32(n *yaml.Node, path string, min uint64) (uint32, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		r.WrongType(n, path, "an integer")
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if err != nil || v < int64(min) || v > math.MaxUint32 {
		r.Invalid(n, path, "%s must be an integer from %d to %d, found %s", r.NameOf(n, path), min, uint64(math.MaxUint32), n.Value)
		return 0, false
	}
	return uint32(v), true
}

// Seq returns the items of n as a sequence. With oneOK a single non-sequence
// value reads as a one-item list; a null reads as an empty list.
func (r *Reader) Seq(n *yaml.Node, path string, oneOK bool) ([]*yaml.Node, bool) {
	switch {
	case IsNull(n):
		return nil, true
	case n.Kind == yaml.SequenceNode:
		return n.Content, true
	case oneOK:
		return []*yaml.Node{n}, true
	}
	r.WrongType(n, path, "a sequence")
	return nil, false
}

// Strings decodes n as a list of strings (null reads as empty). An item's
// path is joined only for an item reported: the hook reads every list of
// every document of a tree.
func (r *Reader) Strings(n *yaml.Node, path string, oneOK bool) []string {
	items, _ := r.Seq(n, path, oneOK)
	out := make([]string, 0, len(items))
	for i, it := range items {
		if !isString(it) {
			r.WrongType(it, Index(path, i), "a string")
			continue
		}
		out = append(out, it.Value)
	}
	return out
}
