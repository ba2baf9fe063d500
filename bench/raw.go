package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
)

// rawScanSQL is the raw figure beside the report and the comparison: one
// plain aggregation over the stored events, a lower bound for any query
// that must read them all.
var rawScanSQL = queries.Get("raw.scan")

// notes say what each raw figure is; Write prints them under the table.
var notes = []string{
	"raw read_ndjson: CREATE TABLE t AS SELECT * FROM read_ndjson([clean files], columns={every contract field and type}) into a fresh in-memory DuckDB with the same limits; rows 1 and 2 share it (the clean file), as the targets ask.",
	"raw arrow-go read + insert: reading every record batch of the .arrow file with arrow-go's ipc.FileReader, plus CREATE TABLE t AS SELECT * FROM read_parquet(copy) of the same columns written beforehand (untimed) as Parquet, the fastest DuckDB insert of Arrow columns in a build without the duckdb_arrow tag (docs/arrow.md compares the Appender and the tag's Arrow scan, RegisterView).",
	"ingest Arrow vs JSON Lines: the same Arrow ingest beside faultlens's own JSON Lines ingest of the same events (row 1); target: no slower.",
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
	defer func() { _ = db.Close() }() // in memory, the figure already taken
	q := queries.Render("raw.read_ndjson", queries.Args{"files": "[" + queries.Literals(paths) + "]"})
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, q); err != nil {
		return 0, fmt.Errorf("raw read_ndjson: %w", err)
	}
	d := time.Since(t0)
	var n int64
	if err := db.QueryRowContext(ctx, queries.Get("raw.count_events")).Scan(&n); err != nil || n != want {
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
	defer func() { _ = f.Close() }() // read only
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return 0, fmt.Errorf("raw arrow: %w", err)
	}
	defer func() { _ = r.Close() }() // a reader: nothing to flush
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

// rawArrowInsert copies the Arrow file at path into a Parquet file in dir
// (untimed) and returns how long DuckDB takes to load that file's columns
// into a table of a fresh database: the insert half of the raw figure beside
// the Arrow ingest.
func rawArrowInsert(ctx context.Context, lim store.Limits, path, dir string, want int64) (time.Duration, error) {
	pq := filepath.Join(dir, "raw-arrow-copy.parquet")
	defer func() { _ = os.Remove(pq) }() // scratch in the bench's own directory, removed with it anyway
	if err := arrowToParquet(path, pq); err != nil {
		return 0, fmt.Errorf("raw arrow insert: %w", err)
	}
	db, err := store.Open(ctx, "", lim)
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close() }() // in memory, the figure already taken
	t0 := time.Now()
	if _, err := db.ExecContext(ctx, queries.Render("raw.arrow_insert", queries.Args{"path": queries.Literal(pq)})); err != nil {
		return 0, fmt.Errorf("raw arrow insert: %w", err)
	}
	d := time.Since(t0)
	var n int64
	if err := db.QueryRowContext(ctx, queries.Get("raw.count_arrow")).Scan(&n); err != nil || n != want {
		return 0, fmt.Errorf("raw arrow insert: %d rows (%v), want %d", n, err, want)
	}
	return d, nil
}

// arrowToParquet writes the records of the Arrow IPC file at src to the
// Parquet file dst, uncompressed, as ingest does.
func arrowToParquet(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read only
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }() // a reader: nothing to flush
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDictionaryDefault(false), parquet.WithStats(false), parquet.WithMaxRowGroupLength(122880))
	w, err := pqarrow.NewFileWriter(r.Schema(), out, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		_ = out.Close() // nothing written; the writer's error says why
		return err
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			_ = w.Close() // the copy is abandoned; the read error says why
			return err
		}
		if err := w.WriteBuffered(rec); err != nil {
			_ = w.Close() // the copy is abandoned; the write error says why
			return err
		}
	}
	return w.Close()
}

// rawScan runs rawScanSQL over db's events and returns how long it took.
func rawScan(ctx context.Context, db *sql.DB) (time.Duration, error) {
	t0 := time.Now()
	rows, err := db.QueryContext(ctx, rawScanSQL)
	if err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("raw scan: %w", err)
	}
	return time.Since(t0), nil
}
