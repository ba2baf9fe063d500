package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
)

// rawScanSQL is the raw figure beside the report and the comparison: one
// plain aggregation over the stored events, a lower bound for any query
// that must read them all.
const rawScanSQL = `SELECT type, tool, status, count(*), count(DISTINCT run_id),
       avg(date_diff('millisecond', started_at, ended_at)), min(ts), max(ts)
FROM events GROUP BY ALL`

// notes say what each raw figure is; Write prints them under the table.
var notes = []string{
	"raw read_ndjson: CREATE TABLE t AS SELECT * FROM read_ndjson([clean files], columns={every contract field and type}) into a fresh in-memory DuckDB with the same limits; rows 1 and 2 share it (the clean file), as the targets ask.",
	"raw arrow-go: reading every record batch of the .arrow file with arrow-go's ipc.FileReader. DuckDB's zero-copy Arrow RegisterView needs the duckdb_arrow build tag, which this build does not use, so there is no DuckDB Arrow figure.",
	"raw GROUP BY: " + strings.Join(strings.Fields(rawScanSQL), " ") + " over the ingested events table (one full scan).",
	"views: the data call behind each dashboard view on one metrics session whose fact tables are built (as the dashboard does at start), median of 3 calls.",
	"peak RSS is getrusage's ru_maxrss of this process so far (Go heap and DuckDB together).",
}

// rawNDJSON loads paths with DuckDB's typed NDJSON reader into a table of
// a fresh database and returns how long the load took.
func rawNDJSON(ctx context.Context, lim store.Limits, paths []string, want int64) (time.Duration, error) {
	db, err := store.Open(ctx, "", lim)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = store.Quote(p)
	}
	q := strings.ReplaceAll(queries.Get("raw.read_ndjson"), "{{files}}", "["+strings.Join(quoted, ", ")+"]")
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, q); err != nil {
		return 0, fmt.Errorf("raw read_ndjson: %w", err)
	}
	d := time.Since(t0)
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM raw_events").Scan(&n); err != nil || n != want {
		return 0, fmt.Errorf("raw read_ndjson: %d rows (%v), want %d", n, err, want)
	}
	return d, nil
}

// rawArrow reads every record batch of the Arrow IPC file at path and
// returns how long that took.
func rawArrow(path string, want int64) (time.Duration, error) {
	t0 := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return 0, fmt.Errorf("raw arrow: %w", err)
	}
	defer r.Close()
	var rows int64
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return 0, fmt.Errorf("raw arrow: %w", err)
		}
		rows += rec.NumRows()
	}
	d := time.Since(t0)
	if rows != want {
		return 0, fmt.Errorf("raw arrow: %d rows, want %d", rows, want)
	}
	return d, nil
}

// rawScan runs rawScanSQL over db's events and returns how long it took.
func rawScan(ctx context.Context, db *sql.DB) (time.Duration, error) {
	t0 := time.Now()
	rows, err := db.QueryContext(ctx, rawScanSQL)
	if err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	return time.Since(t0), nil
}
