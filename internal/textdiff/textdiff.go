// Package textdiff prints unified diffs of two texts, line by line, for the
// `--check` modes of `aepflow flow` and `aepflow render`.
//
// It uses github.com/sergi/go-diff for the line matching and builds the
// hunks itself: go-diff's own patch text is character-based and URL-encoded,
// which is no use to a person reading CI output.
package textdiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

// op is one line of an edit script.
type op struct {
	kind byte // ' ', '-' or '+'
	text string
}

// Unified returns a unified diff from a (named aName) to b (named bName),
// with Context lines of context, or "" when the texts are equal. A missing
// final newline is marked as diff(1) marks it.
func Unified(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	ops := lineOps(string(a), string(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hunks(ops) {
		writeHunk(&out, ops, h)
	}
	return out.String()
}

// lineOps diffs two texts line by line.
func lineOps(a, b string) []op {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var ops []op
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for _, line := range splitLines(d.Text) {
			ops = append(ops, op{kind, line})
		}
	}
	return ops
}

// splitLines splits text into lines, each keeping its "\n" (the last may
// lack one).
func splitLines(text string) []string {
	var lines []string
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, text)
			break
		}
		lines = append(lines, text[:i+1])
		text = text[i+1:]
	}
	return lines
}

// hunk is a range [start, end) of ops.
type hunk struct{ start, end int }

// hunks groups changed ops with their context, merging groups whose
// contexts touch.
func hunks(ops []op) []hunk {
	var hs []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		start := max(0, i-Context)
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		end := min(len(ops), j+Context)
		if n := len(hs); n > 0 && start <= hs[n-1].end {
			hs[n-1].end = end
		} else {
			hs = append(hs, hunk{start, end})
		}
		i = j - 1
	}
	return hs
}

// writeHunk prints one hunk with its "@@ -a,b +c,d @@" header.
func writeHunk(out *strings.Builder, ops []op, h hunk) {
	aLine, bLine := 1, 1
	for _, o := range ops[:h.start] {
		if o.kind != '+' {
			aLine++
		}
		if o.kind != '-' {
			bLine++
		}
	}
	aCount, bCount := 0, 0
	for _, o := range ops[h.start:h.end] {
		if o.kind != '+' {
			aCount++
		}
		if o.kind != '-' {
			bCount++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(aLine, aCount), rangeOf(bLine, bCount))
	for _, o := range ops[h.start:h.end] {
		out.WriteByte(o.kind)
		out.WriteString(o.text)
		if !strings.HasSuffix(o.text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rangeOf formats a hunk range as diff(1) does: "l,n", "l" when n is 1, and
// "l-1,0" for an empty range.
func rangeOf(line, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", line-1)
	case 1:
		return fmt.Sprintf("%d", line)
	}
	return fmt.Sprintf("%d,%d", line, count)
}
