package ingest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/faultlens/faultlens/queries"
)

// ingestParquet loads a Parquet file whose columns follow the contract (as
// `faultlens export --format parquet` writes them): DuckDB turns its rows
// into JSON lines, one per row, and the JSON Lines path validates them, so
// every rule and rejection reason is the same, with the row number as the
// line number. Timestamp columns with a zone become RFC 3339 UTC strings; a
// timestamp column without a zone is an error naming the column. The JSON
// lines are a temporary file in tmpDir ("": the system temp dir).
func ingestParquet(ctx context.Context, db *sql.DB, path, name, tmpDir string) (FileResult, error) {
	res := FileResult{Format: "parquet"}
	sum, size, err := hashFile(path)
	if err != nil {
		return res, err
	}
	res.SHA256, res.Bytes = sum, size
	conn, err := openFile(ctx, db, &res)
	if conn == nil {
		return res, err
	}
	defer closeQuietly(conn)
	return res, loadParquet(ctx, conn, path, name, tmpDir, &res)
}

// loadParquet validates and stores the rows of a Parquet file (the file
// named name to the user) on conn, filling res; its JSON lines are a
// temporary file in tmpDir.
func loadParquet(ctx context.Context, conn *sql.Conn, path, name, tmpDir string, res *FileResult) error {
	cols, err := parquetColumns(ctx, conn, path)
	if err != nil {
		return &InputError{Path: name, Err: err}
	}
	tmp, err := createTemp(tmpDir, "faultlens-parquet-*.jsonl")
	if err != nil {
		return err
	}
	closeQuietly(tmp) // empty: DuckDB writes the file by name
	defer removeTemp(tmp.Name())
	q := queries.Render("ingest.parquet_to_jsonl", queries.Args{"columns": queries.List(cols),
		"path": queries.Literal(path), "out": queries.Literal(tmp.Name())})
	if _, err := conn.ExecContext(ctx, q); err != nil {
		return &InputError{Path: name, Err: fmt.Errorf("read Parquet: %w", err)}
	}
	defer dropTemp(ctx, conn)
	if err := conn.QueryRowContext(ctx, queries.Render("ingest.parquet_rows", queries.Args{"path": queries.Literal(path)})).Scan(&res.Lines); err != nil {
		return err
	}
	return storeLines(ctx, conn, tmp.Name(), name, res)
}

// parquetColumns returns the select list that turns the file's columns into
// contract JSON values.
func parquetColumns(ctx context.Context, conn *sql.Conn, path string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, queries.Render("ingest.parquet_columns", queries.Args{"path": queries.Literal(path)}))
	if err != nil {
		return nil, fmt.Errorf("not a readable Parquet file: %w", err)
	}
	defer closeQuietly(rows)
	var cols []string
	for rows.Next() {
		var col, typ string
		if err := rows.Scan(&col, &typ); err != nil {
			return nil, err
		}
		id := queries.Ident(col)
		switch {
		case typ == "TIMESTAMP WITH TIME ZONE":
			cols = append(cols, queries.Render("ingest.parquet_ts_column", queries.Args{"column": id}))
		case strings.HasPrefix(typ, "TIMESTAMP"):
			return nil, fmt.Errorf("column %s: a timestamp without a zone (%s) cannot be placed in time; write it with a zone or as an RFC 3339 string", col, typ)
		default:
			cols = append(cols, id)
		}
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("no columns")
	}
	return cols, rows.Err()
}
