// Package export writes the canonical events of a database as JSON Lines,
// Parquet (whole, or Hive-partitioned by suite), Arrow IPC, or OTLP/JSON in
// the faultlens.* OpenTelemetry convention, through the named queries of
// queries/export.sql and queries/export_otlp.sql. The CLI's export command and the
// benchmark both call it.
package export

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/queries"
)

// Formats lists the formats Write accepts.
var Formats = []string{"arrow", "parquet", "jsonl", "otlp"}

// Options choose what is written.
type Options struct {
	Format string // arrow, parquet, jsonl or otlp
	Suite  string // only this suite's runs; "" for all
	// BySuite writes Parquet as OUT/events/suite=NAME/*.parquet plus
	// OUT/rejected_lines.parquet (Hive layout) instead of one file.
	BySuite bool
	// TempDir holds the temporary file the Arrow export goes through
	// (--temp-dir; default the system temp dir).
	TempDir string
}

// Write writes the events of db to out and returns how many it wrote.
func Write(ctx context.Context, db *sql.DB, out string, o Options) (int64, error) {
	suite := "NULL"
	if o.Suite != "" {
		suite = queries.Literal(o.Suite)
	}
	events := queries.Render("export.events", queries.Args{"suite": suite})
	var n int64
	if err := db.QueryRowContext(ctx, queries.Render("export.count", queries.Args{"events": events})).Scan(&n); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	var err error
	switch {
	case o.Format == "parquet" && o.BySuite:
		err = partitioned(ctx, db, events, out)
	case o.Format == "parquet":
		err = copyTo(ctx, db, "export.parquet", queries.Args{"events": events}, out)
	case o.Format == "jsonl":
		err = jsonl(ctx, db, events, out)
	case o.Format == "arrow":
		err = arrowFile(ctx, db, events, out, o.TempDir)
	case o.Format == "otlp":
		err = writeOTLP(ctx, db, suite, o.Suite, out)
	default:
		return 0, fmt.Errorf("export: unknown format %q", o.Format)
	}
	if err != nil {
		return 0, &OutputError{Path: out, Err: err}
	}
	return n, nil
}

// OutputError is a failure to write the export to Path: the place the user
// named may not exist or not be writable, or writing itself failed.
type OutputError struct {
	Path string
	Err  error
}

func (e *OutputError) Error() string { return fmt.Sprintf("export %s: %v", e.Path, e.Err) }

func (e *OutputError) Unwrap() error { return e.Err }

// copyTo runs the COPY statement name, with args and path filled in.
func copyTo(ctx context.Context, db *sql.DB, name string, args queries.Args, path string) error {
	args["path"] = queries.Literal(path)
	_, err := db.ExecContext(ctx, queries.Render(name, args))
	return err
}

func jsonl(ctx context.Context, db *sql.DB, events, path string) error {
	lines := queries.Render("export.jsonl_lines", queries.Args{"events": events})
	return copyTo(ctx, db, "export.jsonl", queries.Args{"lines": lines}, path)
}

// arrowFile writes the canonical JSON lines to a temporary file and reads
// them back into Arrow records of the canonical schema: DuckDB has no Arrow
// writer without the duckdb_arrow build tag.
func arrowFile(ctx context.Context, db *sql.DB, events, path, tempDir string) error {
	tmp, err := os.CreateTemp(tempDir, "faultlens-export-*.jsonl")
	if err != nil {
		return err
	}
	// A scratch copy: if removing it fails, it is left in $TMPDIR and the
	// export itself is whole, so that is not an error.
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := tmp.Close(); err != nil { // DuckDB writes it by name
		return err
	}
	if err := jsonl(ctx, db, events, tmp.Name()); err != nil {
		return err
	}
	in, err := os.Open(tmp.Name())
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }() // read only: closing it cannot lose data
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = ingest.WriteArrowFile(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// partitioned writes the events as Hive-partitioned Parquet by suite, and
// the rejected lines beside them.
func partitioned(ctx context.Context, db *sql.DB, events, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := copyTo(ctx, db, "export.parquet_by_suite", queries.Args{"events": events}, filepath.Join(dir, "events")); err != nil {
		return err
	}
	return copyTo(ctx, db, "export.rejected_parquet", queries.Args{}, filepath.Join(dir, "rejected_lines.parquet"))
}
