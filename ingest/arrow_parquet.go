package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/faultlens/faultlens/queries"
)

// parquetRowGroup is the row group size of the Parquet file the Arrow
// records are copied into: DuckDB's own row group size, the unit its
// read_parquet reads in parallel, and a bound on what the writer buffers.
const parquetRowGroup = 122880

// parquetSink copies record batches into an uncompressed Parquet file
// without dictionaries or statistics: the file lives for one statement, so
// only the speed of writing and reading it counts (docs/arrow.md).
type parquetSink struct {
	f *os.File
	w *pqarrow.FileWriter
}

// newParquetSink creates a temporary Parquet file in tmpDir ("": the system
// temp dir) for schema sc. An error
// wrapping errors.ErrUnsupported means the writer cannot take sc.
func newParquetSink(sc *arrow.Schema, tmpDir string) (*parquetSink, error) {
	tmp, err := createTemp(tmpDir, "faultlens-arrow-*.parquet")
	if err != nil {
		return nil, err
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDictionaryDefault(false), parquet.WithStats(false),
		parquet.WithMaxRowGroupLength(parquetRowGroup))
	w, err := pqarrow.NewFileWriter(sc, tmp, props, pqarrow.NewArrowWriterProperties())
	if err != nil {
		closeQuietly(tmp) // removed next: nothing was written that counts
		removeTemp(tmp.Name())
		return nil, fmt.Errorf("%w: %v", errors.ErrUnsupported, err)
	}
	return &parquetSink{f: tmp, w: w}, nil
}

func (s *parquetSink) Write(rec arrow.RecordBatch) error { return s.w.WriteBuffered(rec) }

// Close ends the Parquet file (the writer closes the file too).
func (s *parquetSink) Close() error { return s.w.Close() }

// arrowToParquet checks the schema of the Arrow file at path and copies its
// records into a temporary Parquet file in tmpDir, returning its path, the schema
// and the number of rows. Errors are the file's, but those wrapping
// errors.ErrUnsupported (the schema holds a type the Parquet writer cannot
// take) and those of the temporary file (*sinkError).
func arrowToParquet(path, tmpDir string) (tmpPath string, sc *arrow.Schema, rows int64, err error) {
	sc, rows, err = readArrow(path, func(sc *arrow.Schema) (arrowSink, error) {
		s, err := newParquetSink(sc, tmpDir)
		if err != nil {
			return nil, err
		}
		tmpPath = s.f.Name()
		return s, nil
	})
	if err != nil && tmpPath != "" {
		removeTemp(tmpPath)
		tmpPath = ""
	}
	return tmpPath, sc, rows, err
}

// storeArrowTyped validates and stores the rows of the Parquet copy at pq
// of an Arrow file with schema sc (named name to the user) in one
// transaction: every row judged by the contract's rules (ingest.checked),
// duplicates found as for JSON lines, the row number standing for the line
// number. As for JSON lines, a clean file is inserted in one statement that
// fails at the first rejected row; only then are the rows checked into a
// table, so that each rejected row gets its number and reason.
func storeArrowTyped(ctx context.Context, conn *sql.Conn, pq string, sc *arrow.Schema, name string, res *FileResult) error {
	typed, extra := arrowTyped(sc, pq), arrowExtra(sc)
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
