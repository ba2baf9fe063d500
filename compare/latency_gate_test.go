package compare

import (
	"fmt"
	"testing"
	"time"

	"github.com/faultlens/faultlens/metrics"
)

// latencySuite has n runs whose tool "search" takes base + i·step ms
// (i = 0..n−1), times scale.
func latencySuite(prefix string, n int, scale float64) *metrics.Evidence {
	ev := &metrics.Evidence{}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		at := t0.Add(time.Duration(i) * time.Minute)
		id := fmt.Sprintf("%s%04d", prefix, i)
		yes := true
		ev.Runs = append(ev.Runs, metrics.RunFact{RunID: id, Scenario: "baseline", StartedAt: &at, Success: &yes})
		exec := (250 + float64((i*37)%n)*10) * scale
		ev.Latency = append(ev.Latency, metrics.LatencySample{RunID: id, Scope: "tool", Name: "search", ExecMs: &exec})
	}
	return ev
}

// TestLatencyGate checks a relative p95 gate on 200 calls a side: a 50 %
// slower tool fails it (p_adj is the bootstrap's floor 1/2001), the same
// tool passes, with the exact lines.
func TestLatencyGate(t *testing.T) {
	g := gatesOf(t, "gates:\n  - metric: latency.tool.*.exec.p95\n    direction: increase\n    max_change: 0.2\n    relative: true\n    require_significant: true\n")
	cases := []struct {
		scale  float64
		passed bool
		reason string
	}{
		{1.5, false, "increase 50.0% [44.9%, 55.7%] (90.0% interval) vs threshold 20.0%, p_adj 0.0005 (bootstrap-quantile, greater); exceeds and is significant"},
		{1.0, true, "increase 0.0% [-3.4%, 3.8%] (90.0% interval) vs threshold 20.0%, p_adj 0.522 (bootstrap-quantile, greater); within"},
	}
	for _, c := range cases {
		res := Compare(latencySuite("b", 200, 1), latencySuite("c", 200, c.scale), Side{Name: "b"}, Side{Name: "c"}, Options{Seed: 3})
		Evaluate(res, g)
		got := res.Gates[0]
		if got.Passed != c.passed || GateText(got) != c.reason || got.Metric != "latency.tool.search.exec.p95" {
			t.Errorf("scale %v:\n got %v %s %q\nwant %v %q", c.scale, got.Passed, got.Metric, GateText(got), c.passed, c.reason)
		}
	}
	// 99 calls a side are too few for a p95 gate.
	res := Compare(latencySuite("b", 99, 1), latencySuite("c", 99, 3), Side{}, Side{}, Options{Seed: 3})
	Evaluate(res, g)
	if got := res.Gates[0]; got.SkipReason != SkipTooFewSamples || GateText(got) != "too few samples to gate this quantile (99 and 99, need ≥ 100 a side)" {
		t.Errorf("99 calls: %+v", got)
	}
}
