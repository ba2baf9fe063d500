package cli

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// compareInput is everything a comparison reads from the database: both
// sides' evidence and, for the HTML export of two suites, the failing
// candidate runs beside their baseline twins.
type compareInput struct {
	base, cand *metrics.Evidence
	bs, cs     compare.Side
	pairs      []metrics.RunPair
}

// loadCompareInput reads the comparison's input on a session of its own
// and closes the session before returning: its fact tables are the largest
// part of DuckDB's memory, and the comparison's own allocations (the
// per-group samples, the bootstraps) then come on top of what is left, not
// on top of them.
func loadCompareInput(ctx context.Context, db *sql.DB, nights []string, o *compareOptions) (in *compareInput, err error) {
	sess, err := metrics.OpenSuites(ctx, db, append(slices.Clone(nights), o.candidate))
	if err != nil {
		return nil, err
	}
	defer func() {
		// Close drops the session's TEMP tables only.
		if cerr := sess.Close(); cerr != nil && err == nil {
			in, err = nil, fmt.Errorf("compare: close the session: %w", cerr)
		}
	}()
	in = &compareInput{}
	if o.baseline == "" {
		in.base, in.bs, err = loadNights(ctx, sess, nights)
	} else {
		in.base, in.bs, err = loadSide(ctx, sess, db, o.dir, o.baseline)
	}
	if err != nil {
		return nil, err
	}
	if in.cand, in.cs, err = loadSide(ctx, sess, db, o.dir, o.candidate); err != nil {
		return nil, err
	}
	if _, err := compare.CheckMix(in.base, in.cand); err != nil {
		return nil, usagef("%v", err)
	}
	if o.format == "html" && in.bs.Source == "suite" && in.cs.Source == "suite" {
		// A saved baseline keeps no events to pair with.
		if in.pairs, err = sess.Pairs(ctx, in.bs.Suite, in.cs.Suite, htmlPairs); err != nil {
			return nil, err
		}
	}
	return in, nil
}
