package trace

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Holds reports whether v satisfies the bound: `exactly` alone decides when
// present, else each present side.
func (b *CountBound) Holds(v uint64) bool {
	if b.Exactly != nil {
		return v == *b.Exactly
	}
	return (b.AtLeast == nil || v >= *b.AtLeast) && (b.AtMost == nil || v <= *b.AtMost)
}

// String displays the bound: `exactly N`, `between A and B`, `at least A` or
// `at most B`.
func (b *CountBound) String() string {
	u := func(p *uint64) string { return strconv.FormatUint(*p, 10) }
	switch {
	case b.Exactly != nil:
		return "exactly " + u(b.Exactly)
	case b.AtLeast != nil && b.AtMost != nil:
		return fmt.Sprintf("between %s and %s", u(b.AtLeast), u(b.AtMost))
	case b.AtLeast != nil:
		return "at least " + u(b.AtLeast)
	case b.AtMost != nil:
		return "at most " + u(b.AtMost)
	}
	return "unbounded"
}

// Holds reports whether v lies within each present side.
func (b *RangeBound) Holds(v float64) bool {
	return (b.AtLeast == nil || v >= *b.AtLeast) && (b.AtMost == nil || v <= *b.AtMost)
}

// String displays the bound with shortest floats (`1.0` → `1`).
func (b *RangeBound) String() string {
	switch {
	case b.AtLeast != nil && b.AtMost != nil:
		return fmt.Sprintf("between %s and %s", shortFloat(*b.AtLeast), shortFloat(*b.AtMost))
	case b.AtLeast != nil:
		return "at least " + shortFloat(*b.AtLeast)
	case b.AtMost != nil:
		return "at most " + shortFloat(*b.AtMost)
	}
	return "unbounded"
}

func (b *CountBound) canonical() map[string]any {
	opt := func(p *uint64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return map[string]any{"at_least": opt(b.AtLeast), "at_most": opt(b.AtMost), "exactly": opt(b.Exactly)}
}

func (b *RangeBound) canonical() map[string]any {
	opt := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return map[string]any{"at_least": opt(b.AtLeast), "at_most": opt(b.AtMost)}
}

// atLeastOne is the default count of skill.invoked, skill.completed and tool.called.
func atLeastOne() *CountBound {
	one := uint64(1)
	return &CountBound{AtLeast: &one}
}

// total is a sum of numbers a transcript wrote (token counts, result
// sizes, step times): its value, or, when the true sum does not fit a
// uint64, over set and the value held at the largest uint64. Summed with
// +, a transcript's 2^64 - 1 input tokens and 2 output tokens made a total
// of 1, within an `at_most` the true total exceeds.
type total struct {
	v    uint64
	over bool
}

// plus adds x to the total.
func (t *total) plus(x uint64) {
	s, carry := bits.Add64(t.v, x, 0)
	if carry != 0 || t.over {
		t.v, t.over = math.MaxUint64, true
		return
	}
	t.v = s
}

// String shows the total: the number, or `more than` the largest uint64.
func (t total) String() string {
	if t.over {
		return "more than " + strconv.FormatUint(math.MaxUint64, 10)
	}
	return strconv.FormatUint(t.v, 10)
}

// addCapped is a + b, or the largest uint64 when the sum does not fit: the
// census's byte counts, which an event stream's `bytes` sets as it likes,
// never wrap round to a small number.
func addCapped(a, b uint64) uint64 {
	t := total{v: a}
	t.plus(b)
	return t.v
}
