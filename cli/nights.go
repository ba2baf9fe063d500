package cli

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// lastNights returns the k suites that precede cand in date order (each
// suite's earliest run), oldest first: the rolling baseline of a nightly
// database.
func lastNights(ctx context.Context, db *sql.DB, cand string, k int) ([]string, error) {
	if k < 1 {
		return nil, usagef("--baseline-last must be at least 1, not %d", k)
	}
	order, err := metrics.SuitesByDate(ctx, db)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, s := range order {
		if s.Suite == cand {
			at = i
		}
	}
	switch {
	case at < 0:
		return nil, usagef("--baseline-last needs the candidate %q as a suite of the input", cand)
	case at < k:
		return nil, usagef("--baseline-last %d: only %d suite(s) precede %q in the input", k, at, cand)
	}
	out := make([]string, 0, k)
	for _, s := range order[at-k : at] {
		out = append(out, s.Suite)
	}
	return out, nil
}

// loadNights pools the evidence of the given suites into one baseline.
// Each run keeps its suite, so the comparison's A/A noise band is the
// spread between those nights.
func loadNights(ctx context.Context, sess *metrics.Session, nights []string) (*metrics.Evidence, compare.Side, error) {
	pooled := &metrics.Evidence{}
	for _, n := range nights {
		ev, err := sess.Evidence(ctx, n)
		if err != nil {
			return nil, compare.Side{}, err
		}
		pooled.Runs = append(pooled.Runs, ev.Runs...)
		pooled.Latency = append(pooled.Latency, ev.Latency...)
		pooled.Recovery = append(pooled.Recovery, ev.Recovery...)
	}
	side := compare.Side{Name: fmt.Sprintf("last %d nights", len(nights)), Source: "nights", Suite: strings.Join(nights, ",")}
	return pooled, side, nil
}
