package compare

import (
	"testing"

	"github.com/faultlens/faultlens/metrics"
)

// TestChartsOverallLatencyOnly: the queue/exec chart draws the whole run
// set's stage p50s once; a scenario's latency rows (a per-scenario gate, or
// the fault-free control runs of a conformance mix) are not drawn again.
func TestChartsOverallLatencyOnly(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	rows := []Row{
		{Metric: "latency.stage.planning.queue.p50", Kind: "latency", Base: v(13), Cand: v(15)},
		{Metric: "latency.stage.planning.exec.p50", Kind: "latency", Base: v(2703), Cand: v(2891)},
		{Metric: "latency.stage.planning.exec.p50", Kind: "latency", Scenario: "baseline", Base: v(2703), Cand: v(2320)},
		{Metric: "latency.stage.planning.exec.p95", Kind: "latency", Base: v(6124), Cand: v(7349)},
	}
	ch := charts(&metrics.Evidence{}, &metrics.Evidence{}, rows)
	if len(ch.Latency) != 2 || ch.Latency[0].Label != "planning.queue" || ch.Latency[1].Label != "planning.exec" ||
		ch.Latency[1].Cand != 2891 {
		t.Errorf("latency bars %+v, want planning.queue and planning.exec of the whole run set", ch.Latency)
	}
}
