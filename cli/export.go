package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/export"
	"github.com/faultlens/faultlens/metrics"
)

func init() { register(newExportCmd) }

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
		Use:   "export --format arrow|parquet|jsonl|otlp --out PATH [--suite S] [--db FILE | PATH...]",
		Short: "Write the canonical events as Arrow IPC, Parquet, JSON Lines or OTLP/JSON",
		Long: `Write every stored event in canonical form: all contract fields under their
contract names, timestamps as RFC 3339 UTC strings with microseconds, nested
objects as structs and arrays as lists (in JSON Lines, absent fields are left
out). Ingesting the export gives the same report as the original traces.

--format otlp writes OpenTelemetry OTLP/JSON (one ExportTraceServiceRequest
per run and line, as the Collector's file exporter writes them) in the
faultlens.* convention (docs/otel-convention.md): every field, unknown ones
included, so ingesting it gives the same report too, and any OTel backend
can take it.

With PATHs the files are ingested into memory first; with --db that database
is read; with neither, the bundled sample traces.`,
		Args: func(_ *cobra.Command, args []string) error {
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
	cmd.Flags().StringVarP(&o.format, "format", "f", "", "output format: arrow, parquet, jsonl or otlp")
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "file to write (a directory with --partition-by)")
	cmd.Flags().StringVar(&o.partitionBy, "partition-by", "", "with parquet: write OUT/events/suite=NAME/*.parquet (Hive layout) and OUT/rejected_lines.parquet")
	return cmd
}

func runExport(ctx context.Context, s Streams, g *global, o *exportOptions) error {
	switch o.format {
	case "arrow", "parquet", "jsonl", "otlp":
	case "":
		return usagef("export needs --format (arrow, parquet, jsonl or otlp)")
	default:
		return usagef("unknown --format %q (want arrow, parquet, jsonl or otlp)", o.format)
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

	if o.suite != "" {
		// Checked before writing, so that a mistyped suite leaves no empty
		// export behind.
		all, err := metrics.AllSuites(ctx, db)
		if err != nil {
			return err
		}
		if !slices.Contains(all, o.suite) {
			return usagef("nothing to export: no suite %q in the input (%s)", o.suite, knownList("suite", all))
		}
	}
	n, err := export.Write(ctx, db, o.out, export.Options{Format: o.format, Suite: o.suite, BySuite: o.partitionBy == "suite",
		TempDir: g.limits.TempDir})
	if err != nil {
		return err
	}
	if _, err = fmt.Fprintf(s.Out, "wrote %d events to %s (%s)\n", n, o.out, o.format); err != nil {
		return err
	}
	if n == 0 {
		return usagef("nothing to export: the input holds no events")
	}
	return nil
}
