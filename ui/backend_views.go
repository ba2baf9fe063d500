package ui

import (
	"context"
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/metrics"
)

// The backend calls of the latency, breaker and pair views (kept apart
// from backend.go, which owns opening and closing the database).

// latencyHistograms is the latency view's wall-time distributions.
func (b *backend) latencyHistograms(ctx context.Context) ([]metrics.LatencyHistogram, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, errors.New("not loaded yet")
	}
	return b.sess.LatencyHistograms(ctx)
}

func (b *backend) breakers(ctx context.Context, slices, limit int) (*metrics.BreakerTimeline, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, errors.New("not loaded yet")
	}
	return b.sess.Breakers(ctx, slices, limit)
}

// pair pairs run id, or with id "" the first run (in run id order) that
// matches f, with its twin in the other of the suites base and cand.
func (b *backend) pair(ctx context.Context, id string, f metrics.RunFilter, base, cand string) (*metrics.RunPair, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, errors.New("not loaded yet")
	}
	if id != "" {
		return b.sess.Pair(ctx, id, base, cand)
	}
	// The first run of the row that has a twin: a pair of one run is no
	// pair (at most pairLook runs are tried).
	rows, _, err := b.sess.RunsPage(ctx, f, metrics.RunSort{Column: "run_id"}, 0, pairLook)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("no run matches the row")
	}
	for _, r := range rows {
		p, err := b.sess.Pair(ctx, r.RunID, base, cand)
		if errors.Is(err, metrics.ErrNoTwin) {
			continue
		}
		return p, err
	}
	return nil, fmt.Errorf("none of the first %d runs of the row has a twin in the other suite: %w", len(rows), metrics.ErrNoTwin)
}

// pairLook is how many runs of a row p tries for one with a twin.
const pairLook = 200
