package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/report"
	"github.com/faultlens/faultlens/store"
)

// The Hive-partitioned Parquet export, read back through DuckDB's
// read_parquet into an empty database, gives the same report as the traces
// it came from: the metric SQL runs unchanged over the partitions.
func TestPartitionedParquetRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "export")
	want := run(t, "report", "--format", "json")
	out := run(t, "export", "--format", "parquet", "--partition-by", "suite", "--out", dir)
	if !strings.Contains(out, "wrote 6995 events") {
		t.Fatalf("export: %s", out)
	}
	for _, p := range []string{"events/suite=baseline", "events/suite=candidate", "rejected_lines.parquet"} {
		if m, _ := filepath.Glob(filepath.Join(dir, p) + "*"); len(m) == 0 {
			t.Errorf("no %s in the export", p)
		}
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "", store.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }() // in memory
	q := queries.Render("export.read_partitioned", queries.Args{"path": queries.Literal(filepath.Join(dir, "events", "*", "*.parquet"))})
	if _, err := db.ExecContext(ctx, q); err != nil {
		t.Fatal(err)
	}
	s, err := metrics.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }() // TEMP tables of an in-memory database
	rep, err := s.Report(ctx, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := report.JSON(&got, rep); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Error("the report over the partitioned Parquet differs from the report over the traces")
	}
}
