package instruct

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file holds the text rules of instructions.md §10: whitespace
// collapse, backtick-safe code spans, the block-marker escape, and greedy
// wrapping that keeps code spans whole and never starts a line with a block
// marker.

// width is the column at which prose is wrapped, in code points.
const width = 96

// collapse joins the Unicode White_Space-separated fields of s with one
// space: every document string is printed this way (§10).
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// code returns s (collapsed) as a CommonMark code span. The fence is one
// backtick unless s holds backticks; then it is one longer than the longest
// run inside, and a content that starts or ends with a backtick is padded
// with a space on both sides (CommonMark strips one from each).
func code(s string) string {
	s = collapse(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// codeList names each item in its own code span, joined the way prose
// lists are: `a`, `a and b`, `a, b and c`.
func codeList(items []string) string {
	spans := make([]string, len(items))
	for i, it := range items {
		spans[i] = code(it)
	}
	return joinAnd(spans)
}

// joinAnd joins words as `a`, `a and b`, `a, b and c`.
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// isBlockMarker reports whether word, at the start of a line, would make
// Markdown (or the checker of §12.3) read the line as something other than
// paragraph text: a heading, a quote, an HTML block, a fence, a list item,
// a thematic break or setext underline, or a link reference definition.
func isBlockMarker(word string) bool {
	if word == "" {
		return false
	}
	for _, prefix := range []string{"#", ">", "<", "```", "~~~"} {
		if strings.HasPrefix(word, prefix) {
			return true
		}
	}
	switch {
	case word == "-" || word == "*" || word == "+":
		return true
	case strings.Trim(word, "-=*_") == "":
		return true
	case strings.HasPrefix(word, "[") && strings.Contains(word, "]:"):
		return true
	}
	return orderedMarker(word) > 0
}

// orderedMarker returns the length of the digit run of an ordered-list
// marker word (`1.`, `12)`), or 0 when word is not one.
func orderedMarker(word string) int {
	digits := len(word) - len(strings.TrimLeft(word, "0123456789"))
	if digits == 0 || digits > 9 || len(word) != digits+1 || (word[digits] != '.' && word[digits] != ')') {
		return 0
	}
	return digits
}

// escapeLead puts a backslash before the marker character of a paragraph
// whose first word is a block marker (§10); other text is returned as it is.
func escapeLead(text string) string {
	word, _, _ := strings.Cut(text, " ")
	if !isBlockMarker(word) {
		return text
	}
	if n := orderedMarker(word); n > 0 {
		return text[:n] + `\` + text[n:]
	}
	return `\` + text
}

// atoms splits collapsed text at the spaces that lie outside code spans,
// so that wrapping never breaks a code span.
func atoms(text string) []string {
	inSpan := spanMask(text)
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' && !inSpan[i] {
			if i > start {
				out = append(out, text[start:i])
			}
			start = i + 1
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// spanMask marks the bytes of text that lie inside a CommonMark code span
// (fences included), finding spans the way CommonMark and the checker do: a
// backtick run opens a span closed by the next run of the same length; a
// backslash outside a span escapes the next byte; an unmatched run is
// literal.
func spanMask(text string) []bool {
	mask := make([]bool, len(text))
	for i := 0; i < len(text); {
		switch text[i] {
		case '\\':
			i += 2
			continue
		case '`':
		default:
			i++
			continue
		}
		run := runLength(text, i)
		closeAt := closingRun(text, i+run, run)
		if closeAt < 0 {
			i += run
			continue
		}
		for k := i; k < closeAt+run; k++ {
			mask[k] = true
		}
		i = closeAt + run
	}
	return mask
}

// runLength returns the length of the backtick run starting at i.
func runLength(text string, i int) int {
	j := i
	for j < len(text) && text[j] == '`' {
		j++
	}
	return j - i
}

// closingRun returns the start of the first backtick run of exactly n at or
// after from, or -1.
func closingRun(text string, from, n int) int {
	for k := from; k < len(text); {
		if text[k] != '`' {
			k++
			continue
		}
		m := runLength(text, k)
		if m == n {
			return k
		}
		k += m
	}
	return -1
}

// wrap breaks a collapsed paragraph greedily into lines of at most limit
// code points, at spaces outside code spans. A word longer than the limit
// gets a line of its own, and a word that would begin a line as a block
// marker stays on the line before, however long that makes it. The first
// word of the paragraph is escaped (escapeLead) when it is a marker.
func wrap(text string, limit int) []string {
	words := atoms(escapeLead(collapse(text)))
	var lines []string
	var line strings.Builder
	lineLen := 0
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		switch {
		case lineLen == 0:
		case lineLen+1+n <= limit || isBlockMarker(w):
			line.WriteByte(' ')
			lineLen++
		default:
			lines = append(lines, line.String())
			line.Reset()
			lineLen = 0
		}
		line.WriteString(w)
		lineLen += n
	}
	if lineLen > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// TextProblems returns the breaches of the text rules of instructions.md
// §10 and of the layout of §4 in doc, one sentence each, none for a
// document aepflow wrote: UTF-8 without a BOM, LF only, exactly one final
// newline, no trailing whitespace, no tab, no two blank lines in a row, no
// paragraph line (outside bullets, headings, comments and fences) that
// starts with a block marker, and, for an instructions document, exactly
// the three level-2 headings. Tests hold every document to it.
func TextProblems(doc []byte) []string {
	var out []string
	text := string(doc)
	switch {
	case !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n"):
		out = append(out, "the document does not end with exactly one newline")
	case strings.Contains(text, "\r"):
		out = append(out, "the document holds a carriage return")
	case strings.Contains(text, "\t"):
		out = append(out, "the document holds a tab")
	case strings.Contains(text, "\n\n\n"):
		out = append(out, "the document holds two blank lines in a row")
	case strings.HasPrefix(text, "\ufeff"):
		out = append(out, "the document starts with a BOM")
	}
	if !utf8.ValidString(text) {
		out = append(out, "the document is not valid UTF-8")
	}
	var level2 []string
	fence := false
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if strings.TrimRight(line, " ") != line {
			out = append(out, fmt.Sprintf("line %d has trailing whitespace: %q", i+1, line))
		}
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if fence || line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "<!--") {
			if strings.HasPrefix(line, "## ") {
				level2 = append(level2, line)
			}
			continue
		}
		word, _, _ := strings.Cut(strings.TrimPrefix(line, "  "), " ")
		if isBlockMarker(word) {
			out = append(out, fmt.Sprintf("line %d starts with a block marker: %q", i+1, line))
		}
	}
	if strings.Contains(text, "\n## States\n") && strings.Join(level2, "|") != "## Reading this document|## States|## Principles" {
		out = append(out, fmt.Sprintf("level-2 headings = %q", level2))
	}
	return out
}
