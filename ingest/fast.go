package ingest

import (
	"context"
	"database/sql"
	"errors"

	"github.com/faultlens/faultlens/queries"
)

// The fast path: a clean file stored in one statement and one transaction,
// first through the typed read (fast_typed.go), else through DuckDB's NDJSON
// object reader and the JSON validation.

// errNotClean stops the fast path: the file holds something only the
// line-precise path can account for.
var errNotClean = errors.New("not clean")

// commitJSON stores a clean file in one statement and one transaction
// through DuckDB's NDJSON object reader feeding the JSON validation, whose
// first rejected row fails the insert. It stores the file only when every
// non-blank line became an event, so nothing can have been lost or merged;
// otherwise it has rolled back and returns errNotClean (see refused).
func commitJSON(ctx context.Context, conn *sql.Conn, path, name string, res *FileResult) error {
	src := queries.Render("ingest.fast_source", queries.Args{"path": queries.Literal(path)})
	return commitFastRows(ctx, conn, jsonChecked(src), extraJSON(), name, res)
}

// commitFastRows stores the rows of the relation checked (ingest.checked
// over a typed one), extra computed by the SQL expression extra, in one
// transaction; it returns errNotClean when the file is at fault (refused).
func commitFastRows(ctx context.Context, conn *sql.Conn, checked, extra, name string, res *FileResult) error {
	rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": checked})
	insert := insertEvents(rows, extra)
	fast := *res
	fast.FastPath = true
	err := inTransaction(ctx, conn, func(fileID int64) error {
		var err error
		if fast.Accepted, err = storeAllNew(ctx, conn, insert, fileID, fast.Lines-fast.Blank); err != nil {
			return err
		}
		fast.Events = fast.Accepted
		return recordFile(ctx, conn, fileID, name, &fast)
	})
	if err != nil {
		return refused(ctx, err)
	}
	*res = fast
	return nil
}

// storeAllNew runs insert for the file and returns the events it stored,
// or errNotClean unless it stored want events, none of them a duplicate of
// an event stored before (the caller's transaction then rolls back).
func storeAllNew(ctx context.Context, conn *sql.Conn, insert string, fileID, want int64) (int64, error) {
	n, err := storeRows(ctx, conn, insert, fileID)
	if err != nil {
		return n, err
	}
	return n, allNew(ctx, conn, fileID, n, want)
}

// storeRows runs insert for the file and returns the events it stored.
func storeRows(ctx context.Context, conn *sql.Conn, insert string, fileID int64) (int64, error) {
	r, err := conn.ExecContext(ctx, insert, fileID)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}

// allNew is errNotClean unless the file stored want events, none of them
// a duplicate of an event stored before.
func allNew(ctx context.Context, conn *sql.Conn, fileID, stored, want int64) error {
	if stored != want {
		return errNotClean
	}
	var dups int64
	if err := conn.QueryRowContext(ctx, queries.Get("ingest.new_duplicates"), fileID, fileID).Scan(&dups); err != nil {
		return err
	}
	if dups > 0 {
		return errNotClean
	}
	return nil
}
