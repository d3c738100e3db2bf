// Package yamlerr places and words the errors of go.yaml.in/yaml/v3, for
// the two readers of YAML (package yamldoc for AEP documents, package flow
// for flow documents): the line an error names (yaml.v3 prints a 0-based
// line for its parser's errors and a 1-based one for its scanner's), and
// the first byte of text after the end of a document, which yaml.v3 names
// by line only. It does not decide diagnostics or count lines: each reader
// keeps its own line rule and codes.
package yamlerr

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Trailing is yaml.v3's problem for text after the end of the document's
// root node (a second JSON value, a stray bracket, a line indented less
// than the root).
const Trailing = "did not find expected <document start>"

var lineInError = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): `) })

// Split returns the 1-based line a yaml.v3 error names (0 when it names
// none) and its message without the "yaml: " and "line N: " leads.
func Split(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if m := lineInError().FindStringSubmatch(msg); m != nil {
		if n, convErr := strconv.Atoi(m[1]); convErr == nil {
			line = n
			msg = msg[len(m[0]):]
		}
	}
	if isParserProblem(msg) {
		line++ // a 0-based mark; none printed is line 0
	}
	return line, msg
}

// isParserProblem reports whether msg is a problem yaml.v3's parser (not
// its scanner) reports. The line it prints with one is a 0-based mark's
// (the context's, else the problem's), and none is printed for the first
// line; a scanner error's line is 1-based (yaml.v3's parser.fail). A
// switch, not a map: no table is built when the hook starts.
func isParserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>",
		"did not find expected <document start>",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found undefined tag handle",
		"found duplicate %YAML directive",
		"found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// TrailingOffset returns the offset of the first byte after the end of
// the document's root node, which yaml.v3 refused as Trailing on the line
// that starts at offset lineStart. A root that is a flow collection or a
// quoted scalar (a JSON document) ends at its closing bracket or quote,
// found by scanning; the text after it, past blanks, line breaks and
// comments, is the trailing text. Any other root (a block collection
// followed by a line indented less) is followed by the first non-blank
// byte of the line. The caller checks the answer: it must lie on the line
// yaml.v3 named, and the bytes before it must be one document.
func TrailingOffset(data []byte, lineStart int) (int, bool) {
	at := -1
	if root := rootStart(data); root < len(data) && strings.IndexByte("[{\"'", data[root]) >= 0 {
		if end, ok := flowEnd(data, root); ok {
			at = skipBlank(data, end)
		}
	}
	if at < 0 || at >= len(data) {
		at = lineStart
		for at < len(data) && (data[at] == ' ' || data[at] == '\t') {
			at++
		}
	}
	if at < 0 || at >= len(data) {
		return 0, false
	}
	return at, true
}

// rootStart is the offset of the first byte of the document's content:
// past a byte order mark, blanks, line breaks, comment and directive lines
// and a `---` marker.
func rootStart(data []byte) int {
	i := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	for i < len(data) {
		switch c := data[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || (c == '%' && (i == 0 || data[i-1] == '\n' || data[i-1] == '\r')):
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
		case bytes.HasPrefix(data[i:], []byte("---")) && (i+3 == len(data) || strings.IndexByte(" \t\r\n", data[i+3]) >= 0) && (i == 0 || data[i-1] == '\n' || data[i-1] == '\r'):
			i += 3
		default:
			return i
		}
	}
	return i
}

// flowEnd returns the offset just past the flow collection or quoted
// scalar that starts at data[i], scanning as YAML's flow context does:
// brackets nest, quotes open a scalar only where a token starts, a `#`
// after a blank starts a comment. It reports false when the input ends
// first.
func flowEnd(data []byte, i int) (int, bool) {
	depth := 0
	tokenStart := true
	for i < len(data) {
		c := data[i]
		switch {
		case c == '"' && tokenStart:
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			if i >= len(data) {
				return 0, false
			}
			tokenStart = false
		case c == '\'' && tokenStart:
			for i++; i < len(data); i++ {
				if data[i] == '\'' {
					if i+1 < len(data) && data[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			if i >= len(data) {
				return 0, false
			}
			tokenStart = false
		case c == '[' || c == '{':
			depth++
			tokenStart = true
		case c == ']' || c == '}':
			depth--
			tokenStart = false
		case c == '#' && (i == 0 || strings.IndexByte(" \t\r\n", data[i-1]) >= 0):
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
			continue
		case strings.IndexByte(" \t\r\n,:", c) >= 0:
			tokenStart = true
		default:
			tokenStart = false
		}
		i++
		if depth <= 0 {
			return i, depth == 0
		}
	}
	return 0, false
}

// skipBlank returns the offset of the first byte at or after i that is
// not a blank, a line break or part of a comment.
func skipBlank(data []byte, i int) int {
	for i < len(data) {
		switch c := data[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' && (i == 0 || strings.IndexByte(" \t\r\n", data[i-1]) >= 0):
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
		default:
			return i
		}
	}
	return i
}
