// Package textdiff prints the unified diff between two texts, the way
// `aepflow flow --check` and `aepflow render --check` report a stale file
// (projection.md §2, rendering.md §1).
//
// The line matching comes from github.com/sergi/go-diff; its own patch text
// is character-based and URL-encoded, so the hunks are built here from its
// line diffs, in the format of `diff -u` (three lines of context, GNU range
// rules, `\ No newline at end of file`). It is not a general diff library:
// no options, no word diffs, no patch application.
package textdiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// context is the number of unchanged lines shown around each change.
const context = 3

// line is one line of the edit script: op is ' ', '-' or '+'; text keeps
// its trailing newline, if any.
type line struct {
	op   byte
	text string
}

// Unified returns the unified diff turning a into b, with headers
// `--- aName` and `+++ bName`, or "" when a and b are equal.
func Unified(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	script := edits(string(a), string(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	for _, h := range hunks(script) {
		writeHunk(&out, script, h)
	}
	return out.String()
}

// edits returns the line-level edit script from a to b.
func edits(a, b string) []line {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var script []line
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		for _, l := range splitLines(d.Text) {
			script = append(script, line{op, l})
		}
	}
	return script
}

// splitLines splits s after each newline; a last line without one is kept.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// span is a hunk: the half-open range [start, end) of the edit script.
type span struct{ start, end int }

// hunks groups the changes of script with their context, merging groups
// whose contexts touch.
func hunks(script []line) []span {
	var out []span
	for i, l := range script {
		if l.op == ' ' {
			continue
		}
		start, end := max(0, i-context), min(len(script), i+1+context)
		if n := len(out); n > 0 && start <= out[n-1].end {
			out[n-1].end = end
			continue
		}
		out = append(out, span{start, end})
	}
	return out
}

// writeHunk writes one hunk with its `@@ -a,n +b,m @@` header.
func writeHunk(out *strings.Builder, script []line, h span) {
	aLine, bLine := 1, 1 // 1-based numbers of the first line of the hunk
	for _, l := range script[:h.start] {
		if l.op != '+' {
			aLine++
		}
		if l.op != '-' {
			bLine++
		}
	}
	aCount, bCount := 0, 0
	for _, l := range script[h.start:h.end] {
		if l.op != '+' {
			aCount++
		}
		if l.op != '-' {
			bCount++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rng(aLine, aCount), rng(bLine, bCount))
	for _, l := range script[h.start:h.end] {
		out.WriteByte(l.op)
		out.WriteString(l.text)
		if !strings.HasSuffix(l.text, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// rng formats a hunk range as diff -u does: `l` for one line, `l,n`
// otherwise, and for an empty range the line before it.
func rng(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}
