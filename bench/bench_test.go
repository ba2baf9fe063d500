package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/store"
)

// TestBenchSmoke runs the whole bench on ~5,000 events: every row is
// there, measured, and has a positive ratio where it has a raw figure.
// No wall-clock thresholds: the verdicts depend on the machine.
func TestBenchSmoke(t *testing.T) {
	res, err := Run(context.Background(), Config{Events: 5000, Dir: t.TempDir(), Limits: store.Limits{TempDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events < 4000 || res.Events > 6500 {
		t.Errorf("generated %d events, want about 5000", res.Events)
	}
	want := []string{"ingest JSONL", "ingest JSONL, 1% bad lines", "ingest Arrow", "ingest Arrow vs JSON Lines", "full report",
		"compare baseline vs candidate", "view overview: Report", "view latency: LatencyHistograms", "view errors: ErrorMatrix",
		"view runs: first page", "view runs: filtered", "view runs: sorted by e2e", "view run detail: RunDetail",
		"view compare input: Evidence ×2", "ingest JSONL, 256MB limit", "ingest JSONL, 256MB limit, 1% bad lines",
		"first paint: 1 night", "view breakers: Breakers", "view pair: Pair", "view compare drill: slow tool runs",
		"view compare drill: breaker runs"}
	if len(res.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(res.Rows), len(want))
	}
	for i, r := range res.Rows {
		if r.Step != want[i] {
			t.Errorf("row %d is %q, want %q", i, r.Step, want[i])
		}
		if r.Time <= 0 || r.Events <= 0 || r.PeakRSSMiB <= 0 {
			t.Errorf("%s: time %v, events %d, peak RSS %v: want all positive", r.Step, r.Time, r.Events, r.PeakRSSMiB)
		}
		if i < 6 && !(r.Ratio() > 0) {
			t.Errorf("%s: ratio %v, want a positive number", r.Step, r.Ratio())
		}
		// Rows without a target: the compare, the 256MB ingests and the
		// one-night first paint (the target is on the many-night ratio).
		if i != 5 && (i < 14 || i > 16) && r.Verdict() == "" {
			t.Errorf("%s: no target verdict", r.Step)
		}
	}
	var b strings.Builder
	if err := Write(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, step := range want {
		if !strings.Contains(b.String(), "| "+step+" ") {
			t.Errorf("table lacks %q:\n%s", step, b.String())
		}
	}
}
