package ingest

import (
	"context"
	"database/sql"
	"fmt"

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

// storeArrowTyped validates and stores the rows of the Parquet copy (the
// chunk files pqs) of an Arrow file with schema sc (named name to the user) in one
// transaction: every row judged by the contract's rules (ingest.checked),
// duplicates found as for JSON lines, the row number standing for the line
// number. As for JSON lines, a clean file is inserted in one statement that
// fails at the first rejected row; only then are the rows checked into a
// table, so that each rejected row gets its number and reason.
func storeArrowTyped(ctx context.Context, conn *sql.Conn, pqs []string, sc *arrow.Schema, name string, res *FileResult) error {
	typed, extra := arrowTyped(sc, pqs), arrowExtra(sc)
	if commitFastChecked(ctx, conn, rules(typed), extra, name, res) {
		return nil
	}
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
