package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/store"
)

// OpenScoped copies only the chosen suites' events (and the rejected lines
// of their files), and lets go of the file at once: a writer opens it while
// the copy is still in use.
func TestOpenScoped(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.duckdb")
	third := filepath.Join(dir, "third.jsonl")
	store.MustWrite(t, third, []byte(`{"type":"run","run_id":"n3","ts":"2026-11-30T02:00:00Z","suite":"night-3","started_at":"2026-11-30T02:00:00Z"}
{"type":"terminal","run_id":"n3","ts":"2026-11-30T02:00:07Z","terminal":"completed"}
not json
`))
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Files(ctx, db, []string{"../sample-traces/baseline.jsonl", "../sample-traces/candidate.jsonl", third}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	store.MustClose(t, db)

	var asked bool
	mem, suites, err := store.OpenScoped(ctx, path, store.Limits{}, func(ctx context.Context, conn *sql.Conn) ([]string, error) {
		asked = true
		var n int
		// The chooser reads the file being copied.
		if err := conn.QueryRowContext(ctx, "SELECT count(DISTINCT suite) FROM events WHERE type = 'run'").Scan(&n); err != nil || n != 3 {
			t.Errorf("the chooser sees %d suites (%v), want 3", n, err)
		}
		return []string{"candidate", "night-3"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, mem)
	if !asked || len(suites) != 2 || suites[0] != "candidate" {
		t.Fatalf("suites %v", suites)
	}
	var events, base, files, rejected int
	store.MustScan(t, mem.QueryRow("SELECT count(*), count(*) FILTER (WHERE run_id LIKE 'baseline%') FROM events"), &events, &base)
	store.MustScan(t, mem.QueryRow("SELECT count(*) FROM files"), &files)
	store.MustScan(t, mem.QueryRow("SELECT count(*) FROM rejected_lines"), &rejected)
	if events != 4003+2 || base != 0 || files != 3 || rejected != 1 {
		t.Fatalf("copied %d events (%d of baseline), %d files, %d rejected lines; want 4005, 0, 3, 1", events, base, files, rejected)
	}
	w, err := store.Open(ctx, path, store.Limits{LockWait: time.Second})
	if err != nil {
		t.Fatalf("the file is still locked after the copy: %v", err)
	}
	store.MustClose(t, w)

	all, suites, err := store.OpenScoped(ctx, path, store.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, all)
	store.MustScan(t, all.QueryRow("SELECT count(*) FROM events"), &events)
	if suites != nil || events != 2992+4003+2 {
		t.Fatalf("without a chooser: %v, %d events; want all 6997", suites, events)
	}
}

// Choosing "unknown" copies the runs that have no run event (and only
// those); a suite that is not there copies nothing but the files table.
func TestOpenScopedUnknown(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "t.duckdb")
	lines := filepath.Join(dir, "n.jsonl")
	store.MustWrite(t, lines, []byte(`{"type":"run","run_id":"a1","ts":"2026-11-30T02:00:00Z","suite":"a","started_at":"2026-11-30T02:00:00Z"}
{"type":"terminal","run_id":"a1","ts":"2026-11-30T02:00:07Z","terminal":"completed"}
{"type":"terminal","run_id":"u1","ts":"2026-11-30T02:00:08Z","terminal":"completed"}
{"type":"terminal","run_id":"u2","ts":"2026-11-30T02:00:09Z","terminal":"failed"}
`))
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Files(ctx, db, []string{lines}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	store.MustClose(t, db)
	for _, tc := range []struct {
		suite string
		want  string
	}{
		{"unknown", "u1 u2"},
		{"a", "a1 a1"},
		{"nope", ""},
	} {
		mem, _, err := store.OpenScoped(ctx, path, store.Limits{}, func(context.Context, *sql.Conn) ([]string, error) {
			return []string{tc.suite}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		var runs string
		var files int
		store.MustScan(t, mem.QueryRow("SELECT coalesce(string_agg(run_id, ' ' ORDER BY run_id), '') FROM events"), &runs)
		store.MustScan(t, mem.QueryRow("SELECT count(*) FROM files"), &files)
		store.MustClose(t, mem)
		if runs != tc.want || files != 1 {
			t.Errorf("%s: events of %q and %d files, want %q and 1", tc.suite, runs, files, tc.want)
		}
	}
}
