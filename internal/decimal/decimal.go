// Package decimal recognises the documents' decimal numbers, the one
// grammar the predicate parser (a compact comparison's operand) and the
// YAML reader (a plain scalar's number) both read by (documents.md §5.3).
package decimal

// Is reports whether s is a decimal number of the documents' grammar,
// [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)? over ASCII digits: no hexadecimal,
// no underscores, no `inf` or `nan`.
func Is(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intDigits := digits(s, i)
	i += intDigits
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i++
		fracDigits = digits(s, i)
		i += fracDigits
	}
	if intDigits == 0 && fracDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := digits(s, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return i == len(s)
}

// digits counts the ASCII digits of s starting at i.
func digits(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}
