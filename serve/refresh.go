package serve

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

// DefaultRefreshEvery is how often, at most, the receiver recomputes the
// cached suite reports while requests keep arriving.
//
// An SDK's batch span processor exports every 5 s while its agent works,
// and the database is closed after each export (--idle-close, 1 s), so
// recomputing at every close would recompute a growing suite every 5 s,
// with the file locked meanwhile. The cache is only a shortcut: a report
// read while it is behind computes the changed suites from the events
// (metrics.Freshen's watermark tells it which), so nothing is wrong in
// between, only slower to read.
const DefaultRefreshEvery = 30 * time.Second

// cacheClock is the state of the suite cache as the receiver sees it.
type cacheClock struct {
	behind bool        // a request committed since the last recomputation
	last   time.Time   // when the cache was last recomputed, or tried to be
	timer  *time.Timer // the trailing recomputation, while one is due
	gen    int64       // counts armings of timer, so a stale one knows it
}

// due reports whether an idle close at now should recompute: the cache is
// behind and was last recomputed at least every ago (the first close of a
// receiver recomputes at once).
func (c *cacheClock) due(now time.Time, every time.Duration) bool {
	return c.behind && now.Sub(c.last) >= every
}

// stop cancels the trailing recomputation, if one is armed.
func (c *cacheClock) stop() {
	if c.timer != nil {
		c.timer.Stop()
	}
	c.gen++
}

// refresh brings the cached suite reports up to date with the committed
// requests (metrics.Freshen, as ingest does after its files). Until then a
// report read between bursts sees that a request's file is newer than the
// cache row of its suite and computes that suite from the events. The
// caller holds rc.mu and the database is open.
func (rc *Receiver) refresh(ctx context.Context) error {
	start := time.Now()
	rc.cache.last = start // a failure is not retried at once, but RefreshEvery later
	suites, err := metrics.Freshen(ctx, rc.db)
	if err != nil {
		return fmt.Errorf("refresh suite metrics: %w", err)
	}
	rc.cache.behind = false
	if len(suites) > 0 {
		rc.totals.Refreshes++
		rc.logf("suite metrics refreshed for %d suite(s) in %.1fs", len(suites), time.Since(start).Seconds())
	}
	return nil
}

// armRefresh schedules the trailing recomputation after an idle close that
// left the cache behind: RefreshEvery after the last one, so that the
// runs of the last requests of a burst are cached soon after it ends. The
// caller holds rc.mu.
func (rc *Receiver) armRefresh(wait time.Duration) {
	c := &rc.cache
	c.stop()
	if !c.behind || rc.closed {
		return
	}
	gen := c.gen
	c.timer = time.AfterFunc(max(wait, 0), func() { rc.refreshDue(gen) })
}

// refreshDue is the trailing recomputation. A request that arrived since
// (gen tells) re-armed it, or will recompute at its own idle close.
func (rc *Receiver) refreshDue(gen int64) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if gen != rc.cache.gen || rc.closed || rc.db != nil || !rc.cache.behind {
		return
	}
	if err := rc.refreshClosed(context.Background()); err != nil {
		rc.logf("refresh %s: %v", rc.cfg.DB, err)
	}
}

// refreshClosed opens the closed database to recompute the cache, and
// closes it again. A reader holding the file is not waited for (requests
// would queue behind the wait): the recomputation is tried again
// RefreshEvery later, and at the latest the next writer (a request's idle
// close, serve's shutdown, an ingest) does it. The caller holds rc.mu.
func (rc *Receiver) refreshClosed(ctx context.Context) error {
	lim := rc.cfg.Limits
	lim.LockWait, lim.OnWait = time.Nanosecond, nil // one try
	db, err := store.Open(ctx, rc.cfg.DB, lim)
	if errors.Is(err, store.ErrLocked) {
		if rc.closed {
			rc.logf("suite metrics not refreshed: %s is in use by a reader (reports compute the new runs from the events; the next ingest refreshes them)", rc.cfg.DB)
		}
		rc.armRefresh(rc.cfg.RefreshEvery)
		return nil
	}
	if err != nil {
		return err
	}
	rc.db = db
	return rc.closeDB(ctx, true)
}
