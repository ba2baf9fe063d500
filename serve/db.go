package serve

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/faultlens/faultlens/ingest"
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
	if err := rc.closeDB(context.Background(), false); err != nil {
		rc.logf("close %s: %v", rc.cfg.DB, err)
	}
}

// closeDB closes the database, first recomputing the cached report of
// every suite that changed if that is due (see refresh.go), or if force
// (at shutdown) and the cache is behind. A recomputation left for later
// is armed. The caller holds rc.mu.
func (rc *Receiver) closeDB(ctx context.Context, force bool) error {
	if rc.db == nil {
		return nil
	}
	var err error
	if rc.cache.due(time.Now(), rc.cfg.RefreshEvery) || (force && rc.cache.behind) {
		err = rc.refresh(ctx)
	}
	if cerr := rc.db.Close(); err == nil {
		err = cerr
	}
	rc.db = nil
	rc.armRefresh(time.Until(rc.cache.last.Add(rc.cfg.RefreshEvery)))
	return err
}

// dbQuerier is the database as the accounting queries use it.
type dbQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rejectedMessage says why the n rejected events of a request were
// rejected, by reason, for the exporter's log.
func rejectedMessage(ctx context.Context, db dbQuerier, res ingest.FileResult, n int64) (string, error) {
	parts, _, err := reasons(ctx, db, queries.Get("serve.rejected_reasons"), sql.Named("file_id", res.FileID))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d events rejected (%s); faultlens rejected --db lists them under %s",
		n, strings.Join(parts, ", "), res.Path), nil
}

// rejectedOfTraces counts the rejected events of one request of a group,
// by its traces, and says why.
func rejectedOfTraces(ctx context.Context, db dbQuerier, res ingest.FileResult, traces []string) (int64, string, error) {
	ids, err := json.Marshal(traces)
	if err != nil {
		return 0, "", err
	}
	parts, n, err := reasons(ctx, db, queries.Get("serve.rejected_of_traces"),
		sql.Named("file_id", res.FileID), sql.Named("trace_ids", string(ids)))
	if err != nil || n == 0 {
		return 0, "", err
	}
	return n, fmt.Sprintf("%d events rejected (%s); faultlens rejected --db lists them under %s",
		n, strings.Join(parts, ", "), res.Path), nil
}

// reasons runs a query of (reason, count) rows and returns them as
// "count reason" parts, and their total.
func reasons(ctx context.Context, db dbQuerier, q string, args ...any) ([]string, int64, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = rows.Close() }() // read only; rows.Err says what the reading met
	var parts []string
	var total int64
	for rows.Next() {
		var reason string
		var count int64
		if err := rows.Scan(&reason, &count); err != nil {
			return nil, 0, err
		}
		parts = append(parts, fmt.Sprintf("%d %s", count, reason))
		total += count
	}
	return parts, total, rows.Err()
}

// refusedLines marks the requests of a committed group whose line was not
// OTLP/JSON (line n is request n): nothing of them was stored, so they are
// answered 400.
func (rc *Receiver) refusedLines(ctx context.Context, db dbQuerier, fileID int64, outs []Outcome) error {
	rows, err := db.QueryContext(ctx, queries.Get("serve.refused_lines"), sql.Named("file_id", fileID))
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }() // read only; rows.Err says what the reading met
	for rows.Next() {
		var line int64
		var reason string
		if err := rows.Scan(&line, &reason); err != nil {
			return err
		}
		if line >= 1 && line <= int64(len(outs)) {
			outs[line-1].Err = &httpError{http.StatusBadRequest, "request refused whole, nothing of it stored: " + reason}
		}
	}
	return rows.Err()
}

// Close stops taking requests (later ones are answered 503, which
// exporters retry), lets the committer finish, recomputes the changed
// suites and closes the database. Call it after the HTTP server has
// finished its in-flight requests.
func (rc *Receiver) Close(ctx context.Context) error {
	rc.quitOnce.Do(func() { close(rc.quit) })
	<-rc.stopped
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.closed = true
	if rc.idle != nil {
		rc.idle.Stop()
	}
	rc.cache.stop()
	if rc.db == nil && rc.cache.behind {
		// Closed while idle with the cache behind: bring it up to date.
		return rc.refreshClosed(ctx)
	}
	return rc.closeDB(ctx, true)
}
