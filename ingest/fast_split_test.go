package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSplitMatchesPrecise puts a few lines the typed read cannot take into
// a generated file of 2,000 lines and checks that the split route stores
// exactly what the line-precise path stores for the whole file: the same
// events, the same rejected lines with their numbers, reasons and texts,
// the same accounting; and that it is taken only when the typed lines are
// all valid new events.
func TestSplitMatchesPrecise(t *testing.T) {
	base := strings.Split(strings.TrimSuffix(generated(t, 2000, 11), "\n"), "\n")
	at := func(edits map[int]string) string {
		ls := slices.Clone(base)
		for i, l := range edits {
			ls[i] = l
		}
		return lines(ls...)
	}
	cut := func(i int) string { return base[i][:len(base[i])/2] }
	cases := []struct {
		name    string
		content string
		split   bool // whether the split route stores it
	}{
		{"malformed lines", at(map[int]string{0: cut(0), 700: cut(700), 1999: cut(1999)}), true},
		{"wrong types", at(map[int]string{3: setField(base[3], "suite", `2026`), 40: setField(base[40], "seq", `"x"`),
			41: setField(base[41], "evidence_ids", `["e",2]`), 42: "[1]"}), true},
		{"lines for the JSON way, accepted", at(map[int]string{5: with(base[5], `"host":"h1"`), 6: setField(base[6], "seq", `2.0`),
			7: setField(base[7], "deadline_ms", `"+5"`), 8: cut(8)}), true},
		{"blank lines and CRLF", strings.ReplaceAll(at(map[int]string{10: cut(10), 11: "", 12: " \t"}), "\n", "\r\n"), true},
		{"no final newline", strings.TrimSuffix(at(map[int]string{1999: cut(1999)}), "\n"), true},
		{"a malformed last line without newline", strings.TrimSuffix(at(map[int]string{100: cut(100)}), "\n") + "\n" + `{"type"`, true},
		{"a typed line the rules reject", at(map[int]string{9: cut(9), 20: setField(base[20], "type", `"heartbeat"`)}), false},
		{"a duplicate of a typed line", at(map[int]string{9: cut(9), 30: with(base[5], `"host":"h1"`)}), false},
		{"a duplicate of a later typed line", at(map[int]string{4: with(base[1500], `"host":"h1"`)}), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := openDB(t)
			want := ingestContentWith(t, ref, "f.jsonl", tc.content, Routes{NoSplit: true})
			db := openDB(t)
			got := ingestContent(t, db, "f.jsonl", tc.content)
			if got.typedRead != tc.split || got.FastPath {
				t.Errorf("typed read %v, fast path %v; want %v, false", got.typedRead, got.FastPath, tc.split)
			}
			if want.typedRead || want.Rejected == 0 && !strings.Contains(tc.name, "accepted") {
				t.Errorf("reference: %+v", want)
			}
			g, w := [4]int64{got.Lines, got.Accepted, got.Rejected, got.Blank}, [4]int64{want.Lines, want.Accepted, want.Rejected, want.Blank}
			if g != w {
				t.Errorf("lines/accepted/rejected/blank %v, line by line %v", g, w)
			}
			q := "SELECT line_no || ' ' || reason || ' ' || text FROM rejected_lines ORDER BY line_no"
			if a, b := queryStrings(t, db, q), queryStrings(t, ref, q); !slices.Equal(a, b) {
				t.Errorf("rejected\n%s\nline by line\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			sameEvents(t, db, ref, "split", "line by line")
			if x := queryStrings(t, db, "SELECT count(*) FROM events WHERE extra IS NOT NULL"); !slices.Equal(x,
				queryStrings(t, ref, "SELECT count(*) FROM events WHERE extra IS NOT NULL")) {
				t.Errorf("extra kept for %v events", x)
			}
		})
	}
}

// TestSplitShare checks which files the split route is offered: a few
// numbered lines, nothing suspect.
func TestSplitShare(t *testing.T) {
	for _, tc := range []struct {
		sc   scan
		want bool
	}{
		{scan{lines: 100, malformed: 1, others: []int64{7}}, true},
		{scan{lines: 100, jsonLines: 10, others: make([]int64, 10)}, true},
		{scan{lines: 100, jsonLines: 11, others: make([]int64, 11)}, false},
		{scan{lines: 120, blank: 20, jsonLines: 11, others: make([]int64, 11)}, false},
		{scan{lines: 100}, false},
		{scan{lines: 100, malformed: 1, others: []int64{7}, suspect: true}, false},
		{scan{lines: 1 << 30, malformed: maxOtherLines + 1, others: make([]int64, maxOtherLines)}, false},
	} {
		if got := tc.sc.splittable(); got != tc.want {
			t.Errorf("%s: splittable %v, want %v", fmt.Sprintf("%d lines, %d blank, %d+%d others", tc.sc.lines, tc.sc.blank,
				tc.sc.jsonLines, tc.sc.malformed), got, tc.want)
		}
	}
}
