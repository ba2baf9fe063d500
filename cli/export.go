package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
)

func init() { register(newExportCmd) }

// exportFormats are the formats export writes.
var exportFormats = []string{"arrow", "parquet", "jsonl"}

type exportOptions struct {
	src         source
	suite       string
	format      string
	out         string
	partitionBy string
}

func newExportCmd(s Streams, g *global) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export --format arrow|parquet|jsonl --out PATH [--suite S] [--db FILE | PATH...]",
		Short: "Write the canonical events as Arrow IPC, Parquet or JSON Lines",
		Long: `Write every stored event in canonical form: all contract fields under their
contract names, timestamps as RFC 3339 UTC strings with microseconds, nested
objects as structs and arrays as lists (in JSON Lines, absent fields are left
out). Ingesting the export gives the same report as the original traces.

With PATHs the files are ingested into memory first; with --db that database
is read; with neither, the bundled sample traces.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.src.db != "" && len(args) > 0 {
				return usagef("give --db or PATHs, not both")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			return runExport(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.src.db, "db", "", "read this database file")
	cmd.Flags().StringVar(&o.suite, "suite", "", "export only the runs of this suite")
	cmd.Flags().StringVarP(&o.format, "format", "f", "", "output format: arrow, parquet or jsonl")
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "file to write (a directory with --partition-by)")
	cmd.Flags().StringVar(&o.partitionBy, "partition-by", "", "with parquet: write OUT/events/suite=NAME/*.parquet (Hive layout) and OUT/rejected_lines.parquet")
	return cmd
}

func runExport(ctx context.Context, s Streams, g *global, o *exportOptions) error {
	switch o.format {
	case "arrow", "parquet", "jsonl":
	case "":
		return usagef("export needs --format (arrow, parquet or jsonl)")
	default:
		return usagef("unknown --format %q (want arrow, parquet or jsonl)", o.format)
	}
	if o.out == "" {
		return usagef("export needs --out PATH")
	}
	if o.partitionBy != "" && (o.partitionBy != "suite" || o.format != "parquet") {
		return usagef("--partition-by supports suite, with --format parquet")
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()

	suite := "NULL"
	if o.suite != "" {
		suite = store.Quote(o.suite)
	}
	events := strings.ReplaceAll(queries.Get("export.events"), "{{suite}}", suite)
	var n int64
	if err := db.QueryRowContext(ctx, strings.ReplaceAll(queries.Get("export.count"), "{{events}}", events)).Scan(&n); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	switch o.format {
	case "parquet":
		if o.partitionBy == "suite" {
			err = writePartitioned(ctx, db, events, o.out)
		} else {
			err = copyTo(ctx, db, "export.parquet", events, o.out)
		}
	case "jsonl":
		err = writeJSONL(ctx, db, events, o.out)
	case "arrow":
		err = writeArrow(ctx, db, events, o.out)
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", o.out, err)
	}
	fmt.Fprintf(s.Out, "wrote %d events to %s (%s)\n", n, o.out, o.format)
	return nil
}

// copyTo runs the COPY statement name over rows into path.
func copyTo(ctx context.Context, db *sql.DB, name, rows, path string) error {
	q := strings.ReplaceAll(queries.Get(name), "{{path}}", store.Quote(path))
	q = strings.ReplaceAll(q, "{{events}}", rows)
	q = strings.ReplaceAll(q, "{{lines}}", rows)
	_, err := db.ExecContext(ctx, q)
	return err
}

func writeJSONL(ctx context.Context, db *sql.DB, events, path string) error {
	lines := strings.ReplaceAll(queries.Get("export.jsonl_lines"), "{{events}}", events)
	return copyTo(ctx, db, "export.jsonl", lines, path)
}

// writeArrow writes the canonical JSON lines to a temporary file and reads
// them back into Arrow records of the canonical schema: DuckDB has no Arrow
// writer without the duckdb_arrow build tag.
func writeArrow(ctx context.Context, db *sql.DB, events, path string) error {
	tmp, err := os.CreateTemp("", "faultlens-export-*.jsonl")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := writeJSONL(ctx, db, events, tmp.Name()); err != nil {
		return err
	}
	in, err := os.Open(tmp.Name())
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := ingest.WriteArrowFile(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writePartitioned writes the events as Hive-partitioned Parquet by suite,
// and the rejected lines beside them.
func writePartitioned(ctx context.Context, db *sql.DB, events, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := copyTo(ctx, db, "export.parquet_by_suite", events, filepath.Join(dir, "events")); err != nil {
		return err
	}
	return copyTo(ctx, db, "export.rejected_parquet", "", filepath.Join(dir, "rejected_lines.parquet"))
}
