package ui

import (
	"bytes"
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/serve/servetest"
	"github.com/faultlens/faultlens/store"
)

// addRuns writes runs first..first+count-1 into the database file, as the
// receiver would, and closes it again.
func addRuns(t *testing.T, path string, first, count int) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, store.Limits{Threads: 2, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	}()
	line := servetest.JSONLine(servetest.Runs(first, count))
	if _, err := ingest.OTLP(ctx, db, bytes.NewReader(line), "test", ingest.Options{}); err != nil {
		t.Fatal(err)
	}
}

// TestFollow: a following dashboard does nothing while the file stays as it
// was, and shows the new runs once the file has grown, without a restart.
func TestFollow(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "followed.duckdb")
	addRuns(t, path, 0, 2)
	lim := store.Limits{Threads: 2, TempDir: t.TempDir()}
	open := func(ctx context.Context) (*sql.DB, func(), error) {
		db, _, err := store.OpenScoped(ctx, path, lim, nil)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { _ = db.Close() }, nil // an in-memory copy: nothing to lose
	}
	reopens := 0
	reopen := func(ctx context.Context) (*sql.DB, func(), error) {
		reopens++
		return open(ctx)
	}
	db, release, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := New(ctx, Options{DB: db, Follow: &Follow{Every: time.Hour, Path: path, Reopen: reopen, Release: release}})
	defer m.follow.close()
	defer m.sh.be.close()
	next, _ := m.Update(loadCmd(ctx, m.sh.be, m.loadSeq)())
	m = next.(Model)
	if got := m.sh.ov.report.Suites[0].Runs; got != 2 {
		t.Fatalf("runs at start: %d", got)
	}

	// The first look reads once: a commit between the first read and the
	// follower's start must not be missed.
	next, cmd := m.Update(followTickMsg{})
	m = next.(Model)
	msg := cmd()
	if f, ok := msg.(followedMsg); !ok || !f.changed || reopens != 1 {
		t.Fatalf("first look: %#v, %d reads", msg, reopens)
	}
	next, _ = m.Update(msg)
	m = next.(Model)

	next, cmd = m.Update(followTickMsg{})
	msg = cmd()
	if f, ok := msg.(followedMsg); !ok || f.changed || reopens != 1 {
		t.Fatalf("unchanged file: %#v, %d reads", msg, reopens)
	}
	m = next.(Model)

	addRuns(t, path, 2, 3)
	next, cmd = m.Update(followTickMsg{})
	m = next.(Model)
	msg = cmd()
	if f, ok := msg.(followedMsg); !ok || !f.changed || f.loaded.err != nil {
		t.Fatalf("grown file: %#v", msg)
	}
	next, _ = m.Update(msg)
	m = next.(Model)
	if got := m.sh.ov.report.Suites[0].Runs; got != 5 || reopens != 2 {
		t.Errorf("runs after following: %d (%d reads), want 5 (2)", got, reopens)
	}
	if !strings.HasPrefix(m.sh.status, "following "+path+": updated ") {
		t.Errorf("status %q", m.sh.status)
	}
}
