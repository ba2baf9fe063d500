package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// OldSuite is a suite Prune drops: the start of its earliest run and how
// many runs it has.
type OldSuite struct {
	Suite   string
	Started time.Time
	Runs    int64
}

// PruneResult says which suites Prune dropped (or, dry, would drop) and
// what rewriting the file saved.
type PruneResult struct {
	Suites []OldSuite
	Compaction
}

// Prune drops from the database at path every suite whose earliest run
// started before cutoff: its events, its cached report and its stored OTLP
// spans. Files left without events are forgotten (so that they can be
// ingested again), and the file is rewritten to give the space back
// (Compact). With dryRun it only lists the suites. Listing, deleting and
// rewriting happen under one writer's lock, the deletion in one
// transaction.
func Prune(ctx context.Context, path string, lim Limits, cutoff time.Time, dryRun bool) (PruneResult, error) {
	var res PruneResult
	c, err := Compact(ctx, path, lim, func(ctx context.Context, conn *sql.Conn) (bool, error) {
		suites, err := oldSuites(ctx, conn, cutoff)
		if err != nil {
			return false, fmt.Errorf("prune: %w", err)
		}
		res.Suites = suites
		if dryRun || len(suites) == 0 {
			return false, nil
		}
		return true, dropSuites(ctx, conn, suites)
	})
	res.Compaction = c
	return res, err
}

// oldSuites lists the suites whose earliest run started before cutoff,
// oldest first.
func oldSuites(ctx context.Context, conn *sql.Conn, cutoff time.Time) ([]OldSuite, error) {
	rows, err := conn.QueryContext(ctx, queries.Get("prune.suites"), sql.Named("cutoff", cutoff))
	if err != nil {
		return nil, err
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []OldSuite
	for rows.Next() {
		var s OldSuite
		if err := rows.Scan(&s.Suite, &s.Started, &s.Runs); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// dropSuites deletes the suites in one transaction.
func dropSuites(ctx context.Context, conn *sql.Conn, suites []OldSuite) error {
	spans, err := hasTable(ctx, conn, "otlp_spans")
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	// otlp_rejected came later than otlp_spans: an older database may have
	// the spans without it.
	rejected, err := hasTable(ctx, conn, "otlp_rejected")
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	// A no-op after Commit; on an earlier error, that error is the one to report.
	defer func() { _ = tx.Rollback() }()
	for _, s := range suites {
		name := sql.Named("suite", s.Suite)
		if spans {
			if _, err := tx.ExecContext(ctx, queries.Get("prune.delete_otlp_spans"), name); err != nil {
				return fmt.Errorf("prune suite %s: %w", s.Suite, err)
			}
		}
		if _, err := tx.ExecContext(ctx, queries.Get("prune.delete_events"), name); err != nil {
			return fmt.Errorf("prune suite %s: %w", s.Suite, err)
		}
		if _, err := tx.ExecContext(ctx, queries.Get("cache.delete"), s.Suite); err != nil {
			return fmt.Errorf("prune suite %s: %w", s.Suite, err)
		}
	}
	after := []string{"prune.delete_rejected", "prune.delete_files"}
	if spans {
		after = append(after, "prune.delete_orphan_otlp_spans")
		if rejected {
			after = append(after, "prune.delete_orphan_otlp_rejected")
		}
	}
	// No cache row or watermark may point past the highest file left.
	after = append(after, "cache.cap", "cache.cap_watermark")
	if err := execNamed(ctx, tx, after...); err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	return nil
}

// hasTable reports whether the current database has the table (otlp_spans
// exists once an OTLP input has been ingested).
func hasTable(ctx context.Context, q querier, name string) (bool, error) {
	var ok bool
	err := q.QueryRowContext(ctx, queries.Get("store.table_exists"), sql.Named("name", name)).Scan(&ok)
	return ok, err
}
