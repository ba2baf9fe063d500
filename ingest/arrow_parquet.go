package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// parquetRowGroup is the row group size of the Parquet copy of Arrow
// records: DuckDB's own row group size, the unit its read_parquet reads in
// parallel, and a bound on what a writer buffers.
const parquetRowGroup = 122880

// arrowToParquet checks the schema of the Arrow file at path and copies its
// records into temporary Parquet files in tmpDir (arrow_chunks.go),
// returning their paths in row order, the schema and the number of rows.
// Errors are the file's, but those wrapping errors.ErrUnsupported (the
// schema holds a type the Parquet writer cannot take) and those of the
// temporary files (*sinkError). On an error no file is left.
func arrowToParquet(path, tmpDir string) (paths []string, sc *arrow.Schema, rows int64, err error) {
	var chunks *parquetChunks
	sc, rows, err = readArrow(path, func(sc *arrow.Schema) (arrowSink, error) {
		s, err := newParquetChunks(sc, tmpDir)
		if err != nil {
			return nil, err
		}
		chunks = s
		return s, nil
	})
	if chunks != nil {
		paths = chunks.Paths()
	}
	if err != nil {
		removeTemps(paths)
		return nil, sc, rows, err
	}
	return paths, sc, rows, nil
}

// removeTemps removes the temporary files at paths.
func removeTemps(paths []string) {
	for _, p := range paths {
		removeTemp(p)
	}
}

// storeArrowChunks validates and stores the rows of an Arrow file with
// schema sc (named name to the user) whose Parquet copy cp is being
// written, in one transaction. As for JSON lines, a clean file is inserted
// without a table of checked rows, every row judged by the contract's rules
// (ingest.checked) and the statement failing at the first rejected row;
// here one INSERT per run of written chunk files, each as soon as its
// chunks are written, so that DuckDB works while the copy goes on. The
// rows inserted must then be the rows read and none a duplicate (allNew,
// as in storeAllNew). Otherwise the transaction rolls back and, once the copy is
// done, storeArrowTyped gives each rejected row its number and reason. An
// error of the copy is returned as ingestArrow returns it.
func storeArrowChunks(ctx context.Context, conn *sql.Conn, cp *arrowCopy, sc *arrow.Schema, name string, res *FileResult) error {
	extra := arrowExtra(sc)
	fast := *res
	fast.FastPath = true
	threads, err := newCopyThreads(ctx, conn)
	if err != nil {
		return err
	}
	defer threads.restore(ctx)
	err = inTransaction(ctx, conn, func(fileID int64) error {
		var stored int64
		for from := 0; ; {
			paths, err := cp.next(ctx, from)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			// One DuckDB thread while the copy's writers want the cores, or
			// for one chunk (one task: a second thread would only spin).
			if err := threads.set(ctx, cp.running() || len(paths) == 1); err != nil {
				return err
			}
			rows := queries.Render("ingest.valid_or_fail", queries.Args{"checked": rules(arrowTypedFrom(sc, paths, from))})
			n, err := storeRows(ctx, conn, insertEvents(rows, extra), fileID)
			if err != nil {
				return err
			}
			stored += n
			from += len(paths)
		}
		_, fast.Lines, _ = cp.wait() // ended without an error: next said so
		if err := allNew(ctx, conn, fileID, stored, fast.Lines); err != nil {
			return err
		}
		fast.Accepted, fast.Events = stored, stored
		return recordFile(ctx, conn, fileID, name, &fast)
	})
	threads.restore(ctx) // before the line-precise path
	var cf *copyFailed
	switch {
	case err == nil:
		*res = fast
		return nil
	case errors.As(err, &cf):
		return arrowCopyError(cf.err, name)
	case ctx.Err() != nil:
		return ctx.Err()
	}
	pqs, rows, err := cp.wait()
	if err != nil {
		return arrowCopyError(err, name)
	}
	res.Lines = rows
	return storeArrowTyped(ctx, conn, pqs, sc, name, res)
}

// arrowCopyError is the error ingestArrow returns for an error of the copy
// of the Arrow file named name: the file's, as an *InputError, or a
// *sinkError's (the temporary files') as it is.
func arrowCopyError(err error, name string) error {
	var se *sinkError
	if errors.As(err, &se) {
		return se.err
	}
	return &InputError{Path: name, Err: err}
}

// storeArrowTyped validates and stores the rows of the Parquet copy (the
// chunk files pqs) of an Arrow file with schema sc (named name to the user) in one
// transaction, the line-precise way (storeArrowChunks found a rejected row
// or a duplicate): every row is checked into a table by the contract's
// rules (ingest.checked), duplicates are found as for JSON lines, and each
// rejected row gets its number and reason.
func storeArrowTyped(ctx context.Context, conn *sql.Conn, pqs []string, sc *arrow.Schema, name string, res *FileResult) error {
	typed, extra := arrowTyped(sc, pqs), arrowExtra(sc)
	// No lines are refused before DuckDB sees them; the rejected-lines
	// query still reads the (empty) table.
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.lines_table")); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, arrowChecked(rules(typed), extra)); err != nil {
		return fmt.Errorf("validate: %w", err)
	}
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.find_duplicates")); err != nil {
		return fmt.Errorf("find duplicate events: %w", err)
	}
	var refused int64
	if err := conn.QueryRowContext(ctx, queries.Get("ingest.arrow_refused")).Scan(&refused); err != nil {
		return err
	}
	if refused > 0 {
		if _, err := conn.ExecContext(ctx, arrowTexts(typed)); err != nil {
			return fmt.Errorf("text of rejected rows: %w", err)
		}
	}
	return commitChecked(ctx, conn, name, res, nil, "extra", nil, nil)
}
