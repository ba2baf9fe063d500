package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/queries"
)

// What every path shares: the connection for one file, the transaction that
// stores its events, rejected lines and accounting, and the files row.

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
		closeQuietly(conn)
		res.Duplicate = prev
		return nil, err
	}
	return conn, nil
}

func alreadyIngested(ctx context.Context, conn *sql.Conn, sha string) (string, error) {
	var prev string
	err := conn.QueryRowContext(ctx, queries.Get("ingest.file_by_hash"), sha).Scan(&prev)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return prev, err
}

// insertEvents is the INSERT of rows into events for the file whose id is
// the statement's parameter, extra computed by the SQL expression extra.
func insertEvents(rows, extra string) string {
	return insertEventsAs(rows, extra, "?")
}

// insertEventsAs is insertEvents with the file id computed by the SQL
// expression fileID (a batch of files takes it from the rows).
func insertEventsAs(rows, extra, fileID string) string {
	return queries.Render("ingest.insert_events", queries.Args{"rows": rows, "extra": extra, "file_id": fileID})
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
	return commitChecked(ctx, conn, path, res, goRejects, extraJSON(), steps, before)
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
			n, err := storeChunk(ctx, conn, insert, fileID, path)
			if err != nil {
				return err
			}
			res.Events += n
		}
		res.Accepted = res.Events
		if res.Format == "otlp" {
			// Events come from spans; the lines accepted are the span lines.
			res.Accepted = res.spanLines
		}
		res.Events -= removed
		for _, rj := range goRejects {
			if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_line"),
				fileID, path, rj.line, rj.reason, rj.text); err != nil {
				return fmt.Errorf("store rejected line: %w", err)
			}
		}
		if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_lines"), fileID, path); err != nil {
			return fmt.Errorf("store rejected lines: %w", err)
		}
		if err := conn.QueryRowContext(ctx, queries.Get("ingest.count_rejected"), fileID).Scan(&res.Rejected); err != nil {
			return err
		}
		if res.Format == "otlp" {
			res.RejectedEvents = res.Rejected - int64(len(goRejects))
			if err := recordRejectedEvents(ctx, conn, fileID, res.RejectedEvents); err != nil {
				return err
			}
		}
		return recordFile(ctx, conn, fileID, path, res)
	})
}

// inTransaction runs fn in a transaction on conn, passing it the id the file
// gets, and commits; on any error it rolls back.
func inTransaction(ctx context.Context, conn *sql.Conn, fn func(fileID int64) error) (err error) {
	// BEGIN, ROLLBACK and COMMIT are the one-line transaction control
	// statements left inline: there is nothing to name or fill in them.
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			// The error that led here is the one to report; a failed ROLLBACK
			// leaves the transaction to end with the connection.
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	var fileID int64
	if err := conn.QueryRowContext(ctx, queries.Get("ingest.next_file_id")).Scan(&fileID); err != nil {
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
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_file"), fileID, path, res.SHA256, res.Format, res.Bytes, res.Lines, res.Accepted, res.Rejected, res.Blank, res.Skipped); err != nil {
		return fmt.Errorf("record file: %w", err)
	}
	return nil
}

// storeChunk stores the chunk of checked lines in ingest_checked under the
// file: its valid events by insert, its rejected lines with their reasons.
// It returns the events stored.
func storeChunk(ctx context.Context, conn *sql.Conn, insert string, fileID int64, path string) (int64, error) {
	r, err := conn.ExecContext(ctx, insert, fileID)
	if err != nil {
		return 0, fmt.Errorf("store events: %w", err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return 0, err
	}
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.insert_rejected_checked"), fileID, path); err != nil {
		return 0, fmt.Errorf("store rejected lines: %w", err)
	}
	return n, nil
}
