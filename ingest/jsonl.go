package ingest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/faultlens/faultlens/queries"
)

// ingestJSONL loads one JSON Lines file (plain or gzip).
// name is what the file is recorded and shown as; a gzip file is
// decompressed into tmpDir ("": the system temp dir).
func ingestJSONL(ctx context.Context, db *sql.DB, path, name, tmpDir string) (FileResult, error) {
	res := FileResult{Format: "jsonl"}
	plain, cleanup, sc, err := readAndScan(path, tmpDir)
	if err != nil {
		return res, err
	}
	defer cleanup()
	res.SHA256, res.Bytes = sc.sha256, sc.bytes

	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer conn.Close()
	defer conn.ExecContext(context.WithoutCancel(ctx), queries.Get("ingest.drop_temp"))
	restore, err := boundThreads(ctx, conn)
	if err != nil {
		return res, err
	}
	defer restore()

	res.Lines, res.Blank = sc.lines, sc.blank
	return res, storeLines(ctx, conn, plain, name, &res, !sc.suspect)
}

// storeLines validates and stores the JSON lines of plain (the file named
// name to the user): through DuckDB's reader in one statement when fast is
// allowed and the file is clean, else line by line. Arrow and Parquet input
// arrive here as JSON lines too.
func storeLines(ctx context.Context, conn *sql.Conn, plain, name string, res *FileResult, fast bool) error {
	if fast && commitFast(ctx, conn, plain, name, res) {
		return nil
	}
	c, err := loadLines(ctx, conn, plain)
	if err != nil {
		return err
	}
	res.Lines, res.Blank = c.lines, c.blank
	return commitFile(ctx, conn, name, res, c.rejected)
}

// readAndScan hashes and counts the file; a .gz file is decompressed into a
// temporary file in tmpDir first so that both load paths read plain text.
func readAndScan(path, tmpDir string) (plain string, cleanup func(), sc scan, err error) {
	cleanup = func() {}
	rc, err := fileContent(path)
	if err != nil {
		return "", cleanup, sc, err
	}
	defer rc.Close()
	if !strings.HasSuffix(strings.ToLower(path), ".gz") {
		sc, err = prescan(rc, nil)
		return path, cleanup, sc, err
	}
	tmp, err := os.CreateTemp(tmpDir, "faultlens-*.jsonl")
	if err != nil {
		return "", cleanup, sc, err
	}
	cleanup = func() { os.Remove(tmp.Name()) }
	sc, err = prescan(rc, tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return "", func() {}, sc, fmt.Errorf("corrupt gzip: %w", err)
	}
	return tmp.Name(), cleanup, sc, nil
}

// openFile pins a connection for ingesting the file whose hash res holds.
// When that content is already stored it sets res.Duplicate and returns no
// connection: there is nothing to do.
func openFile(ctx context.Context, db *sql.DB, res *FileResult) (*sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	prev, err := alreadyIngested(ctx, conn, res.SHA256)
	if err != nil || prev != "" {
		conn.Close()
		res.Duplicate = prev
		return nil, err
	}
	return conn, nil
}

func alreadyIngested(ctx context.Context, conn *sql.Conn, sha string) (string, error) {
	var prev string
	err := conn.QueryRowContext(ctx, "SELECT path FROM files WHERE sha256 = ?", sha).Scan(&prev)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return prev, err
}

// errNotClean stops the fast path: the file holds something only the
// line-precise path can account for.
var errNotClean = errors.New("not clean")

// commitFast stores a clean file in one statement and one transaction:
// first through DuckDB's typed reader (commitTyped), else through its NDJSON
// object reader feeding the JSON validation, whose first rejected row fails
// the insert. It reports true only when every non-blank line became an
// event, so nothing can have been lost or merged; otherwise it has rolled
// back and the line-precise path decides (and reports any error that is not
// the file's).
func commitFast(ctx context.Context, conn *sql.Conn, path, name string, res *FileResult) bool {
	switch commitTyped(ctx, conn, path, name, res) {
	case routeStored:
		return true
	case routePrecise:
		return false
	}
	src := queries.Render("ingest.fast_source", queries.Args{"path": queries.Literal(path)})
	return commitFastChecked(ctx, conn, jsonChecked(src), queries.Get("ingest.extra_json"), name, res)
}

// commitFastChecked is commitFast over any checked relation (ingest.checked
// over a typed one), extra computed by the SQL expression extra.
func commitFastChecked(ctx context.Context, conn *sql.Conn, checked, extra, name string, res *FileResult) bool {
	return commitFastRows(ctx, conn, checked, extra, name, res) == nil
}

// commitFastRows is commitFastChecked returning why the rows were refused:
// errNotClean, or the error of the statement (a rejected row fails it).
func commitFastRows(ctx context.Context, conn *sql.Conn, checked, extra, name string, res *FileResult) error {
	rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": checked})
	insert := insertEvents(rows, extra)
	fast := *res
	fast.FastPath = true
	err := inTransaction(ctx, conn, func(fileID int64) error {
		r, err := conn.ExecContext(ctx, insert, fileID)
		if err != nil {
			return err
		}
		if fast.Accepted, err = r.RowsAffected(); err != nil {
			return err
		}
		fast.Events = fast.Accepted
		if fast.Accepted != fast.Lines-fast.Blank {
			return errNotClean
		}
		var dups int64
		if err := conn.QueryRowContext(ctx, queries.Get("ingest.new_duplicates"), fileID, fileID).Scan(&dups); err != nil {
			return err
		}
		if dups > 0 {
			return errNotClean
		}
		return recordFile(ctx, conn, fileID, name, &fast)
	})
	if err != nil {
		return err
	}
	*res = fast
	return nil
}

// loadLines is the line-precise path's first half: Go numbers the lines and
// appends them to a temporary table; commitFile validates them with the
// same SQL, chunk by chunk.
func loadLines(ctx context.Context, conn *sql.Conn, path string) (lineCounts, error) {
	var c lineCounts
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.lines_table")); err != nil {
		return c, err
	}
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	err = conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppender(dc.(driver.Conn), "temp", "main", "ingest_lines")
		if err != nil {
			return err
		}
		c, err = splitLines(io.Reader(f), app)
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

// ChunkLines, when above zero, is how many lines the line-precise path
// validates at a time (tests force many chunks with it). At zero, the
// default, the chunk follows the memory limit: chunkLinesPer256MiB lines
// for every 256 MiB of it. Each chunk is checked into ingest_checked and
// stored before the next, so the memory the validation needs is bounded by
// the chunk, not the file (issue 15.7). A duplicate of an event of an
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
	var limit string
	if err := conn.QueryRowContext(ctx, "SELECT current_setting('memory_limit')").Scan(&limit); err != nil {
		return 0, fmt.Errorf("read memory limit: %w", err)
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
	if err := conn.QueryRowContext(ctx, "SELECT coalesce(max(line_no), 0) FROM ingest_lines").Scan(&last); err != nil {
		return nil, err
	}
	chunk, err := chunkLines(ctx, conn)
	if err != nil {
		return nil, err
	}
	var steps []func() error
	for lo := int64(1); lo <= max(last, 1); lo += chunk {
		src := fmt.Sprintf("(SELECT * FROM %s WHERE line_no BETWEEN %d AND %d)",
			queries.Get("ingest.lines_source"), lo, lo+chunk-1)
		q := strings.ReplaceAll(queries.Get("ingest.check"), "{{checked}}", jsonChecked(src))
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
	return rules(strings.ReplaceAll(queries.Get("ingest.json_typed"), "{{source}}", source))
}

// rules is ingest.checked, the contract's rules, over the typed relation
// typed (see ingest.json_typed for its columns).
func rules(typed string) string {
	return strings.ReplaceAll(queries.Get("ingest.checked"), "{{typed}}", typed)
}

// insertEvents is the INSERT of rows into events for the file whose id is
// the statement's parameter, extra computed by the SQL expression extra.
func insertEvents(rows, extra string) string {
	return insertEventsAs(rows, extra, "?")
}

// insertEventsAs is insertEvents with the file id computed by the SQL
// expression fileID (a batch of files takes it from the rows).
func insertEventsAs(rows, extra, fileID string) string {
	return strings.NewReplacer("{{rows}}", rows, "{{extra}}", extra, "{{file_id}}", fileID).Replace(queries.Get("ingest.insert_events"))
}

// commitFile validates the lines of ingest_lines, chunk by chunk, and
// writes the line-precise path's events, rejected lines and accounting in
// one transaction.
func commitFile(ctx context.Context, conn *sql.Conn, path string, res *FileResult, goRejects []rejectedLine) error {
	return commitFileWith(ctx, conn, path, res, goRejects, nil)
}

// commitFileWith is commitFile with before run first in the transaction.
// before returns how many stored events it removed (OTLP replaces the runs
// of a trace that earlier files wrote, see ingest/otlp.go), and the file's
// Events are net of them, so that totals add up to the events stored. The
// chunks are validated after before ran, so their duplicates are judged
// against the events that stay.
func commitFileWith(ctx context.Context, conn *sql.Conn, path string, res *FileResult, goRejects []rejectedLine,
	before func(fileID int64) (removed int64, err error)) error {
	steps, err := checkLineChunks(ctx, conn)
	if err != nil {
		return err
	}
	return commitChecked(ctx, conn, path, res, goRejects, queries.Get("ingest.extra_json"), steps, before)
}

// commitChecked writes events, rejected lines and accounting in one
// transaction, extra computed by the SQL expression extra over
// ingest_checked. before (if not nil) runs first, as for commitFileWith.
// Each step fills ingest_checked and ingest_dups with one chunk, which is
// then stored; no steps means they are filled already.
func commitChecked(ctx context.Context, conn *sql.Conn, path string, res *FileResult, goRejects []rejectedLine, extra string,
	steps []func() error, before func(fileID int64) (removed int64, err error)) error {
	insert := insertEvents(queries.Get("ingest.valid_checked"), extra)
	if len(steps) == 0 {
		steps = []func() error{func() error { return nil }}
	}
	return inTransaction(ctx, conn, func(fileID int64) error {
		var removed int64
		if before != nil {
			var err error
			if removed, err = before(fileID); err != nil {
				return err
			}
		}
		res.Events = 0
		for _, step := range steps {
			if err := step(); err != nil {
				return err
			}
			r, err := conn.ExecContext(ctx, insert, fileID)
			if err != nil {
				return fmt.Errorf("store events: %w", err)
			}
			n, err := r.RowsAffected()
			if err != nil {
				return err
			}
			res.Events += n
			if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_checked"), fileID, path); err != nil {
				return fmt.Errorf("store rejected lines: %w", err)
			}
		}
		res.Accepted = res.Events
		if res.Format == "otlp" {
			// Events come from spans; the lines accepted are the span lines.
			res.Accepted = res.spanLines
		}
		res.Events -= removed
		for _, rj := range goRejects {
			if _, err := conn.ExecContext(ctx, "INSERT INTO rejected_lines VALUES (?, ?, ?, ?, ?)",
				fileID, path, rj.line, rj.reason, rj.text); err != nil {
				return fmt.Errorf("store rejected line: %w", err)
			}
		}
		if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_lines"), fileID, path); err != nil {
			return fmt.Errorf("store rejected lines: %w", err)
		}
		if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM rejected_lines WHERE file_id = ?", fileID).Scan(&res.Rejected); err != nil {
			return err
		}
		if res.Format == "otlp" {
			res.RejectedEvents = res.Rejected - int64(len(goRejects))
		}
		return recordFile(ctx, conn, fileID, path, res)
	})
}

// inTransaction runs fn in a transaction on conn, passing it the id the file
// gets, and commits; on any error it rolls back.
func inTransaction(ctx context.Context, conn *sql.Conn, fn func(fileID int64) error) (err error) {
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	var fileID int64
	if err := conn.QueryRowContext(ctx, "SELECT coalesce(max(file_id), 0) + 1 FROM files").Scan(&fileID); err != nil {
		return err
	}
	if err := fn(fileID); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}

// recordFile checks the accounting and adds the file's row to files.
func recordFile(ctx context.Context, conn *sql.Conn, fileID int64, path string, res *FileResult) error {
	res.FileID = fileID
	if !res.Balanced() {
		return fmt.Errorf("internal accounting error: %d lines != %d accepted + %d rejected + %d blank",
			res.Lines, res.Accepted, res.Rejected, res.Blank)
	}
	if _, err := conn.ExecContext(ctx,
		"INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now())",
		fileID, path, res.SHA256, res.Format, res.Bytes, res.Lines, res.Accepted, res.Rejected, res.Blank, res.Skipped); err != nil {
		return fmt.Errorf("record file: %w", err)
	}
	return nil
}
