package trace

// ParseTimestamp converts a `YYYY-MM-DDTHH:MM:SS[.digits]Z` timestamp to
// milliseconds since the Unix epoch (proleptic Gregorian, UTC; the fraction
// truncated or right-padded to 3 digits). Any other spelling — an offset, a
// missing `Z`, a space for `T` — reports false (trace.md §1.8).
func ParseTimestamp(s string) (int64, bool) {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return 0, false
	}
	year, ok1 := digitsAt(s, 0, 4)
	month, ok2 := digitsAt(s, 5, 2)
	day, ok3 := digitsAt(s, 8, 2)
	hour, ok4 := digitsAt(s, 11, 2)
	minute, ok5 := digitsAt(s, 14, 2)
	second, ok6 := digitsAt(s, 17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 {
		return 0, false
	}
	frac := s[19 : len(s)-1]
	ms := int64(0)
	if frac != "" {
		if frac[0] != '.' || len(frac) == 1 {
			return 0, false
		}
		digits := frac[1:]
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return 0, false
			}
		}
		for i := 0; i < 3; i++ {
			ms *= 10
			if i < len(digits) {
				ms += int64(digits[i] - '0')
			}
		}
	}
	days := daysFromCivil(int64(year), int64(month), int64(day))
	secs := days*86400 + int64(hour)*3600 + int64(minute)*60 + int64(second)
	return secs*1000 + ms, true
}

func digitsAt(s string, at, n int) (int, bool) {
	v := 0
	for i := at; i < at+n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// daysFromCivil counts days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
