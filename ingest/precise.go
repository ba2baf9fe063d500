package ingest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/faultlens/faultlens/queries"
)

// The line-precise path: Go numbers and appends the lines, and the same
// validation SQL checks them chunk by chunk, so that every bad line is
// rejected with its number and reason.

// loadLines is the line-precise path's first half: Go numbers the lines and
// appends them to a temporary table; commitFile validates them with the
// same SQL, chunk by chunk.
func loadLines(ctx context.Context, conn *sql.Conn, path string) (lineCounts, error) {
	f, err := os.Open(path)
	if err != nil {
		return lineCounts{}, err
	}
	defer closeQuietly(f)
	return loadLinesFrom(ctx, conn, f)
}

// loadLinesFrom is loadLines over the lines of r (OTLP streams its events).
func loadLinesFrom(ctx context.Context, conn *sql.Conn, r io.Reader) (lineCounts, error) {
	var c lineCounts
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.lines_table")); err != nil {
		return c, err
	}
	err := conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "ingest_lines")
		if err != nil {
			return err
		}
		c, err = splitLines(r, app)
		if cerr := app.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		return c, fmt.Errorf("read lines: %w", err)
	}
	return c, nil
}

// ChunkLines is, when above zero, how many lines the line-precise path
// validates at a time (tests force many chunks with it). At zero, the
// default, the chunk follows the memory limit: chunkLinesPer256MiB lines
// for every 256 MiB of it. Each chunk is checked into ingest_checked and
// stored before the next, so the memory the validation needs is bounded by
// the chunk, not the file. A duplicate of an event of an
// earlier chunk is found among the events already stored, as one of an
// earlier file is.
var ChunkLines int64

// chunkLinesPer256MiB: 50,000 lines validate within --memory-limit 256MB
// on one thread (docs/scaling.md). Every chunk costs a pass over the
// file's lines and over the stored events of its runs, so chunks as large
// as the limit allows keep a file with bad lines near its one-chunk time
// (624k lines, 1 % bad: 17.7 s in one chunk, 27.9 s in 50,000-line chunks).
const chunkLinesPer256MiB = 50000

// chunkLines is the chunk of the line-precise path on conn: ChunkLines if
// set, else chunkLinesPer256MiB per 256 MiB of DuckDB's memory limit.
func chunkLines(ctx context.Context, conn *sql.Conn) (int64, error) {
	if ChunkLines > 0 {
		return ChunkLines, nil
	}
	limit, _, err := readLimits(ctx, conn)
	if err != nil {
		return 0, err
	}
	bytes, ok := parseDuckDBSize(limit)
	if !ok {
		return chunkLinesPer256MiB, nil
	}
	return max(chunkLinesPer256MiB, chunkLinesPer256MiB*(bytes/(256<<20))), nil
}

// checkLineChunks returns the steps that check the lines of ingest_lines
// chunk by chunk into ingest_checked and ingest_dups.
func checkLineChunks(ctx context.Context, conn *sql.Conn) ([]func() error, error) {
	var last int64
	if err := conn.QueryRowContext(ctx, queries.Get("ingest.last_line")).Scan(&last); err != nil {
		return nil, err
	}
	chunk, err := chunkLines(ctx, conn)
	if err != nil {
		return nil, err
	}
	var steps []func() error
	for lo := int64(1); lo <= max(last, 1); lo += chunk {
		src := queries.Render("ingest.lines_source", queries.Args{
			"first": strconv.FormatInt(lo, 10), "last": strconv.FormatInt(lo+chunk-1, 10)})
		q := queries.Render("ingest.check", queries.Args{"checked": jsonChecked(src)})
		steps = append(steps, func() error {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("validate: %w", err)
			}
			if _, err := conn.ExecContext(ctx, queries.Get("ingest.find_duplicates")); err != nil {
				return fmt.Errorf("find duplicate events: %w", err)
			}
			return nil
		})
	}
	return steps, nil
}

// jsonChecked is the validation of the JSON objects of source (a relation
// of line_no, raw and text): JSON typing, then the contract's rules.
func jsonChecked(source string) string {
	return rules(jsonTyped(source))
}

// rules is ingest.checked, the contract's rules, over the typed relation
// typed (see ingest.json_typed for its columns).
func rules(typed string) string {
	return rulesProven(typed, false)
}

// rulesScanned is rules over the typed read of the lines of verdict
// lineTyped of the file whose prescan is sc: when the key/type scan proved
// every timestamp of those lines of the regexes' form, the regexes are
// skipped (the casts still judge the calendar).
// rt.NoTSProof judges them by the regexes all the same (benchmarks
// compare the two).
func rulesScanned(typed string, sc *scan, rt Routes) string {
	return rulesProven(typed, sc.tsOdd == 0 && !rt.NoTSProof)
}

// rulesProven is ingest.checked with its timestamp regexes skipped when
// proven (ts_proven).
func rulesProven(typed string, proven bool) string {
	return queries.Render("ingest.checked", queries.Args{"typed": typed, "ts_proven": strconv.FormatBool(proven)})
}
