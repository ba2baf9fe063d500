package ui

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	sampletraces "github.com/faultlens/faultlens/sample-traces"
	"github.com/faultlens/faultlens/store"
)

// sampleFile ingests the bundled samples into a database file at path.
func sampleFile(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	dir, paths, err := sampletraces.Extract(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Error(err)
		}
	}()
	db, err := store.Open(ctx, path, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	if _, err := ingest.Files(ctx, db, paths, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
}

// When a followed database grows, the run detail and the pair on screen
// are asked for again — the same run, not whatever now comes first — and
// stay on screen until the new answer replaces them; the console keeps its
// result and says it was read before the growth.
func TestFollowRefreshesDetailPairConsole(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "followed.duckdb")
	sampleFile(t, path)
	lim := store.Limits{Threads: 2, TempDir: t.TempDir()}
	open := func(ctx context.Context) (*sql.DB, func(), error) {
		db, _, err := store.OpenScoped(ctx, path, lim, nil)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { _ = db.Close() }, nil // an in-memory copy: nothing to lose
	}
	db, release, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{DB: db, Follow: &Follow{Every: time.Hour, Path: path, Reopen: open, Release: release}})
	defer m.follow.close()
	defer m.sh.be.close()
	m = send(m, loadCmd(ctx, m.sh.be, m.loadSeq)())
	// The first look always reads; let it, so the next one sees the growth.
	mm, cmd := m.Update(followTickMsg{})
	m = send(mm.(Model), cmd())

	be := m.sh.be
	const id = "candidate-1-00035"
	m.detail, _ = m.detail.Update(openRunMsg{id: id})
	m = send(m, detailCmd(ctx, be, m.detail.seq, m.detail.loading)())
	// The pair asked from a compare row: the first masked candidate run.
	m.pairV, _ = m.pairV.Update(askPairMsg{what: "the first run behind the row", filter: metrics.RunFilter{Quick: "masked", Suite: "candidate"}})
	m = send(m, pairCmd(ctx, be, m.pairV.seq, m.pairV.id, m.pairV.filter, "baseline", "candidate")())
	if m.detail.d == nil || m.detail.d.RunID != id || m.pairV.p == nil || m.pairV.id != "candidate-1-00005" {
		t.Fatalf("before: detail %v pair id %q err %v", m.detail.d != nil, m.pairV.id, m.pairV.err)
	}
	dseq, pseq, shown := m.detail.seq, m.pairV.seq, m.pairV.p
	// A console result read from the snapshot about to be replaced.
	m.sql.seq++
	m = send(m, sqlCmd(ctx, m.sh.be, m.sql.seq, "SELECT count(*) FROM events WHERE type = 'run'")())
	if m.sql.res == nil || m.sql.res.rows[0][0] != "452" || m.sql.stale {
		t.Fatalf("console before: %+v err %v stale %v", m.sql.res, m.sql.err, m.sql.stale)
	}

	addRuns(t, path, 0, 3)
	mm, cmd = m.Update(followTickMsg{})
	m = mm.(Model)
	f := cmd().(followedMsg)
	if !f.changed || f.loaded.err != nil {
		t.Fatalf("grown file: %+v", f)
	}
	m = send(m, f)
	if m.detail.seq != dseq+1 || m.detail.loading != id || m.detail.d == nil || m.detail.d.RunID != id {
		t.Fatalf("detail after the refresh: seq %d loading %q shows %v", m.detail.seq, m.detail.loading, m.detail.d != nil)
	}
	if m.pairV.seq != pseq+1 || m.pairV.id != "candidate-1-00005" || m.pairV.p != shown || m.pairV.what != "" {
		t.Fatalf("pair after the refresh: seq %d id %q what %q", m.pairV.seq, m.pairV.id, m.pairV.what)
	}
	// The console keeps its result and says it is from before the growth;
	// enter runs the statement again on the new snapshot.
	if !m.sql.stale || !strings.Contains(m.sql.View(), "read before the database grew") {
		t.Fatalf("console after the refresh: stale %v\n%s", m.sql.stale, m.sql.View())
	}
	m.sql.seq++
	m = send(m, sqlCmd(ctx, m.sh.be, m.sql.seq, "SELECT count(*) FROM events WHERE type = 'run'")())
	if m.sql.stale || m.sql.res.rows[0][0] != "455" {
		t.Fatalf("console run again: %+v stale %v", m.sql.res, m.sql.stale)
	}
	// The view asks the new snapshot for exactly what it holds.
	m = send(m, detailCmd(ctx, m.sh.be, m.detail.seq, m.detail.loading)())
	m = send(m, pairCmd(ctx, m.sh.be, m.pairV.seq, m.pairV.id, m.pairV.filter, "baseline", "candidate")())
	if m.detail.loading != "" || m.detail.d.RunID != id || m.pairV.p == shown || m.pairV.p.Cand.RunID != "candidate-1-00005" ||
		m.pairV.p.Base.RunID != "baseline-1-00005" {
		t.Fatalf("after the answers: detail loading %q pair %v", m.detail.loading, m.pairV.p != nil)
	}
	if got := len(m.sh.ov.report.Suites); got != 3 {
		t.Fatalf("suites after following: %d, want 3 (the new runs are a suite of their own)", got)
	}
}
