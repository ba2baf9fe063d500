package ingest

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// ruleTimestampRegex is ingest.checked's timestamp regex, anchored as
// regexp_full_match anchors it (RE2's \d is ASCII, as Go's).
var ruleTimestampRegex = regexp.MustCompile(`^\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// timestampCases are strings on both sides of every part of the regex.
var timestampCases = []string{
	"2026-12-01T10:00:00Z", "2026-12-01t10:00:00z", "2026-12-01 10:00:00Z", "2026-12-01T23:59:59.123456789+05:30",
	"0000-01-01T00:00:00-00:00", "2026-02-30T19:59:59.1Z", "9999-99-99T20:00:00+23:59",
	"2026-12-01T24:00:00Z", "2026-12-01T10:60:00Z", "2026-12-01T10:00:60Z", "2026-12-01T10:00:00", "2026-12-01T10:00:00.Z",
	"2026-12-01T10:00:00+24:00", "2026-12-01T10:00:00+05:60", "2026-12-01T10:00:00+0530", "2026-12-01T10:00:00+05:3",
	"2026-12-01X10:00:00Z", "2026-12-0110:00:00Z", "26-12-01T10:00:00Z", "2026-12-01T10:00:00ZZ", "2026-12-01T10:00:00Z ",
	" 2026-12-01T10:00:00Z", "2026-12-01T1:00:00Z", "2026-1a-01T10:00:00Z", "2026-12-01T10:00:00.5", "", "Z",
	"2026-12-01T10:00:00\u0660Z", "２０２６-12-01T10:00:00Z", "2026-12-01T10:00:00.12a+01:00", "2026-12-01T30:00:00Z",
}

// TestRuleTimestampMatchesRegex checks ruleTimestamp against the regex in
// Go and in DuckDB (regexp_full_match, as ingest.checked calls it).
func TestRuleTimestampMatchesRegex(t *testing.T) {
	db := openDB(t)
	for _, c := range timestampCases {
		var duck bool
		if err := db.QueryRowContext(context.Background(), `SELECT regexp_full_match(?,
			'\d{4}-\d\d-\d\d[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)')`, c).Scan(&duck); err != nil {
			t.Fatal(err)
		}
		got, re := ruleTimestamp([]byte(c)), ruleTimestampRegex.MatchString(c)
		if got != re || got != duck {
			t.Errorf("%q: ruleTimestamp %v, Go regexp %v, DuckDB %v", c, got, re, duck)
		}
	}
}

// FuzzRuleTimestamp: ruleTimestamp never passes a string the regex
// refuses, and passes every string it takes.
func FuzzRuleTimestamp(f *testing.F) {
	for _, c := range timestampCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ruleTimestamp([]byte(s)), ruleTimestampRegex.MatchString(s); got != want {
			t.Errorf("%q: ruleTimestamp %v, regex %v", s, got, want)
		}
	})
}

// TestScanProvesTimestamps: the scan marks a typed line odd when one of
// the four top-level timestamps is not of the regex's form or escaped,
// and not for a null.
func TestScanProvesTimestamps(t *testing.T) {
	var ls lineScanner
	for _, c := range []struct {
		line string
		odd  bool
	}{
		{runLine, false},
		{toolLine, false},
		{replace(runLine, "ts", `"2026-12-01T10:00:00"`), true},
		{replace(runLine, "ts", `"2026-12-01T10:00:00\u005a"`), true}, // escaped: proven by the regex only
		{replace(runLine, "started_at", `"2026-12-01 10:00:00+01:00"`), false},
		{replace(runLine, "started_at", `"yesterday"`), true},
		{with(toolLine, `"enqueued_at":null`), false},
		{with(toolLine, `"enqueued_at":"2026-12-01T10:00:00.5"`), true},
		{replace(toolLine, "ended_at", `"2026-12-01T10:00:00.5z"`), false},
	} {
		v := ls.line([]byte(c.line))
		if v != lineTyped || ls.tsOdd != c.odd {
			t.Errorf("%s: verdict %v, odd %v; want typed, odd %v", c.line, v, ls.tsOdd, c.odd)
		}
	}
	if !strings.Contains(runLine, `"ts":`) {
		t.Fatal("fixture without ts")
	}
}
