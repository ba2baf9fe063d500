package ui

import (
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// The breaker list leaves its suite column out on a narrow screen only
// when every event is of one suite.
func TestSingleSuite(t *testing.T) {
	ev := func(s ...string) []metrics.BreakerEvent {
		var out []metrics.BreakerEvent
		for _, x := range s {
			out = append(out, metrics.BreakerEvent{Suite: x})
		}
		return out
	}
	for _, c := range []struct {
		events []metrics.BreakerEvent
		want   string
	}{{nil, ""}, {ev("c"), "c"}, {ev("c", "c"), "c"}, {ev("c", "b", "c"), ""}} {
		if got := singleSuite(c.events); got != c.want {
			t.Errorf("singleSuite(%v) = %q, want %q", c.events, got, c.want)
		}
	}
}

// A refresh (ui --follow) reloads the breakers and puts the cursor back on
// the event it was on, wherever that event now is in the list.
func TestBreakersKeepEventOnRefresh(t *testing.T) {
	m := loadedModel(t)
	m = send(m, press("8"))
	a := metrics.BreakerEvent{Suite: "c", Tool: "visit", AtMs: 1, RunID: "r1", CallID: "r1/c1", From: "closed", To: "open"}
	b := metrics.BreakerEvent{Suite: "c", Tool: "visit", AtMs: 2, RunID: "r2", CallID: "r2/c1", From: "closed", To: "open"}
	m = send(m, breakersMsg{seq: m.breakers.seq, t: &metrics.BreakerTimeline{Events: []metrics.BreakerEvent{a, b}}})
	m = send(m, press("j"))
	m = send(m, loadedMsg{seq: 2, ov: twoSuites()})
	earlier := metrics.BreakerEvent{Suite: "c", Tool: "visit", AtMs: 0.5, RunID: "r0", CallID: "r0/c1"}
	m = send(m, breakersMsg{seq: m.breakers.seq, t: &metrics.BreakerTimeline{Events: []metrics.BreakerEvent{earlier, a, b}}})
	if e, ok := m.breakers.selected(); !ok || e != b || m.breakers.cursor != 2 {
		t.Fatalf("cursor %d on %+v, want the event of r2", m.breakers.cursor, e)
	}
}
