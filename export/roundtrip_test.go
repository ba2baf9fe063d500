package export

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/internal/testdb"
	"github.com/faultlens/faultlens/queries"
)

// TestRoundTripEachFormat ingests the export of the hand-built fixture in
// every format that has an importer: the store read back holds the same
// events (its JSON Lines export is byte-identical to the original's) and
// gives the same report. Neither unknown fields nor rejected lines are
// part of the canonical export (queries/export.sql), so the report is
// compared without its rejected-lines section, and unknown fields are not
// compared here (the OTLP export carries them: TestOTLPRoundTrip*).
func TestRoundTripEachFormat(t *testing.T) {
	ctx := context.Background()
	native := testdb.Load(t, handbuilt)
	canonical, _ := exported(t, native, Options{Format: "jsonl"})
	report := eventsReport(t, native)
	for _, c := range []struct{ format, file string }{
		{"jsonl", "export.jsonl"},
		{"parquet", "export.parquet"},
		{"arrow", "export.arrow"},
		{"otlp", "export.otlp.jsonl"},
	} {
		t.Run(c.format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), c.file)
			n, err := Write(ctx, native, out, Options{Format: c.format})
			if err != nil {
				t.Fatal(err)
			}
			if n != handbuiltEvents {
				t.Errorf("Write returned %d, want %d", n, handbuiltEvents)
			}
			back := testdb.Store(t)
			res, err := ingest.Files(ctx, back, []string{out}, ingest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || res[0].Format != c.format || res[0].Events != n || res[0].Rejected != 0 {
				t.Fatalf("ingesting the export: %+v, want %d events accepted as %s", res, n, c.format)
			}
			got, _ := exported(t, back, Options{Format: "jsonl"})
			want := canonical
			if c.format == "otlp" {
				// OTLP carries a run's events as the spans of its trace, so
				// they are stored in another order: compare them as a set.
				got, want = sortedLines(got), sortedLines(want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the events read back differ:\n%s\nwant\n%s", got, want)
			}
			if got := eventsReport(t, back); got != report {
				t.Errorf("the report read back differs\n got %.600s\nwant %.600s", got, report)
			}
		})
	}
}

// TestParquetBySuite checks the Hive layout: one partition per suite (the
// run without run event under suite=unknown), each with its runs' events,
// and the rejected lines beside them.
func TestParquetBySuite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	n, err := Write(context.Background(), testdb.Load(t, handbuilt), dir, Options{Format: "parquet", BySuite: true})
	if err != nil {
		t.Fatal(err)
	}
	if n != handbuiltEvents {
		t.Errorf("Write returned %d, want %d", n, handbuiltEvents)
	}
	parts, err := filepath.Glob(filepath.Join(dir, "events", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range parts {
		parts[i] = filepath.Base(parts[i])
	}
	if want := []string{"suite=night-a", "suite=night-b", "suite=unknown"}; !slices.Equal(parts, want) {
		t.Errorf("partitions %q, want %q", parts, want)
	}
	db := testdb.Store(t)
	glob := queries.Literal(filepath.Join(dir, "events", "*", "*.parquet"))
	got := queryStrings(t, db, "SELECT suite || ' ' || string_agg(DISTINCT run_id, ',') || ' ' || count(*) FROM read_parquet("+
		glob+", hive_partitioning = true) GROUP BY suite ORDER BY suite")
	if want := []string{"night-a a1 8", "night-b b1 3", "unknown z9 1"}; !slices.Equal(got, want) {
		t.Errorf("events per partition %q, want %q", got, want)
	}
	got = queryStrings(t, db, "SELECT path || ':' || line_no || ': ' || reason || ': ' || text FROM read_parquet("+
		queries.Literal(filepath.Join(dir, "rejected_lines.parquet"))+")")
	want := []string{
		handbuilt + `:7: malformed json: {"type":"tool_call","run_id":"a1","ts":"2026-11-28T02:00:06Z"`,
		handbuilt + `:11: unknown type: {"type":"mystery","run_id":"a1","ts":"2026-11-28T02:00:11Z"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("rejected lines\n%q\nwant\n%q", got, want)
	}
}

// TestArrowFile reads the Arrow IPC export with the Arrow library itself:
// one row per event, and the columns of the Parquet export, in its order.
func TestArrowFile(t *testing.T) {
	ctx := context.Background()
	native := testdb.Load(t, handbuilt)
	dir := t.TempDir()
	arrowPath, parquetPath := filepath.Join(dir, "x.arrow"), filepath.Join(dir, "x.parquet")
	for path, format := range map[string]string{arrowPath: "arrow", parquetPath: "parquet"} {
		if _, err := Write(ctx, native, path, Options{Format: format}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(arrowPath)
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, f)
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer testdb.CloseOK(t, r)
	var rows int64
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		rows += rec.NumRows()
	}
	if rows != handbuiltEvents {
		t.Errorf("%d rows in the Arrow file, want %d", rows, handbuiltEvents)
	}
	var fields []string
	for _, fd := range r.Schema().Fields() {
		fields = append(fields, fd.Name)
	}
	cols := queryStrings(t, native, "SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet("+queries.Literal(parquetPath)+"))")
	if len(cols) < 50 || !slices.Equal(fields, cols) {
		t.Errorf("Arrow columns %q\nParquet columns %q", fields, cols)
	}
}

// eventsReport is the JSON report of db without its "rejected" section,
// which counts lines that no export carries.
func eventsReport(t *testing.T, db *sql.DB) string {
	t.Helper()
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(reportJSON(t, db)), &rep); err != nil {
		t.Fatal(err)
	}
	if _, ok := rep["rejected"]; !ok {
		t.Fatal(`the report has no "rejected" section`)
	}
	delete(rep, "rejected")
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sortedLines returns the lines of b in sorted order.
func sortedLines(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	slices.SortFunc(lines, bytes.Compare)
	return bytes.Join(lines, nil)
}
