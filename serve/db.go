package serve

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
)

// Open opens (creating if needed) the database before the first request,
// so that a file that cannot be a faultlens database, or one another
// writer holds past the lock wait, stops the receiver before it listens.
func (rc *Receiver) Open(ctx context.Context) error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	defer rc.armIdle()
	_, err := rc.open(ctx)
	return err
}

// armIdle (re)starts the quiet spell after which the database is closed.
// The caller holds rc.mu and has just finished with the database.
func (rc *Receiver) armIdle() {
	if rc.idle != nil {
		rc.idle.Stop()
	}
	rc.idleGen++
	if rc.cfg.IdleClose > 0 && rc.db != nil && !rc.closed {
		gen := rc.idleGen
		rc.idle = time.AfterFunc(rc.cfg.IdleClose, func() { rc.closeIdle(gen) })
	}
}

// open returns the database, opening it for a new burst of requests. The
// caller holds rc.mu.
func (rc *Receiver) open(ctx context.Context) (*sql.DB, error) {
	if rc.db != nil {
		return rc.db, nil
	}
	lim := rc.cfg.Limits
	if lim.OnWait == nil {
		lim.OnWait = func(msg string) { rc.logf("waiting: %s", msg) }
	}
	db, err := store.Open(ctx, rc.cfg.DB, lim)
	if err != nil {
		return nil, err
	}
	rc.db = db
	return db, nil
}

// closeIdle closes the database after a quiet spell, so that readers can
// open it; a timer that fired while a later request held the lock is
// stale (gen tells) and does nothing.
func (rc *Receiver) closeIdle(gen int64) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if gen != rc.idleGen {
		return
	}
	if err := rc.closeDB(context.Background()); err != nil {
		rc.logf("close %s: %v", rc.cfg.DB, err)
	}
}

// closeDB recomputes the cached report of every suite that changed and
// closes the database. The caller holds rc.mu.
func (rc *Receiver) closeDB(ctx context.Context) error {
	if rc.db == nil {
		return nil
	}
	err := rc.refresh(ctx)
	if cerr := rc.db.Close(); err == nil {
		err = cerr
	}
	rc.db = nil
	return err
}

// refresh brings the cached suite reports up to date with the committed
// requests (metrics.Freshen, as ingest does after its files). Until then a
// report read between bursts sees that a request's file is newer than the
// cache row of its suite and computes that suite from the events. The
// caller holds rc.mu.
func (rc *Receiver) refresh(ctx context.Context) error {
	start := time.Now()
	suites, err := metrics.Freshen(ctx, rc.db)
	if err != nil {
		return fmt.Errorf("refresh suite metrics: %w", err)
	}
	if len(suites) > 0 {
		rc.logf("suite metrics refreshed for %d suite(s) in %.1fs", len(suites), time.Since(start).Seconds())
	}
	return nil
}

// rejectedMessage counts the events of a request that were rejected, and
// says why, by reason, for the exporter's log ("" when none was).
func rejectedMessage(ctx context.Context, db *sql.DB, res ingest.FileResult) (int64, string, error) {
	rows, err := db.QueryContext(ctx, queries.Get("serve.rejected_reasons"), res.FileID)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	var parts []string
	var total int64
	for rows.Next() {
		var reason string
		var n int64
		if err := rows.Scan(&reason, &n); err != nil {
			return 0, "", err
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, reason))
		total += n
	}
	if err := rows.Err(); err != nil || total == 0 {
		return 0, "", err
	}
	return total, fmt.Sprintf("%d events rejected (%s); faultlens rejected --db lists them under %s",
		total, strings.Join(parts, ", "), res.Path), nil
}

// Close stops taking requests (later ones are answered 503, which
// exporters retry), recomputes the changed suites and closes the database.
// Call it after the HTTP server has finished its in-flight requests.
func (rc *Receiver) Close(ctx context.Context) error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.closed = true
	if rc.idle != nil {
		rc.idle.Stop()
	}
	return rc.closeDB(ctx)
}
