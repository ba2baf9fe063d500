package ui

import (
	"context"
	"errors"
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// A reply to an older request never overwrites the answer to a newer one.
func TestLateRepliesDropped(t *testing.T) {
	v := newSQLView()
	v.seq = 2
	v.apply(sqlMsg{seq: 2, query: "new", res: &sqlResult{cols: []string{"n"}}})
	v.apply(sqlMsg{seq: 1, query: "old", err: errors.New("late")})
	if v.ran != "new" || v.err != nil || v.res == nil {
		t.Fatalf("console kept %q err %v", v.ran, v.err)
	}
	d := detailView{loading: "r2"}
	d.apply(detailMsg{id: "r1", d: &metrics.RunDetail{RunID: "r1"}})
	if d.d != nil || d.loading != "r2" {
		t.Fatalf("detail took the answer for r1 while loading r2")
	}
	d.apply(detailMsg{id: "r2", d: &metrics.RunDetail{RunID: "r2"}})
	if d.d == nil || d.d.RunID != "r2" || d.loading != "" {
		t.Fatalf("detail dropped its own answer")
	}
}

func TestLateBreakerAndPairDropped(t *testing.T) {
	b := breakerView{seq: 2}
	b.apply(breakersMsg{seq: 1, t: &metrics.BreakerTimeline{TotalEvents: 9}})
	if b.t != nil {
		t.Fatalf("breakers took an old answer")
	}
	p := pairView{seq: 3, what: "run r3"}
	p.apply(pairMsg{seq: 2, p: &metrics.RunPair{}})
	if p.p != nil || p.what != "run r3" {
		t.Fatalf("pair took an old answer")
	}
	c := compareView{base: "b", cand: "c2"}
	c.apply(compareMsg{base: "b", cand: "c1", err: errors.New("old pair")})
	if c.err != nil {
		t.Fatalf("compare took the answer for another pair of suites")
	}
}

// The breaker view opened before the facts are built loads once they are.
func TestBreakersLoadAfterFacts(t *testing.T) {
	m := New(context.Background(), Options{})
	mm, _ := m.Update(press("8"))
	m = mm.(Model)
	if m.tab != viewBreakers || m.breakers.loading {
		t.Fatalf("before the facts: tab %d loading %v", m.tab, m.breakers.loading)
	}
	mm, c := m.Update(loadedMsg{ov: &overview{report: &metrics.Report{}}})
	m = mm.(Model)
	if !m.breakers.loading || c == nil {
		t.Fatalf("after the facts: not loading")
	}
	// A refresh (ui --follow) makes loaded breakers stale: the answer to
	// the request before it is dropped.
	before := m.breakers.seq
	m.breakers.apply(breakersMsg{seq: before, t: &metrics.BreakerTimeline{TotalEvents: 1}})
	mm, _ = m.Update(loadedMsg{ov: &overview{report: &metrics.Report{}}})
	m = mm.(Model)
	if m.breakers.t != nil || m.breakers.seq <= before || !m.breakers.loading {
		t.Fatalf("after a refresh: %+v", m.breakers)
	}
	m.breakers.apply(breakersMsg{seq: before, t: &metrics.BreakerTimeline{TotalEvents: 2}})
	if m.breakers.t != nil {
		t.Fatalf("an answer from before the refresh was kept")
	}
}
