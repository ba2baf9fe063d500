package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

func wheel(b tea.MouseButton) tea.MouseWheelMsg { return tea.MouseWheelMsg{Button: b} }

func TestRunsQuickFilters(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "4", "c")
	sc := m.sh.ov.filters.Scenarios
	if len(sc) < 2 || m.runs.filter.Scenario != sc[0] || !strings.Contains(out, "scenario "+sc[0]) {
		t.Fatalf("scenario filter %q of %v:\n%s", m.runs.filter.Scenario, sc, out)
	}
	for _, r := range m.runs.rows {
		if r.Scenario != sc[0] {
			t.Fatalf("run %s of scenario %s under filter %s", r.RunID, r.Scenario, sc[0])
		}
	}
	m, _ = settle(t, db, "4", "c", "c")
	if m.runs.filter.Scenario != sc[1] {
		t.Fatalf("second c: %q, want %q", m.runs.filter.Scenario, sc[1])
	}
	m, out = settle(t, db, "4", "x")
	ec := m.sh.ov.filters.ErrorClasses
	if len(ec) == 0 || m.runs.filter.ErrorClass != ec[0] || m.runs.total == 0 || m.runs.total >= 452 {
		t.Fatalf("error class filter %q of %v, %d runs:\n%s", m.runs.filter.ErrorClass, ec, m.runs.total, out)
	}
	m, out = settle(t, db, "4", "v", "v")
	if m.runs.filter.GateFalse != "evidence" || m.runs.total == 0 {
		t.Fatalf("gate filter %q, %d runs:\n%s", m.runs.filter.GateFalse, m.runs.total, out)
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
	for _, r := range m.runs.rows {
		d, err := s.RunDetail(context.Background(), r.RunID)
		if err != nil {
			t.Fatal(err)
		}
		if d.EvidenceSatisfied == nil || *d.EvidenceSatisfied {
			t.Fatalf("run %s listed under evidence false: %v", r.RunID, d.EvidenceSatisfied)
		}
	}
	// The filters combine, and esc clears them all at once.
	m, _ = settle(t, db, "4", "v", "v", "m")
	combined := m.runs.total
	if combined == 0 || combined > 65 {
		t.Fatalf("evidence false and masked: %d runs", combined)
	}
	m, out = settle(t, db, "4", "c", "x", "v", "m", "esc")
	if m.runs.filter != (metrics.RunFilter{}) || !strings.Contains(out, "of 452") {
		t.Fatalf("esc did not clear: %+v\n%s", m.runs.filter, out)
	}
}

func TestMouseWheel(t *testing.T) {
	db := sampleDB(t)
	m, _ := settleMsgs(t, db, press("4"), wheel(tea.MouseWheelDown), wheel(tea.MouseWheelDown), wheel(tea.MouseWheelUp))
	if m.tab != viewRuns || m.runs.pos != 1 {
		t.Fatalf("runs cursor after down, down, up: %d", m.runs.pos)
	}
	// The latency view's data is its own, asked for on the first visit:
	// scroll once it is there.
	m, out := settleMsgs(t, db, press("2"), waitMsg{}, wheel(tea.MouseWheelDown), wheel(tea.MouseWheelDown))
	if m.latency.y != 2*wheelStep || strings.Contains(out, "queue ░ then execution") {
		t.Fatalf("latency scroll %d:\n%s", m.latency.y, out)
	}
	m, _ = settleMsgs(t, db, press("2"), waitMsg{}, wheel(tea.MouseWheelDown), wheel(tea.MouseWheelUp), wheel(tea.MouseWheelUp))
	if m.latency.y != 0 {
		t.Fatalf("latency scroll after down, up, up: %d", m.latency.y)
	}
	m, _ = settleMsgs(t, db, press("6"), wheel(tea.MouseWheelDown), wheel(tea.MouseWheelDown), wheel(tea.MouseWheelUp))
	if m.cmp.cursor != 1 {
		t.Fatalf("compare cursor after down, down, up: %d", m.cmp.cursor)
	}
	if v := m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v", v.MouseMode)
	}
}

func TestCompareLatencySchema(t *testing.T) {
	db := sampleDB(t)
	m, out := settle(t, db, "6")
	if m.cmp.res == nil || m.cmp.res.Failed == 0 || !strings.Contains(out, "FAIL") {
		t.Fatalf("compare:\n%s", out)
	}
	m, _ = settle(t, db, "2") // the histograms are the latency view's own call
	body := m.latency.View()
	if len(m.latency.hists) == 0 || !strings.Contains(body, "wall-time distribution") || !strings.Contains(body, "tool  python        │") {
		t.Fatalf("latency distribution:\n%s", body)
	}
	if got := sparkline([]int64{0, 1, 8, 4}); got != " ▁█▄" {
		t.Fatalf("sparkline %q", got)
	}
	_, out = settle(t, db, "7")
	if !strings.Contains(out, "events file_id") || !strings.Contains(out, "rejected_lines") {
		t.Fatalf("schema list:\n%s", out)
	}
}
