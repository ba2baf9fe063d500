package ingest

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestTimestampsNormalisedToUTC checks that the same instant written in
// different zones is stored as one UTC instant, with sub-second precision
// kept to the microsecond, on both load paths.
func TestTimestampsNormalisedToUTC(t *testing.T) {
	want := time.Date(2026, 11, 28, 2, 0, 1, 250_000_000, time.UTC)
	spellings := []string{
		"2026-11-28T02:00:01.250Z",
		"2026-11-28T10:00:01.250+08:00",
		"2026-11-27T20:30:01.250-05:30",
		"2026-11-28T02:00:01.25+00:00",
		"2026-11-28T02:00:01.250000-00:00",
		"2026-11-28t10:00:01.250+08:00", // RFC 3339 allows lower case
		"2026-11-28T02:00:01.250z",
		"2026-11-28 02:00:01.250Z", // and a space for T
		"2026-11-28T07:45:01.250+05:45",
	}
	var ls []string
	for i, s := range spellings {
		ls = append(ls, fmt.Sprintf(`{"type":"tool_call","run_id":"r1","ts":%q,"call_id":"c%d","action_id":"a1","tool":"search","started_at":%q,"ended_at":%q,"enqueued_at":%q,"status":"ok"}`,
			s, i, s, s, s))
	}
	for _, withBad := range []bool{false, true} {
		t.Run(fmt.Sprintf("fast=%v", !withBad), func(t *testing.T) {
			db := openDB(t)
			content := lines(ls...)
			if withBad {
				content += "{\n"
			}
			res := ingestContent(t, db, "tz.jsonl", content)
			if res.Accepted != int64(len(spellings)) || res.FastPath == withBad {
				t.Fatalf("result %+v, rejected %v", res, rejections(t, db, res.Path))
			}
			rows, err := db.Query("SELECT call_id, ts, enqueued_at, started_at, ended_at FROM events ORDER BY call_id")
			if err != nil {
				t.Fatal(err)
			}
			defer closeQuietly(rows)
			for rows.Next() {
				var id string
				var ts, enq, start, end time.Time
				if err := rows.Scan(&id, &ts, &enq, &start, &end); err != nil {
					t.Fatal(err)
				}
				for _, got := range []time.Time{ts, enq, start, end} {
					if !got.Equal(want) {
						t.Errorf("%s: stored %v, want %v", id, got, want)
					}
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			// One instant: the zone written is not kept, so SQL groups them.
			var distinct int
			if err := db.QueryRow("SELECT count(DISTINCT ts) FROM events").Scan(&distinct); err != nil || distinct != 1 {
				t.Errorf("distinct ts = %d (%v), want 1", distinct, err)
			}
		})
	}
}

// TestTimestampPrecision checks what is kept of fractional seconds.
func TestTimestampPrecision(t *testing.T) {
	cases := []struct {
		ts   string
		want time.Time
	}{
		{"2026-11-28T02:00:01Z", time.Date(2026, 11, 28, 2, 0, 1, 0, time.UTC)},
		{"2026-11-28T02:00:01.001Z", time.Date(2026, 11, 28, 2, 0, 1, 1_000_000, time.UTC)},
		{"2026-11-28T02:00:01.123456Z", time.Date(2026, 11, 28, 2, 0, 1, 123_456_000, time.UTC)},
		{"2026-11-28T02:00:01.1234567Z", time.Date(2026, 11, 28, 2, 0, 1, 123_456_000, time.UTC)}, // truncated
		{"2026-11-28T23:59:59.999+08:00", time.Date(2026, 11, 28, 15, 59, 59, 999_000_000, time.UTC)},
		{"2026-11-28T00:30:00-01:00", time.Date(2026, 11, 28, 1, 30, 0, 0, time.UTC)},
		{"2024-02-29T12:00:00Z", time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)},
		{"2000-02-29T12:00:00Z", time.Date(2000, 2, 29, 12, 0, 0, 0, time.UTC)}, // a leap year by the 400 rule
		{"2026-11-28T02:00:01.123456789012345678901234567890Z", time.Date(2026, 11, 28, 2, 0, 1, 123_456_000, time.UTC)},
		{"2026-11-28T02:00:01+23:59", time.Date(2026, 11, 27, 2, 1, 1, 0, time.UTC)},
		{"2026-11-28 02:00:01.5-00:00", time.Date(2026, 11, 28, 2, 0, 1, 500_000_000, time.UTC)},
	}
	db := openDB(t)
	var ls []string
	for i, c := range cases {
		ls = append(ls, fmt.Sprintf(`{"type":"terminal","run_id":"r%d","ts":%q,"terminal":"completed"}`, i, c.ts))
	}
	res := ingestContent(t, db, "p.jsonl", lines(ls...))
	if res.Accepted != int64(len(cases)) {
		t.Fatalf("result %+v, rejected %v", res, rejections(t, db, res.Path))
	}
	for i, c := range cases {
		var got time.Time
		if err := db.QueryRow("SELECT ts FROM events WHERE run_id = ?", fmt.Sprintf("r%d", i)).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if !got.Equal(c.want) {
			t.Errorf("%s stored as %v, want %v", c.ts, got.UTC(), c.want)
		}
	}
}

// TestInvalidTimestamps checks that a timestamp without a zone, or that is
// not RFC 3339, rejects its line naming the field.
func TestInvalidTimestamps(t *testing.T) {
	bad := []string{
		`"2026-11-28T02:00:01"`,            // no zone
		`"2026-11-28T02:00:01.250"`,        // no zone
		`"2026-11-28 02:00:01"`,            // no zone
		`"2026-11-28T02:00Z"`,              // no seconds
		`"2026-11-28"`,                     // date only
		`"02:00:01Z"`,                      // time only
		`"2026-11-28T02:00:01+08"`,         // offset without minutes
		`"2026-11-28T02:00:01+0800"`,       // offset without colon
		`"2026-11-28T02:00:01 +08:00"`,     // space before the offset
		`"2026-11-28T02:00:01 UTC"`,        // zone name
		`"2026-11-28T02:00:01Z[UTC]"`,      // zone suffix
		`"2026-11-28T24:00:00Z"`,           // hour 24
		`"2026-11-28T02:60:00Z"`,           // minute 60
		`"2026-11-28T02:00:01+24:00"`,      // offset hour 24
		`"2026-11-28T02:00:01+08:60"`,      // offset minute 60
		`"2026-02-29T02:00:01Z"`,           // not a leap year
		`"2026-13-01T02:00:01Z"`,           // month 13
		`"2026-00-10T02:00:01Z"`,           // month 00
		`"2026-11-00T02:00:01Z"`,           // day 00
		`"2026-04-31T02:00:01Z"`,           // April 31
		`"1900-02-29T02:00:01Z"`,           // not a leap year by the 100 rule
		`"2026-12-31T23:59:60Z"`,           // leap second
		`"2026-11-28T02:00:01.250ZZ"`,      // two zones
		`"2026-11-28T02:00:01,250Z"`,       // comma for the fraction
		`"2026-11-28T02:00:01.Z"`,          // empty fraction
		`"Sat, 28 Nov 2026 02:00:01 GMT"`,  // RFC 1123
		`"1795831201"`,                     // epoch seconds as a string
		`1795831201250`,                    // epoch milliseconds
		`""`,                               // empty
		`"infinity"`,                       // DuckDB special value
		`" 2026-11-28T02:00:01Z"`,          // leading space
		`{"at":"2026-11-28T02:00:01Z"}`,    // an object
		`["2026-11-28T02:00:01Z"]`,         // an array
		`true`,                             // a boolean
		`"２０２６-11-28T02:00:01Z"`,           // full-width digits
		`"2026-11-28T02:00:01.250Z\u0000"`, // trailing NUL escape
	}
	fields := []struct{ base, field string }{
		{runLine, "ts"},
		{stageLine, "started_at"},
		{toolLine, "ended_at"},
		{with(modelLine, `"enqueued_at":"2026-11-28T02:00:04Z"`), "enqueued_at"},
	}
	db := openDB(t)
	for _, f := range fields {
		var ls []string
		for _, b := range bad {
			ls = append(ls, replace(f.base, f.field, b))
		}
		ls = append(ls, f.base) // and one good line
		res := ingestContent(t, db, f.field+".jsonl", lines(ls...))
		if res.Accepted != 1 || res.Rejected != int64(len(bad)) {
			t.Errorf("%s: accepted %d, rejected %d, want 1, %d", f.field, res.Accepted, res.Rejected, len(bad))
		}
		got := rejections(t, db, res.Path)
		for i, b := range bad {
			want := rejection{int64(i + 1), "invalid timestamp " + f.field}
			if i >= len(got) || got[i] != want {
				t.Errorf("%s = %s: rejected %v, want %v", f.field, b, at(got, i), want)
			}
		}
	}
	// A missing or null ts is missing, not invalid.
	res := ingestContent(t, db, "null.jsonl", lines(replace(runLine, "ts", "null")))
	if got := rejections(t, db, res.Path); !slices.Equal(got, []rejection{{1, "missing field ts"}}) {
		t.Errorf("null ts rejected %v", got)
	}
	// An optional timestamp given as null is absent.
	res = ingestContent(t, db, "nullenq.jsonl", lines(with(replace(modelLine, "call_id", `"m-null"`), `"enqueued_at":null`)))
	var enq sql.NullTime
	if err := db.QueryRow("SELECT enqueued_at FROM events WHERE call_id = 'm-null'").Scan(&enq); err != nil || res.Accepted != 1 || enq.Valid {
		t.Errorf("null enqueued_at: %+v, stored %v (%v)", res, enq, err)
	}
}

func at(rs []rejection, i int) any {
	if i < len(rs) {
		return rs[i]
	}
	return "nothing"
}
