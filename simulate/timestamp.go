package simulate

// appendTime appends the RFC 3339 form of a Unix millisecond instant with
// millisecond precision, written in the zone offMin minutes east of UTC
// ("Z" when offMin is 0), e.g. 2026-11-28T10:00:01.250+08:00. It is a
// hand-rolled time.AppendFormat: the simulator writes several timestamps per
// event and this is its hottest function.
func appendTime(b []byte, ms int64, offMin int) []byte {
	local := ms + int64(offMin)*60_000
	days := floorDiv(local, 86_400_000)
	rem := local - days*86_400_000
	y, m, d := civilFromDays(days)
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, m, 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	b = append(b, 'T')
	b = appendDigits(b, int(rem/3_600_000), 2)
	b = append(b, ':')
	b = appendDigits(b, int(rem/60_000%60), 2)
	b = append(b, ':')
	b = appendDigits(b, int(rem/1000%60), 2)
	b = append(b, '.')
	b = appendDigits(b, int(rem%1000), 3)
	if offMin == 0 {
		return append(b, 'Z')
	}
	sign := byte('+')
	if offMin < 0 {
		sign, offMin = '-', -offMin
	}
	b = append(b, sign)
	b = appendDigits(b, offMin/60, 2)
	b = append(b, ':')
	return appendDigits(b, offMin%60, 2)
}

// appendDigits appends v (non-negative) zero-padded to width digits.
func appendDigits(b []byte, v, width int) []byte {
	var tmp [8]byte
	i := len(tmp)
	for ; width > 0 || v > 0; width-- {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[i:]...)
}

// floorDiv divides rounding toward negative infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// civilFromDays turns days since 1970-01-01 into a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func civilFromDays(z int64) (year, month, day int) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}
