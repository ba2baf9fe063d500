package metrics

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/faultlens/faultlens/queries"
)

// The per-suite report cache (table suite_metrics) is written after the
// files that change it have committed, in other transactions, so a crash or
// a failing later file can leave a row older than the events. Each row
// records the highest file id committed when it was computed (files_upto),
// and faultlens_meta records a watermark below which every touched suite was
// refreshed. A reader trusts a row only if no file after the watermark
// touches its suite past files_upto; Freshen brings rows up to date. So what
// a report reads always equals a computation over the committed events.

// cacheState is what a reader needs to judge cache rows.
type cacheState struct {
	watermark int64            // files up to here are reflected in the cache
	maxFile   int64            // the highest committed file id
	touched   map[string]int64 // suite → last file after the watermark touching it
	certain   map[string]bool  // suite → some new event is certainly one of its runs
}

// loadCacheState reads the watermark and, only when files were committed
// after it, which suites they touch (a scan of the newer files' events).
func loadCacheState(ctx context.Context, db *sql.DB) (cacheState, error) {
	st := cacheState{touched: map[string]int64{}, certain: map[string]bool{}}
	if err := db.QueryRowContext(ctx, queries.Get("cache.state")).Scan(&st.watermark, &st.maxFile); err != nil {
		return st, fmt.Errorf("metrics: cache state: %w", err)
	}
	if st.watermark >= st.maxFile {
		return st, nil
	}
	rows, err := db.QueryContext(ctx, queries.Get("cache.touched_since"), st.watermark)
	if err != nil {
		return st, fmt.Errorf("metrics: cache: suites touched since file %d: %w", st.watermark, err)
	}
	defer closeQuietly(rows)
	for rows.Next() {
		var name string
		var last int64
		var certain bool
		if err := rows.Scan(&name, &last, &certain); err != nil {
			return st, err
		}
		st.touched[name], st.certain[name] = last, certain
	}
	return st, rows.Err()
}

// fresh reports whether a row computed with files up to filesUpto still
// holds for suite.
func (st cacheState) fresh(suite string, filesUpto int64) bool {
	last, ok := st.touched[suite]
	return filesUpto <= st.maxFile && (!ok || filesUpto >= last)
}

// readFreshCache returns the cached suites written by this version of the
// SQL and still consistent with the committed files. A database without the
// cache table or with an older layout (read-only, older release) has none.
func readFreshCache(ctx context.Context, db *sql.DB) (map[string]Suite, error) {
	out := map[string]Suite{}
	st, err := loadCacheState(ctx, db)
	if err != nil {
		return out, nil
	}
	rows, err := db.QueryContext(ctx, queries.Get("cache.get"), queries.Version)
	if err != nil {
		return out, nil
	}
	defer closeQuietly(rows)
	for rows.Next() {
		var name, text string
		var upto int64
		if err := rows.Scan(&name, &text, &upto); err != nil {
			return nil, err
		}
		if !st.fresh(name, upto) {
			continue // stale: computed before a file that changes it
		}
		var s Suite
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			continue // a damaged row is recomputed, not trusted
		}
		out[name] = s
	}
	return out, rows.Err()
}

// Freshen brings the per-suite report cache up to date with the committed
// files: it recomputes every suite that a file committed since the last
// complete refresh touches, then moves the watermark. It is idempotent and
// safe after a crash or a failed command (a re-run finishes the work), and a
// no-op when nothing changed. Any writer (ingest, serve) calls it after its
// files have committed. The database must be writable. It returns the suites
// it recomputed.
func Freshen(ctx context.Context, db *sql.DB) ([]string, error) {
	st, err := loadCacheState(ctx, db)
	if err != nil {
		return nil, err
	}
	if st.watermark == st.maxFile {
		return nil, nil
	}
	cachedRows, err := strings1(ctx, db, queries.Get("cache.suites"))
	if err != nil {
		return nil, err
	}
	var suites []string
	for name := range st.touched {
		// A suite that only may have changed is recomputed only if a row
		// of it would otherwise be stale; without a row it is computed on
		// read.
		if st.certain[name] || slices.Contains(cachedRows, name) {
			suites = append(suites, name)
		}
	}
	slices.Sort(suites)
	if err := refresh(ctx, db, suites, st.maxFile); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, queries.Get("cache.set_watermark"), st.maxFile); err != nil {
		return nil, fmt.Errorf("metrics: cache watermark: %w", err)
	}
	return suites, nil
}

// RefreshAll recomputes every suite's cached report and moves the
// watermark to the last committed file (the refresh command without
// --suite, e.g. after an upgrade changed the metric SQL).
func RefreshAll(ctx context.Context, db *sql.DB) ([]string, error) {
	st, err := loadCacheState(ctx, db)
	if err != nil {
		return nil, err
	}
	suites, err := AllSuites(ctx, db)
	if err != nil {
		return nil, err
	}
	if err := refresh(ctx, db, suites, st.maxFile); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, queries.Get("cache.set_watermark"), st.maxFile); err != nil {
		return nil, fmt.Errorf("metrics: cache watermark: %w", err)
	}
	return suites, nil
}

// RefreshCache recomputes and stores the cached report of each suite
// (the refresh command). The database must be writable.
func RefreshCache(ctx context.Context, db *sql.DB, suites []string) error {
	st, err := loadCacheState(ctx, db)
	if err != nil {
		return err
	}
	return refresh(ctx, db, suites, st.maxFile)
}

// refresh computes and stores each suite's report, marked as reflecting the
// files up to upto. upto is read before computing, so a file committed
// meanwhile (by this process; the file lock keeps others out) is newer than
// the row and makes it stale rather than silently included or lost.
func refresh(ctx context.Context, db *sql.DB, suites []string, upto int64) error {
	for _, name := range suites {
		s, ok, err := suiteReport(ctx, db, name)
		if err != nil {
			return err
		}
		if !ok {
			if _, err := db.ExecContext(ctx, queries.Get("cache.delete"), name); err != nil {
				return fmt.Errorf("metrics: cache: %w", err)
			}
			continue
		}
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, queries.Get("cache.put"), name, queries.Version, string(b), upto); err != nil {
			return fmt.Errorf("metrics: cache %s: %w", name, err)
		}
	}
	return nil
}
