package bench

import (
	"context"
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/metrics"
)

// viewsUI measures the data calls of the dashboard views added in its
// second round (breaker timeline, paired run diff, the compare view's drill
// to runs), each against the same 100 ms target as the other views. The
// dashboard calls them with these arguments. (The latency view's
// percentiles are the report's, timed in "view overview: Report".)
func (m *measurer) viewsUI(ctx context.Context) error {
	s, err := metrics.Open(ctx, m.db)
	if err != nil {
		return err
	}
	defer closeQuietly(s)
	failed, _, err := s.RunsPage(ctx, metrics.RunFilter{Quick: "failed", Suite: "candidate"}, metrics.RunSort{}, 0, 1)
	if err != nil {
		return err
	}
	if len(failed) == 0 {
		return fmt.Errorf("views: no failed candidate run to pair")
	}
	for _, v := range []struct {
		step string
		call func() error
	}{
		{"view breakers: Breakers", func() error { _, err := s.Breakers(ctx, 48, 500); return err }},
		{"view pair: Pair", func() error {
			// A run without a twin costs the same search; it is an answer.
			_, err := s.Pair(ctx, failed[0].RunID, "baseline", "candidate")
			if errors.Is(err, metrics.ErrNoTwin) {
				return nil
			}
			return err
		}},
		{"view compare drill: slow tool runs", func() error {
			f := metrics.RunFilter{Suite: "candidate", Slow: metrics.SlowSpan{Scope: "tool", Name: "visit", Clock: "wall", OverMs: 4000}}
			_, _, err := s.RunsPage(ctx, f, metrics.RunSort{Column: "run_id"}, 0, 40)
			return err
		}},
		{"view compare drill: breaker runs", func() error {
			_, _, err := s.RunsPage(ctx, metrics.RunFilter{Suite: "candidate", Quick: "breaker"}, metrics.RunSort{Column: "run_id"}, 0, 40)
			return err
		}},
	} {
		d, err := median3(v.call)
		if err != nil {
			return fmt.Errorf("%s: %w", v.step, err)
		}
		m.add(Row{Step: v.step, Events: m.in.events, Time: d, Target: viewTarget})
	}
	return nil
}
