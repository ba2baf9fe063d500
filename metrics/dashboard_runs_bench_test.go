package metrics

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

// BenchmarkUIViews measures the data call behind each dashboard view on a
// session whose fact tables are already built (the dashboard builds them
// once, at start). Runs per suite come from FAULTLENS_BENCH_RUNS (see
// benchRuns): the default is ~100k events, 35000 gives ~1M.
func BenchmarkUIViews(b *testing.B) {
	ctx := context.Background()
	db, accepted := benchDB(b)
	s, err := Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = s.Close() }() // temp tables of a benchmark session
	rows, _, err := s.RunsPage(ctx, RunFilter{Quick: "failed"}, RunSort{}, 0, 1)
	if err != nil || len(rows) == 0 {
		b.Fatalf("no failed run: %v", err)
	}
	failedRun := rows[0].RunID
	events := float64(accepted)

	for _, c := range []struct {
		name string
		call func() error
	}{
		// The overview's call (ui's load): the whole report, the latency
		// view's percentiles included (read from latency_facts).
		{"Report", func() error { _, err := s.Report(ctx, Options{}); return err }},
		{"ErrorMatrix", func() error { _, err := s.ErrorMatrix(ctx); return err }},
		{"LatencyHistograms", func() error { _, err := s.LatencyHistograms(ctx); return err }},
		{"RunFilterValues", func() error { _, err := s.RunFilterValues(ctx); return err }},
		{"RunsPageFirst", func() error { _, _, err := s.RunsPage(ctx, RunFilter{}, RunSort{Column: "run_id"}, 0, 40); return err }},
		{"RunsPageDeep", func() error {
			_, _, err := s.RunsPage(ctx, RunFilter{}, RunSort{Column: "run_id"}, benchRuns(), 40)
			return err
		}},
		{"RunsPageText", func() error { _, _, err := s.RunsPage(ctx, RunFilter{Text: "cand"}, RunSort{}, 0, 40); return err }},
		{"RunsPageSorted", func() error {
			_, _, err := s.RunsPage(ctx, RunFilter{}, RunSort{Column: "e2e", Desc: true}, 0, 40)
			return err
		}},
		{"RunsPageQuick", func() error {
			_, _, err := s.RunsPage(ctx, RunFilter{ErrorClass: "TIMEOUT", GateFalse: "evidence"}, RunSort{}, 0, 40)
			return err
		}},
		{"RunDetail", func() error { _, err := s.RunDetail(ctx, failedRun); return err }},
		{"CompareEvidence", func() error {
			for _, suite := range []string{"baseline", "candidate"} {
				if _, err := s.Evidence(ctx, suite); err != nil {
					return err
				}
			}
			return nil
		}},
		{"Schema", func() error { _, err := s.Schema(ctx); return err }},
		{"Breakers", func() error { _, err := s.Breakers(ctx, 48, 500); return err }},
		{"Pair", func() error {
			_, err := s.Pair(ctx, failedRun, "baseline", "candidate")
			if errors.Is(err, ErrNoTwin) {
				return nil
			}
			return err
		}},
		{"RunsPageSlow", func() error {
			f := RunFilter{Suite: "candidate", Slow: SlowSpan{Scope: "tool", Name: "visit", Clock: "wall", OverMs: 4000}}
			_, _, err := s.RunsPage(ctx, f, RunSort{Column: "run_id"}, 0, 40)
			return err
		}},
		{"RunsPageBreaker", func() error {
			_, _, err := s.RunsPage(ctx, RunFilter{Suite: "candidate", Quick: "breaker"}, RunSort{Column: "run_id"}, 0, 40)
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c0 := processCPU(b)
			for i := 0; i < b.N; i++ {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU(b)-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(events, "events")
		})
	}
}

// processCPU is the CPU time the process has used, every thread (DuckDB's
// included): on a shared machine it moves less with the load than wall time.
func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
