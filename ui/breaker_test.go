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
