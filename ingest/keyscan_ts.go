package ingest

// Timestamps judged in the scan: ingest.checked tests
// each top-level timestamp string against a regex (four regexp_full_match
// per event). The key/type scan holds each value's bytes anyway, so it
// tests them here with ruleTimestamp; a file whose typed lines all pass
// has its regexes skipped (ts_proven), and the casts still judge the
// calendar. ruleTimestamp must never pass a string the regex refuses
// (FuzzRuleTimestamp); refusing one it takes only costs the regexes.

// ruleTimestampFields are the top-level fields ingest.checked's regexes
// judge.
var ruleTimestampFields = []string{"ts", "enqueued_at", "started_at", "ended_at"}

// ruleTimestamp reports whether b, a JSON string's bytes without escapes,
// matches ingest.checked's timestamp regex whole:
// \d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)
func ruleTimestamp(b []byte) bool {
	if len(b) < 20 {
		return false
	}
	if !digits(b[0:4]) || b[4] != '-' || !digits(b[5:7]) || b[7] != '-' || !digits(b[8:10]) {
		return false
	}
	if c := b[10]; c != 'T' && c != 't' && c != ' ' {
		return false
	}
	if !clock(b[11:19]) {
		return false
	}
	i := 19
	if b[i] == '.' {
		j := i + 1
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i >= len(b) {
		return false
	}
	switch b[i] {
	case 'Z', 'z':
		return i+1 == len(b)
	case '+', '-':
		z := b[i+1:]
		return len(z) == 5 && hour(z[0], z[1]) && z[2] == ':' && sixty(z[3], z[4])
	}
	return false
}

// clock reports whether b is ([01]\d|2[0-3]):[0-5]\d:[0-5]\d.
func clock(b []byte) bool {
	return hour(b[0], b[1]) && b[2] == ':' && sixty(b[3], b[4]) && b[5] == ':' && sixty(b[6], b[7])
}

// hour reports whether ab is ([01]\d|2[0-3]).
func hour(a, b byte) bool {
	return ((a == '0' || a == '1') && isDigit(b)) || (a == '2' && b >= '0' && b <= '3')
}

// sixty reports whether ab is [0-5]\d.
func sixty(a, b byte) bool { return a >= '0' && a <= '5' && isDigit(b) }

func digits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}
