package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
)

// pruneFixture: suite "old" (2020, file 1, OTLP trace t-old, one rejected
// line), suite "new" (2099, file 2, trace t-new, and a run in file 1 too,
// so that file 1 stays), and file 3 that holds only non-agent spans (trace
// t-none, no events); a cache row per suite; a rejected-event note per trace.
const pruneFixture = `
INSERT INTO files VALUES
  (1, 'old.jsonl', 'sha-1', 'otlp', 10, 3, 2, 1, 0, 0, '2020-01-01T03:00:00Z'),
  (2, 'new.jsonl', 'sha-2', 'otlp', 10, 1, 1, 0, 0, 0, '2099-01-01T03:00:00Z'),
  (3, 'none.jsonl', 'sha-3', 'otlp', 10, 1, 0, 0, 0, 1, '2099-01-01T03:00:00Z');
INSERT INTO events (file_id, type, run_id, ts, suite, started_at, extra) VALUES
  (1, 'run', 'o1', '2020-01-01T02:00:00Z', 'old', '2020-01-01T02:00:00Z', '{"otel":{"trace_id":"t-old"}}'),
  (1, 'tool_call', 'o1', '2020-01-01T02:00:01Z', NULL, NULL, '{"otel":{"trace_id":"t-old"}}'),
  (2, 'run', 'n1', '2099-01-01T02:00:00Z', 'new', '2099-01-01T02:00:00Z', '{"otel":{"trace_id":"t-new"}}'),
  (1, 'run', 'n2', '2099-01-01T02:00:00Z', 'new', '2099-01-01T02:00:00Z', NULL);
INSERT INTO rejected_lines VALUES (1, 'old.jsonl', 3, 'not json', 'x');
INSERT INTO otlp_spans VALUES ('t-old', 1, 'a'::BLOB), ('t-new', 2, 'b'::BLOB), ('t-none', 3, 'c'::BLOB);
INSERT INTO otlp_rejected VALUES ('t-old', 1, 3, 'x'), ('t-new', 2, 1, 'y'), ('t-none', 3, 1, 'z');
INSERT INTO suite_metrics VALUES ('old', 'v', now(), '{}', 1), ('new', 'v', now(), '{}', 3);
INSERT OR REPLACE INTO faultlens_meta VALUES ('cache_files_upto', '3');
`

func TestPrune(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.duckdb")
	db, err := store.Open(ctx, path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{queries.Get("otlp.tables"), pruneFixture} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	store.MustClose(t, db)
	cutoff := time.Date(2050, 1, 1, 0, 0, 0, 0, time.UTC)

	dry, err := store.Prune(ctx, path, store.Limits{}, cutoff, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(dry.Suites) != 1 || dry.Suites[0].Suite != "old" || dry.Suites[0].Runs != 1 ||
		!dry.Suites[0].Started.Equal(time.Date(2020, 1, 1, 2, 0, 0, 0, time.UTC)) || dry.Rewritten {
		t.Fatalf("dry run: %+v", dry)
	}
	if got := state(t, path); got != "events 4, files 3, rejected 1, spans t-new t-none t-old, noted t-new t-none t-old, cache new>2 old, watermark 3" {
		t.Fatalf("a dry run changed the database: %s", got)
	}

	res, err := store.Prune(ctx, path, store.Limits{}, cutoff, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Suites) != 1 || !res.Rewritten || res.After == 0 {
		t.Fatalf("prune: %+v", res)
	}
	// The spans of old's trace go though their file stays (it holds a run of
	// "new"). File 3 held no events, so it is forgotten, and its spans with
	// it; the notes of rejected events follow their traces' spans; the cache
	// row of "new" and the watermark are capped at file 2.
	if got := state(t, path); got != "events 2, files 2, rejected 1, spans t-new, noted t-new, cache new, watermark 2" {
		t.Fatalf("after the prune: %s", got)
	}

	again, err := store.Prune(ctx, path, store.Limits{}, cutoff, false)
	if err != nil || len(again.Suites) != 0 || again.Rewritten {
		t.Fatalf("a second prune: %+v, %v", again, err)
	}
}

// state summarises the database at path in one line.
func state(t *testing.T, path string) string {
	t.Helper()
	db, err := store.OpenReadOnly(context.Background(), path, store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.MustClose(t, db)
	var s string
	err = db.QueryRow(`SELECT format('events {}, files {}, rejected {}, spans {}, noted {}, cache {}, watermark {}',
		(SELECT count(*) FROM events), (SELECT count(*) FROM files), (SELECT count(*) FROM rejected_lines),
		(SELECT string_agg(trace_id, ' ' ORDER BY trace_id) FROM otlp_spans),
		(SELECT string_agg(trace_id, ' ' ORDER BY trace_id) FROM otlp_rejected),
		(SELECT string_agg(suite || (CASE WHEN files_upto > 2 THEN '>2' ELSE '' END), ' ' ORDER BY suite)
		 FROM suite_metrics),
		(SELECT value FROM faultlens_meta WHERE key = 'cache_files_upto'))`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
