package metrics

import (
	"context"
	"math"
	"testing"

	"github.com/faultlens/faultlens/internal/testdb"
)

// History puts suites in the order of their earliest run (night-b's file
// comes first) and reads each asked rate per suite: night-a has one of its
// two runs claimed completed and one without a terminal; night-b one run,
// completed. No run calls a tool through a breaker, so breaker_violation
// has no denominator anywhere: NaN, not 0.
func TestHistory(t *testing.T) {
	ctx := context.Background()
	// Given in this order, night-b's file first.
	db := testdb.Load(t, testdb.Files(t, `{"type":"run","run_id":"b1","ts":"2026-11-02T02:00:00Z","suite":"night-b","started_at":"2026-11-02T02:00:00Z"}
{"type":"terminal","run_id":"b1","ts":"2026-11-02T02:00:05Z","terminal":"completed"}
`, `{"type":"run","run_id":"a1","ts":"2026-11-01T02:00:00Z","suite":"night-a","started_at":"2026-11-01T02:00:00Z"}
{"type":"terminal","run_id":"a1","ts":"2026-11-01T02:00:05Z","terminal":"completed"}
{"type":"run","run_id":"a2","ts":"2026-11-01T03:00:00Z","suite":"night-a","started_at":"2026-11-01T03:00:00Z"}
`)...)
	names := []string{"claimed_completed", "missing_terminal", "breaker_violation"}
	h, err := History(ctx, db, names)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Suites) != 2 || h.Suites[0].Suite != "night-a" || h.Suites[0].Runs != 2 || h.Suites[1].Suite != "night-b" {
		t.Fatalf("suites %+v, want night-a (2 runs) then night-b", h.Suites)
	}
	want := [][]float64{{0.5, 1}, {0.5, 0}, {math.NaN(), math.NaN()}}
	for i, n := range names {
		for j := range want[i] {
			got, w := h.Values[i][j], want[i][j]
			if got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("%s of %s = %v, want %v", n, h.Suites[j].Suite, got, w)
			}
		}
	}

	all, err := History(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Metrics) != len(RateNames()) || len(all.Values) != len(RateNames()) {
		t.Errorf("no metric asked: %d metrics, want every rate (%d)", len(all.Metrics), len(RateNames()))
	}
}
