package serve

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// endIdleSpell does what the idle timer does when it fires.
func (h *harness) endIdleSpell() {
	h.rc.mu.Lock()
	gen := h.rc.idleGen
	h.rc.mu.Unlock()
	h.rc.closeIdle(gen)
	h.rc.mu.Lock()
	defer h.rc.mu.Unlock()
	if h.rc.db != nil {
		h.t.Fatal("the database is still open after the idle spell")
	}
}

// cachedRuns reads the runs of the test suite's cache row from the closed
// database, -1 without a row.
func (h *harness) cachedRuns() int {
	h.t.Helper()
	db, err := store.OpenReadOnly(context.Background(), h.path, store.Limits{Threads: 2, TempDir: h.t.TempDir()})
	if err != nil {
		h.t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			h.t.Error(err)
		}
	}()
	var text string
	if err := db.QueryRow("SELECT report::VARCHAR FROM suite_metrics WHERE suite = ?", servetest.Service).Scan(&text); err != nil {
		return -1
	}
	var row struct {
		Runs int `json:"runs"`
	}
	if err := json.Unmarshal([]byte(text), &row); err != nil {
		h.t.Fatal(err)
	}
	return row.Runs
}

// TestRefreshThrottled: an SDK exports every 5 s and the database is closed
// 1 s after each export, so every request is its own burst. The cached
// suite reports are recomputed at the first close, not at the next seven
// (each used to recompute), and once more when RefreshEvery has passed
// since (the trailing timer). Meanwhile a report computes the new runs from
// the events, so it is never short of a committed run.
func TestRefreshThrottled(t *testing.T) {
	const requests = 8
	h := newHarness(t, Config{IdleClose: time.Hour, RefreshEvery: time.Hour})
	for i := range requests {
		exportResponse(t, h.post(servetest.Proto(servetest.Runs(i, 1))))
		h.endIdleSpell()
		if got := h.rc.Totals().Refreshes; got != 1 {
			t.Fatalf("after request %d: %d recomputations, want 1", i+1, got)
		}
	}
	if got := h.cachedRuns(); got != 1 {
		t.Errorf("cache row holds %d runs, want 1 (computed at the first close)", got)
	}
	db, err := store.OpenReadOnly(context.Background(), h.path, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := metrics.ReportBySuite(context.Background(), db, metrics.Options{})
	if cerr := db.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil || len(rep.Suites) != 1 || rep.Suites[0].Runs != requests {
		t.Fatalf("report between bursts: %v %+v, want %d runs", err, rep, requests)
	}

	h.rc.mu.Lock()
	gen, armed := h.rc.cache.gen, h.rc.cache.timer != nil
	h.rc.mu.Unlock()
	if !armed {
		t.Fatal("no trailing recomputation armed")
	}
	h.rc.refreshDue(gen) // what the timer does when RefreshEvery has passed
	if got := h.rc.Totals().Refreshes; got != 2 {
		t.Fatalf("after the trailing timer: %d recomputations, want 2", got)
	}
	if got := h.cachedRuns(); got != requests {
		t.Errorf("cache row holds %d runs after the trailing recomputation, want %d", got, requests)
	}
	h.rc.refreshDue(gen) // a stale or repeated firing does nothing
	if err := h.rc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := h.rc.Totals().Refreshes; got != 2 {
		t.Errorf("after shutdown with the cache up to date: %d recomputations, want 2", got)
	}
}

// TestRefreshAtShutdown: requests whose idle closes did not recompute are
// recomputed when the receiver stops, though the database was closed.
func TestRefreshAtShutdown(t *testing.T) {
	h := newHarness(t, Config{IdleClose: time.Hour, RefreshEvery: time.Hour})
	for i := range 3 {
		exportResponse(t, h.post(servetest.Proto(servetest.Runs(i, 1))))
		h.endIdleSpell()
	}
	if err := h.rc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := h.rc.Totals().Refreshes; got != 2 {
		t.Errorf("%d recomputations, want 2 (the first close, and shutdown)", got)
	}
	if got := h.cachedRuns(); got != 3 {
		t.Errorf("cache row holds %d runs, want 3", got)
	}
}

// TestRefreshTimerFires: with real timers, the runs of the last requests
// of a burst reach the cache by themselves soon after it ends.
func TestRefreshTimerFires(t *testing.T) {
	h := newHarness(t, Config{IdleClose: 20 * time.Millisecond, RefreshEvery: 200 * time.Millisecond})
	for i := range 3 {
		exportResponse(t, h.post(servetest.Proto(servetest.Runs(i, 1))))
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		h.rc.mu.Lock()
		done := h.rc.db == nil && !h.rc.cache.behind
		h.rc.mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cache was not brought up to date after the burst")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := h.cachedRuns(); got != 3 {
		t.Errorf("cache row holds %d runs, want 3", got)
	}
}
