package ui

import (
	"context"
	"errors"
	"testing"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// loadedModel is a model whose first load has arrived with one suite pair
// (no database: the requests the views start are not run).
func loadedModel(t *testing.T) Model {
	t.Helper()
	m := New(context.Background(), Options{})
	mm, _ := m.Update(loadedMsg{seq: 1, ov: twoSuites()})
	return mm.(Model)
}

func twoSuites() *overview {
	return &overview{report: &metrics.Report{Suites: []metrics.Suite{{Suite: "baseline", Runs: 1}, {Suite: "candidate", Runs: 2}}}}
}

// send hands msg to the model and returns the model after it.
func send(m Model, msg any) Model {
	mm, _ := m.Update(msg)
	return mm.(Model)
}

// Every view keeps the answer to its latest request only: a reply to an
// older one, arriving late, never overwrites a newer answer. Each case
// asks twice, answers the second request, then the first.
func TestLateRepliesDropped(t *testing.T) {
	t.Run("load", func(t *testing.T) {
		m := loadedModel(t)
		m.loadSeq = 3
		newer := twoSuites()
		newer.report.Suites[1].Runs = 9
		m = send(m, loadedMsg{seq: 3, ov: newer})
		m = send(m, loadedMsg{seq: 2, ov: twoSuites()})
		if m.sh.ov != newer || m.loadShown != 3 {
			t.Fatalf("the load of seq 2 replaced seq 3: shown %d", m.loadShown)
		}
	})
	t.Run("export", func(t *testing.T) {
		m := loadedModel(t)
		m.tab = viewCompare
		for range 2 {
			m = send(m, press("e"))
			m = send(m, press("m"))
			m = send(m, press("enter"))
		}
		m = send(m, exportedMsg{seq: 2, path: "/second.md", rows: 2})
		m = send(m, exportedMsg{seq: 1, path: "/first.md", rows: 1})
		if m.sh.status != "exported 2 rows to /second.md" {
			t.Fatalf("status %q", m.sh.status)
		}
	})
	t.Run("latency", func(t *testing.T) {
		m := loadedModel(t)
		m = send(m, press("2")) // the first visit asks for the histograms
		first := m.latency.seq
		if first == 0 || !m.latency.asked || m.latency.answered {
			t.Fatalf("the first visit did not ask: seq %d asked %v answered %v", first, m.latency.asked, m.latency.answered)
		}
		// The percentiles are the report's: a refresh brings new ones with
		// the load, and asks again for the histograms (on screen).
		newer := twoSuites()
		newer.report.Suites[1].Latency = []metrics.LatencyRow{{Scope: "tool", Name: "new"}}
		m = send(m, loadedMsg{seq: 2, ov: newer})
		if m.latency.seq <= first || !m.latency.asked || m.latency.answered {
			t.Fatalf("a refresh on screen did not ask again: seq %d asked %v answered %v", m.latency.seq, m.latency.asked, m.latency.answered)
		}
		hists := []metrics.LatencyHistogram{{Suite: "candidate", Scope: "tool", Name: "new"}}
		m = send(m, histogramsMsg{seq: m.latency.seq, hists: hists})
		m = send(m, histogramsMsg{seq: first, hists: []metrics.LatencyHistogram{{Name: "old"}}})
		if len(m.latency.hists) != 1 || m.latency.hists[0].Name != "new" || !m.latency.answered {
			t.Fatalf("latency kept %+v, answered %v", m.latency.hists, m.latency.answered)
		}
		if _, c := m.sh.pair(); len(rowsOf(c)) != 1 || rowsOf(c)[0].Name != "new" {
			t.Fatalf("latency shows percentiles %+v", rowsOf(c))
		}
		// An answer to the request before the refresh, arriving after it
		// but before the new answer, is dropped too.
		before := m.latency.seq
		m = send(m, loadedMsg{seq: 3, ov: twoSuites()})
		m = send(m, histogramsMsg{seq: before, hists: []metrics.LatencyHistogram{{Name: "old"}}})
		if m.latency.hists != nil || m.latency.answered {
			t.Fatalf("after a refresh, an old answer was kept: %+v", m.latency.hists)
		}
	})
	t.Run("runs", func(t *testing.T) {
		m := loadedModel(t)
		m = send(m, press("4"))
		m = send(m, press("m")) // a second request, for the masked runs
		seq := m.runs.seq
		m = send(m, runsMsg{seq: seq, rows: []metrics.RunRow{{RunID: "masked"}}, total: 1})
		m = send(m, runsMsg{seq: seq - 1, rows: []metrics.RunRow{{RunID: "all-1"}, {RunID: "all-2"}}, total: 2})
		if m.runs.total != 1 || m.runs.selectedID() != "masked" {
			t.Fatalf("runs kept %+v", m.runs.rows)
		}
		// A refresh reloads the page; the cursor stays on its run when the
		// page still holds it, wherever it now is.
		m = send(m, runsMsg{seq: m.runs.seq, rows: []metrics.RunRow{{RunID: "a"}, {RunID: "b"}}, total: 2})
		m = send(m, press("j"))
		m = send(m, loadedMsg{seq: 2, ov: twoSuites()})
		m = send(m, runsMsg{seq: m.runs.seq, rows: []metrics.RunRow{{RunID: "new"}, {RunID: "a"}, {RunID: "b"}}, total: 3})
		if m.runs.selectedID() != "b" {
			t.Fatalf("cursor on %q after the refresh, want b", m.runs.selectedID())
		}
	})
	t.Run("detail", func(t *testing.T) {
		m := loadedModel(t)
		m.detail, _ = m.detail.Update(openRunMsg{id: "r1"})
		m.detail, _ = m.detail.Update(openRunMsg{id: "r2"})
		m = send(m, detailMsg{seq: m.detail.seq, id: "r2", d: &metrics.RunDetail{RunID: "r2"}})
		m = send(m, detailMsg{seq: m.detail.seq - 1, id: "r1", d: &metrics.RunDetail{RunID: "r1"}})
		if m.detail.d == nil || m.detail.d.RunID != "r2" || m.detail.loading != "" {
			t.Fatalf("detail shows %+v loading %q", m.detail.d, m.detail.loading)
		}
		// The same run asked again (a refresh): the older answer is stale too.
		m.detail, _ = m.detail.Update(factsMsg{})
		m = send(m, detailMsg{seq: m.detail.seq - 1, id: "r2", d: &metrics.RunDetail{RunID: "r2", Calls: 7}})
		if m.detail.d.Calls == 7 || m.detail.loading != "r2" {
			t.Fatalf("detail took the answer from before the refresh")
		}
	})
	t.Run("compare", func(t *testing.T) {
		m := loadedModel(t)
		first := m.cmp.seq
		m = send(m, loadedMsg{seq: 2, ov: twoSuites()}) // a refresh asks again
		if m.cmp.seq != first+1 {
			t.Fatalf("a refresh did not ask for a new comparison: seq %d", m.cmp.seq)
		}
		newer := &compare.Result{Failed: 2}
		m = send(m, compareMsg{seq: first + 1, base: "baseline", cand: "candidate", res: newer})
		m = send(m, compareMsg{seq: first, base: "baseline", cand: "candidate", err: errors.New("old")})
		if m.cmp.res != newer || m.cmp.err != nil {
			t.Fatalf("compare kept %+v err %v", m.cmp.res, m.cmp.err)
		}
		// The cursor stays on its row when a refresh reorders the rows.
		rows := func(metrics ...string) *compare.Result {
			r := &compare.Result{}
			for _, x := range metrics {
				r.Rows = append(r.Rows, compare.Row{Metric: x})
			}
			return r
		}
		m = send(m, compareMsg{seq: m.cmp.seq, res: rows("a", "b", "c")})
		m = send(m, press("6"))
		m = send(m, press("j"))
		m = send(m, loadedMsg{seq: 3, ov: twoSuites()})
		m = send(m, compareMsg{seq: m.cmp.seq, res: rows("x", "a", "c", "b")})
		if r, _ := m.cmp.selected(); r.Metric != "b" {
			t.Fatalf("cursor on %q after the refresh, want b", r.Metric)
		}
	})
	t.Run("sql", func(t *testing.T) {
		m := loadedModel(t)
		m = send(m, press("7"))
		for _, k := range []string{"1", "enter", "2", "enter"} {
			m = send(m, press(k))
		}
		if m.sql.seq != 2 {
			t.Fatalf("two statements, seq %d", m.sql.seq)
		}
		m = send(m, sqlMsg{seq: 2, query: "12", res: &sqlResult{cols: []string{"n"}}})
		m = send(m, sqlMsg{seq: 1, query: "1", err: errors.New("late")})
		if m.sql.ran != "12" || m.sql.err != nil || m.sql.res == nil {
			t.Fatalf("console kept %q err %v", m.sql.ran, m.sql.err)
		}
	})
	t.Run("breakers", func(t *testing.T) {
		m := loadedModel(t)
		m = send(m, press("8"))
		first := m.breakers.seq
		m = send(m, loadedMsg{seq: 2, ov: twoSuites()}) // on screen: loads again
		m = send(m, breakersMsg{seq: m.breakers.seq, t: &metrics.BreakerTimeline{TotalEvents: 2}})
		m = send(m, breakersMsg{seq: first, t: &metrics.BreakerTimeline{TotalEvents: 1}})
		if m.breakers.t == nil || m.breakers.t.TotalEvents != 2 {
			t.Fatalf("breakers kept %+v", m.breakers.t)
		}
	})
	t.Run("pair", func(t *testing.T) {
		m := loadedModel(t)
		m.pairV, _ = m.pairV.Update(askPairMsg{id: "r1", what: "run r1"})
		m.pairV, _ = m.pairV.Update(askPairMsg{id: "r2", what: "run r2"})
		two := &metrics.RunPair{Base: &metrics.RunDetail{RunID: "b2"}, Cand: &metrics.RunDetail{RunID: "r2"}}
		m = send(m, pairMsg{seq: m.pairV.seq, p: two})
		m = send(m, pairMsg{seq: m.pairV.seq - 1, p: &metrics.RunPair{}})
		if m.pairV.p != two || m.pairV.what != "" {
			t.Fatalf("pair kept %+v", m.pairV.p)
		}
	})
}

// The breaker view opened before the facts are built loads once they are.
func TestBreakersLoadAfterFacts(t *testing.T) {
	m := New(context.Background(), Options{})
	m = send(m, press("8"))
	if m.tab != viewBreakers || m.breakers.loading {
		t.Fatalf("before the facts: tab %d loading %v", m.tab, m.breakers.loading)
	}
	mm, c := m.Update(loadedMsg{seq: 1, ov: &overview{report: &metrics.Report{}}})
	m = mm.(Model)
	if !m.breakers.loading || c == nil {
		t.Fatalf("after the facts: not loading")
	}
	// A refresh (ui --follow) makes loaded breakers stale: the answer to
	// the request before it is dropped.
	before := m.breakers.seq
	m = send(m, breakersMsg{seq: before, t: &metrics.BreakerTimeline{TotalEvents: 1}})
	m = send(m, loadedMsg{seq: 2, ov: &overview{report: &metrics.Report{}}})
	if m.breakers.t != nil || m.breakers.seq <= before || !m.breakers.loading {
		t.Fatalf("after a refresh: seq %d loading %v", m.breakers.seq, m.breakers.loading)
	}
	m = send(m, breakersMsg{seq: before, t: &metrics.BreakerTimeline{TotalEvents: 2}})
	if m.breakers.t != nil {
		t.Fatalf("an answer from before the refresh was kept")
	}
}
