package trace

import (
	"strings"
	"unicode/utf8"
)

// glob is a compiled `{glob: p}` pattern (trace.md §3.5): `*` is any run of
// characters (the empty run included), `?` one character, every other
// character literal; the match is anchored at both ends and counts Unicode
// scalars.
//
// Matching takes time linear in the text: the pattern is cut at its stars
// into segments, and (the classic result for star-only wildcards) the text
// matches when the first segment matches at its start, the last at its end
// and every segment between them at the leftmost place after the one before.
// A segment without `?` is found with strings.Index; one with `?` by a
// bit-parallel scan (shift-and) that advances all the segment's partial
// matches with a few word operations per text character. No backtracking,
// so `*` + 10,000 characters against a megabyte costs one pass, not 10^10
// comparisons.
type glob struct {
	// first and last are the segments before the first star and after the
	// last one; star reports whether the pattern has a star at all (without
	// one, first is the whole pattern and last is unused).
	first, last segment
	star        bool
	// middle holds the segments between stars, in order; empty ones (`**`)
	// are dropped.
	middle []segment
}

// anyChar stands for `?` in a segment.
const anyChar rune = -1

// segment is a run of pattern characters between stars.
type segment struct {
	runes []rune // anyChar for `?`
	// literal is the segment's text when it holds no `?`, for strings.Index.
	literal    string
	hasAny     bool
	masks      map[rune][]uint64 // shift-and masks of the literal characters
	anyMask    []uint64          // positions of `?`: every character matches there
	words      int               // len(masks[…]): ⌈len(runes)/64⌉
	acceptWord int               // the word and bit of the segment's last position
	acceptBit  uint64
}

// compileGlob compiles a glob pattern.
func compileGlob(pattern string) *glob {
	parts := strings.Split(pattern, "*")
	g := &glob{star: len(parts) > 1, first: newSegment(parts[0])}
	if !g.star {
		return g
	}
	g.last = newSegment(parts[len(parts)-1])
	for _, p := range parts[1 : len(parts)-1] {
		if p != "" {
			g.middle = append(g.middle, newSegment(p))
		}
	}
	return g
}

func newSegment(text string) segment {
	s := segment{}
	for _, r := range text {
		if r == '?' {
			s.runes = append(s.runes, anyChar)
			s.hasAny = true
		} else {
			s.runes = append(s.runes, r)
		}
	}
	if !s.hasAny {
		s.literal = text
		return s
	}
	n := len(s.runes)
	s.words = (n + 63) / 64
	s.anyMask = make([]uint64, s.words)
	s.masks = map[rune][]uint64{}
	for i, r := range s.runes {
		if r == anyChar {
			s.anyMask[i/64] |= 1 << (i % 64)
		}
	}
	for i, r := range s.runes {
		if r == anyChar {
			continue
		}
		m := s.masks[r]
		if m == nil {
			m = append([]uint64(nil), s.anyMask...)
			s.masks[r] = m
		}
		m[i/64] |= 1 << (i % 64)
	}
	s.acceptWord, s.acceptBit = (n-1)/64, 1<<((n-1)%64)
	return s
}

// match reports whether text matches the whole glob.
func (g *glob) match(text string) bool {
	ok, _ := g.matchCounting(text)
	return ok
}

// matchCounting is match that also returns the number of steps it took
// (characters compared or scanned, times the words of a shift-and scan), so
// a test can hold the work to a linear bound without timing it.
func (g *glob) matchCounting(text string) (bool, int) {
	steps := 0
	if !g.star {
		end, ok := g.first.prefix(text, &steps)
		return ok && end == len(text), steps
	}
	start, ok := g.first.prefix(text, &steps)
	if !ok {
		return false, steps
	}
	tailStart, ok := g.last.suffix(text[start:], &steps)
	if !ok {
		return false, steps
	}
	rest := text[start : start+tailStart]
	for i := range g.middle {
		end, ok := g.middle[i].find(rest, &steps)
		if !ok {
			return false, steps
		}
		rest = rest[end:]
	}
	return true, steps
}

// prefix matches the segment at the start of text and returns the byte
// offset just after it.
func (s *segment) prefix(text string, steps *int) (int, bool) {
	at := 0
	for _, want := range s.runes {
		*steps++
		if at >= len(text) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(text[at:])
		if want != anyChar && want != r {
			return 0, false
		}
		at += size
	}
	return at, true
}

// suffix matches the segment at the end of text and returns the byte offset
// where it starts.
func (s *segment) suffix(text string, steps *int) (int, bool) {
	at := len(text)
	for i := len(s.runes) - 1; i >= 0; i-- {
		*steps++
		if at == 0 {
			return 0, false
		}
		r, size := utf8.DecodeLastRuneInString(text[:at])
		if want := s.runes[i]; want != anyChar && want != r {
			return 0, false
		}
		at -= size
	}
	return at, true
}

// find returns the byte offset just after the leftmost match of the segment
// in text.
func (s *segment) find(text string, steps *int) (int, bool) {
	if !s.hasAny {
		// strings.Index is linear in what it scans (it falls back to
		// Rabin–Karp where a naive scan would not be), and it scans up to
		// the match.
		i := strings.Index(text, s.literal)
		if i < 0 {
			*steps += len(text) + len(s.literal)
			return 0, false
		}
		*steps += i + 2*len(s.literal)
		return i + len(s.literal), true
	}
	// state bit i is set when the text read so far ends with the segment's
	// first i+1 characters.
	state := make([]uint64, s.words)
	for at := 0; at < len(text); {
		r, size := utf8.DecodeRuneInString(text[at:])
		at += size
		*steps += s.words
		mask, ok := s.masks[r]
		if !ok {
			mask = s.anyMask
		}
		carry := uint64(1) // a match may start at every character
		for w := range state {
			next := state[w] >> 63
			state[w] = (state[w]<<1 | carry) & mask[w]
			carry = next
		}
		if state[s.acceptWord]&s.acceptBit != 0 {
			return at, true
		}
	}
	return 0, false
}
