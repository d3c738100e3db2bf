package decimal

import "testing"

func TestIs(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "10": true, "-3": true, "+3": true, "2.5": true, "2.": true, ".5": true,
		"1e3": true, "1E-3": true, "-.5e+2": true,
		"": false, "+": false, ".": false, "-.": false, "e3": false, "1e": false, "1e+": false,
		"0x10": false, "3_0": false, "inf": false, "nan": false, "1.2.3": false, " 1": false, "1 ": false,
		"１": false, // a digit beyond ASCII
	} {
		if got := Is(s); got != want {
			t.Errorf("Is(%q) = %v, want %v", s, got, want)
		}
	}
}
