package ingest

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/queries"
)

// writeParquet makes a Parquet file with DuckDB from a SELECT.
func writeParquet(t *testing.T, dir, name, sel string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	db := openDB(t)
	if _, err := db.Exec("COPY (" + sel + ") TO " + queries.Literal(p) + " (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	return p
}

// Parquet rows go through the JSON Lines validation: a bad row is rejected
// with its row number, a timestamp column with a zone is read as an instant,
// and one without a zone is an error naming the column, nothing committed.
func TestParquetIngest(t *testing.T) {
	dir := t.TempDir()
	good := writeParquet(t, dir, "good.parquet", `
		SELECT * FROM (VALUES
		  ('run', 'r1', TIMESTAMPTZ '2026-11-28 10:00:00+08', 's', '2026-11-28T02:00:00Z', NULL),
		  ('stage', 'r1', TIMESTAMPTZ '2026-11-28 02:00:01+00', NULL, '2026-11-28T02:00:00Z', 'nonsense'),
		  ('terminal', 'r1', TIMESTAMPTZ '2026-11-28 02:00:05+00', NULL, NULL, NULL))
		  t(type, run_id, ts, suite, started_at, stage)`)
	db := openDB(t)
	res, err := File(context.Background(), db, good, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "parquet" || res.Lines != 3 || res.Accepted != 1 || res.Rejected != 2 {
		t.Fatalf("%+v", res)
	}
	var reasons string
	if err := db.QueryRow("SELECT string_agg(line_no || ' ' || reason, '; ' ORDER BY line_no) FROM rejected_lines").Scan(&reasons); err != nil {
		t.Fatal(err)
	}
	if reasons != "2 missing field stage_id; 3 missing field terminal" {
		t.Errorf("rejected: %s", reasons)
	}
	var ts string
	if err := db.QueryRow("SELECT strftime(ts, '%Y-%m-%dT%H:%M:%SZ') FROM events WHERE type = 'run'").Scan(&ts); err != nil {
		t.Fatal(err)
	}
	if ts != "2026-11-28T02:00:00Z" {
		t.Errorf("run ts %s, want the same instant in UTC", ts)
	}

	naive := writeParquet(t, dir, "naive.parquet", `SELECT 'run' AS type, 'r2' AS run_id, TIMESTAMP '2026-11-28 02:00:00' AS ts`)
	_, err = File(context.Background(), db, naive, Options{})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "column ts: a timestamp without a zone") {
		t.Fatalf("err = %v", err)
	}
	var files int
	if err := db.QueryRow("SELECT count(*) FROM files").Scan(&files); err != nil {
		t.Fatal(err)
	}
	if files != 1 {
		t.Errorf("files = %d: the naive file was committed", files)
	}
}
