package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/faultlens/faultlens/queries"
)

// validationThreadBytes is the memory one DuckDB thread needs to run the
// JSON validation (ingest.json_typed and ingest.checked): every JSON
// function in it keeps per-thread state that the buffer manager cannot
// spill, so the need grows with the threads, not with the file. Measured on
// an 84 MB file (docs/scaling.md): 256 MB works with one thread and fails
// with two; 512 MB works with two.
const validationThreadBytes = 200 << 20

// boundThreads lowers DuckDB's thread count for the ingest of one file so
// that every thread has validationThreadBytes of the memory limit, and
// returns the function that restores it. With the default limit (1536 MB)
// on this size of machine nothing changes; with --memory-limit 256MB the
// validation runs on one thread instead of running out of memory.
func boundThreads(ctx context.Context, conn *sql.Conn) (restore func(), err error) {
	restore = func() {}
	limit, threads, err := readLimits(ctx, conn)
	if err != nil {
		return restore, err
	}
	bytes, ok := parseDuckDBSize(limit)
	if !ok {
		return restore, nil // unknown or unlimited: leave it
	}
	want := max(1, bytes/validationThreadBytes)
	if want >= threads {
		return restore, nil
	}
	if _, err := conn.ExecContext(ctx, setThreads(want)); err != nil {
		return restore, fmt.Errorf("limit threads: %w", err)
	}
	return func() {
		// A failure leaves fewer threads on a connection that is closed
		// after this file: slower, never wrong.
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), setThreads(threads))
	}, nil
}

// setThreads is the statement that sets DuckDB's thread count to n.
func setThreads(n int64) string {
	return queries.Render("ingest.set_threads", queries.Args{"threads": strconv.FormatInt(n, 10)})
}

// readLimits returns DuckDB's memory limit as it prints it and its thread
// count.
func readLimits(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (limit string, threads int64, err error) {
	if err := q.QueryRowContext(ctx, queries.Get("ingest.limits")).Scan(&limit, &threads); err != nil {
		return "", 0, fmt.Errorf("read limits: %w", err)
	}
	return limit, threads, nil
}

// parseDuckDBSize reads a size as DuckDB prints a setting ("244.1 MiB",
// "1.4 GiB", "512 bytes").
func parseDuckDBSize(s string) (int64, bool) {
	num, unit, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v > 0) { // NaN too
		return 0, false
	}
	mult := map[string]float64{
		"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
		"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	}[unit]
	if mult == 0 || v*mult >= 1<<62 || v*mult < 1 {
		return 0, false
	}
	return int64(v * mult), true
}
