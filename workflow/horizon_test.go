package workflow

import "testing"

func TestParseHorizon(t *testing.T) {
	for _, c := range []struct {
		in   string
		days uint32
		ok   bool
	}{
		{"7d", 7, true}, {"7 d", 7, true}, {" 7 D ", 7, true}, {"7", 7, true}, {"007d", 7, true},
		{"3650", 3650, true}, {"1d", 1, true},
		{"0d", 0, false}, {"3651d", 0, false}, {"-7d", 0, false}, {"+7", 0, false}, {"7w", 0, false},
		{"", 0, false}, {"d", 0, false}, {"1_0", 0, false}, {"99999999999", 0, false},
	} {
		days, ok := ParseHorizon(c.in)
		if days != c.days || ok != c.ok {
			t.Errorf("ParseHorizon(%q) = %d, %v; want %d, %v", c.in, days, ok, c.days, c.ok)
		}
	}
}
