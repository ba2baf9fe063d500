package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// Fifty keys sent at once, while every page down asks DuckDB for a page,
// all count: ten page downs then forty downs put the cursor on run 281 of
// 452, the page shown is the one around it, and the row under the cursor is
// run 281 as DuckDB orders them.
func TestNoKeyLost(t *testing.T) {
	db := sampleDB(t)
	keys := []string{"4", "wait"}
	for range 10 {
		keys = append(keys, "pgdown")
	}
	for range 40 {
		keys = append(keys, "j")
	}
	m, out := settle(t, db, keys...)
	// 100×30: 27 body lines, 3 above the rows, 24 rows a page.
	if m.runs.pos != 280 || m.runs.top != 257 || m.runs.offset != 257 {
		t.Fatalf("after 10 pgdown and 40 j: pos %d top %d offset %d\n%s", m.runs.pos, m.runs.top, m.runs.offset, out)
	}
	s, err := metrics.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	}()
	want, _, err := s.RunsPage(context.Background(), metrics.RunFilter{}, metrics.RunSort{Column: "run_id"}, 280, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.runs.selectedID(); got != want[0].RunID || !strings.Contains(out, "> "+want[0].RunID) {
		t.Fatalf("cursor on %q, want %q\n%s", got, want[0].RunID, out)
	}
	// Enter pressed right after a page down, before its page arrives,
	// opens the run the cursor landed on.
	m, _ = settle(t, db, "4", "wait", "pgdown", "enter")
	if m.tab != viewDetail || m.detail.d == nil || m.detail.d.RunID != m.runs.selectedID() || m.runs.pos != 24 {
		t.Fatalf("enter after pgdown: tab %d pos %d detail %+v", m.tab, m.runs.pos, m.detail.d)
	}
}

// The keys of less and k9s move every list: G and End to the last row, g
// and Home to the first, ctrl+d half a page.
func TestMovingKeys(t *testing.T) {
	db := sampleDB(t)
	for _, c := range []struct {
		keys []string
		pos  int
	}{
		{[]string{"4", "wait", "G"}, 451},
		{[]string{"4", "wait", "end"}, 451},
		{[]string{"4", "wait", "G", "g"}, 0},
		{[]string{"4", "wait", "end", "home"}, 0},
		{[]string{"4", "wait", "ctrl+d", "ctrl+d", "ctrl+u"}, 12},
	} {
		m, out := settle(t, db, c.keys...)
		if m.runs.pos != c.pos {
			t.Fatalf("%v: runs cursor %d, want %d\n%s", c.keys, m.runs.pos, c.pos, out)
		}
	}
	m, _ := settle(t, db, "6", "wait", "G")
	if len(m.cmp.rows) < 10 || m.cmp.cursor != len(m.cmp.rows)-1 {
		t.Fatalf("G in compare: cursor %d of %d rows", m.cmp.cursor, len(m.cmp.rows))
	}
	m, _ = settle(t, db, "6", "wait", "G", "home")
	if m.cmp.cursor != 0 {
		t.Fatalf("G home in compare: cursor %d", m.cmp.cursor)
	}
	m, _ = settle(t, db, "8", "wait", "end")
	if m.breakers.cursor != 39 {
		t.Fatalf("end in breakers: cursor %d of 40", m.breakers.cursor)
	}
	m, _ = settle(t, db, "3", "G")
	if m.errs.y == 0 || m.errs.row != 19 {
		t.Fatalf("G in errors: row %d, scrolled to %d", m.errs.row, m.errs.y)
	}
}

// esc walks back along the views that led here, not between two views.
func TestEscHistory(t *testing.T) {
	db := sampleDB(t)
	m, _ := settle(t, db, "4", "wait", "enter", "wait", "p", "wait", "esc")
	if m.tab != viewDetail {
		t.Fatalf("runs, detail, pair, esc: tab %d", m.tab)
	}
	m, _ = settle(t, db, "4", "wait", "enter", "wait", "p", "wait", "esc", "esc")
	if m.tab != viewRuns {
		t.Fatalf("runs, detail, pair, esc, esc: tab %d", m.tab)
	}
	m, _ = settle(t, db, "2", "3", "4", "esc", "esc", "esc")
	if m.tab != viewOverview {
		t.Fatalf("2 3 4 esc esc esc: tab %d", m.tab)
	}
	// Quick esc presses leave the filter, clear it, then go back; the keys after
	// them are keys, not filter text.
	// (the second esc clears the filter, the third goes back).
	m, _ = settle(t, db, "2", "4", "/", "x", "esc", "esc", "esc", "j")
	if m.tab != viewLatency || m.runs.input.focused() || m.runs.filter.Text != "" {
		t.Fatalf("/ x esc esc j: tab %d focused %v filter %q", m.tab, m.runs.input.focused(), m.runs.filter.Text)
	}
}

// s sorts only by the columns on screen: at 80 columns agent and claimed
// are not shown, so the third s after run_id is verdict.
func TestSortVisibleColumnsOnly(t *testing.T) {
	db := sampleDB(t)
	m, _ := settleAt(t, db, 80, 24, press("4"), press("s"), press("s"), press("s"))
	if m.runs.sort.Column != "verdict" {
		t.Fatalf("s s s at 80 columns sorts by %q", m.runs.sort.Column)
	}
	m, _ = settleAt(t, db, 160, 45, press("4"), press("s"), press("s"), press("s"))
	if m.runs.sort.Column != "agent" {
		t.Fatalf("s s s at 160 columns sorts by %q", m.runs.sort.Column)
	}
}

// / searches the rows of a list, n and N jump between the matches.
func TestListSearch(t *testing.T) {
	db := sampleDB(t)
	keys := append(append([]string{"6", "wait", "/"}, typed("seal")...), "enter")
	m, out := settle(t, db, keys...)
	r, ok := m.cmp.selected()
	if !ok || !strings.Contains(r.Metric, "seal") {
		t.Fatalf("/seal in compare: row %+v\n%s", r, out)
	}
	first := m.cmp.cursor
	m, _ = settle(t, db, append(keys, "n")...)
	if r, _ := m.cmp.selected(); m.cmp.cursor == first && countMatches(m, "seal") > 1 || !strings.Contains(r.Metric+r.Scenario, "seal") {
		t.Fatalf("n after /seal: cursor %d row %s", m.cmp.cursor, r.Metric)
	}
	m, _ = settle(t, db, append(keys, "n", "N")...)
	if m.cmp.cursor != first {
		t.Fatalf("n N after /seal: cursor %d, want %d", m.cmp.cursor, first)
	}
	// In a scrolled body the search scrolls to the first line holding it
	// (here near the end: as far as the viewport goes).
	m, out = settle(t, db, append(append([]string{"3", "/"}, typed("evidence grade")...), "enter")...)
	if m.errs.y != 6 || !strings.Contains(out, "evidence grade by path") || !strings.Contains(out, "/evidence grade  (n/N)") {
		t.Fatalf("/evidence grade in errors: y %d\n%s", m.errs.y, out)
	}
}

func countMatches(m Model, q string) int {
	n := 0
	for i := range m.cmp.rows {
		if strings.Contains(strings.ToLower(m.cmp.rowText(i)), q) {
			n++
		}
	}
	return n
}

var _ = tea.KeyPressMsg{}
