package ingest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/report"
)

// arrowFixtures builds the files of testdata/arrow: each is a schema and
// JSON lines of rows, written in file or stream format.
var arrowFixtures = []struct {
	name   string
	schema *arrow.Schema
	rows   []string
}{
	{"good.arrow", tsSchema(), []string{runLine, toolLine, terminalLine}},
	{"bad_row.arrows", CanonicalArrowSchema, []string{runLine, strings.Replace(stageLine, `"planning"`, `"lunch"`, 1), terminalLine}},
	{"wrong_type.arrow", replaceField(CanonicalArrowSchema, "seq", arrow.BinaryTypes.String), []string{runLine}},
	{"ts_int.arrows", replaceField(CanonicalArrowSchema, "ts", arrow.PrimitiveTypes.Int64), []string{`{"type":"run","run_id":"r1","ts":1}`}},
	{"nested_wrong.arrow", replaceField(CanonicalArrowSchema, "error", arrow.StructOf(arrow.Field{Name: "retryable", Type: arrow.BinaryTypes.String, Nullable: true})), []string{runLine}},
	{"missing_ts.arrow", dropField(CanonicalArrowSchema, "ts"), []string{runLine}},
}

// tsSchema is the canonical schema with ts as an Arrow timestamp in a zone
// other than UTC, and an extra column the contract does not name.
func tsSchema() *arrow.Schema {
	sc := replaceField(CanonicalArrowSchema, "ts", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"})
	fs := append(sc.Fields(), arrow.Field{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true})
	return arrow.NewSchema(fs, nil)
}

func replaceField(sc *arrow.Schema, name string, t arrow.DataType) *arrow.Schema {
	fs := sc.Fields()
	for i := range fs {
		if fs[i].Name == name {
			fs[i].Type = t
		}
	}
	return arrow.NewSchema(fs, nil)
}

func dropField(sc *arrow.Schema, name string) *arrow.Schema {
	var fs []arrow.Field
	for _, f := range sc.Fields() {
		if f.Name != name {
			fs = append(fs, f)
		}
	}
	return arrow.NewSchema(fs, nil)
}

// encodeArrow writes JSON rows with schema sc in the IPC file format, or the
// stream format when stream is true.
func encodeArrow(t testing.TB, sc *arrow.Schema, rows []string, stream bool) []byte {
	t.Helper()
	rd := array.NewJSONReader(strings.NewReader(strings.Join(rows, "\n")), sc, array.WithChunk(2))
	defer rd.Release()
	var buf bytes.Buffer
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(&buf, ipc.WithSchema(sc))
	} else {
		fw, err := ipc.NewFileWriter(&buf, ipc.WithSchema(sc))
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	}
	for rd.Next() {
		if err := w.Write(rd.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestArrowWriteFixtures regenerates testdata/arrow with
// FAULTLENS_UPDATE_ARROW=1; truncated.arrow is good.arrow cut in half,
// truncated.arrows two thirds of bad_row.arrows.
func TestArrowWriteFixtures(t *testing.T) {
	if os.Getenv("FAULTLENS_UPDATE_ARROW") == "" {
		t.Skip("set FAULTLENS_UPDATE_ARROW=1 to regenerate testdata/arrow")
	}
	for _, fx := range arrowFixtures {
		b := encodeArrow(t, fx.schema, fx.rows, strings.HasSuffix(fx.name, ".arrows"))
		if err := os.WriteFile(filepath.Join("testdata", "arrow", fx.name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if fx.name == "bad_row.arrows" {
			if err := os.WriteFile(filepath.Join("testdata", "arrow", "truncated.arrows"), b[:len(b)*2/3], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if fx.name == "good.arrow" {
			if err := os.WriteFile(filepath.Join("testdata", "arrow", "truncated.arrow"), b[:len(b)/2], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestArrowBadFiles(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"wrong_type.arrow", "wrong_type.arrow: column seq: Arrow type utf8 cannot hold an integer"},
		{"ts_int.arrows", "ts_int.arrows: column ts: Arrow type int64 cannot hold a timestamp (an RFC 3339 string or a timestamp with a time zone)"},
		{"nested_wrong.arrow", "nested_wrong.arrow: column error.retryable: Arrow type utf8 cannot hold a boolean"},
		{"missing_ts.arrow", "missing_ts.arrow: missing required column ts"},
		{"truncated.arrow", "truncated.arrow: truncated or corrupt Arrow IPC file: no valid footer"},
		{"truncated.arrows", "truncated.arrows: truncated or corrupt Arrow IPC data after 2 rows: arrow/ipc: could not read message metadata: unexpected EOF"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			db := openDB(t)
			_, err := ingestArrow(context.Background(), db, filepath.Join("testdata", "arrow", tc.file), tc.file, "")
			var in *InputError
			if !errors.As(err, &in) {
				t.Fatalf("err = %v (%T), want *InputError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("err = %q\nwant  %q", err, tc.want)
			}
			var n int
			if err := db.QueryRow("SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM files) + (SELECT count(*) FROM rejected_lines)").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("%d rows committed, want none", n)
			}
		})
	}
}

func TestArrowBadRow(t *testing.T) {
	db := openDB(t)
	res, err := ingestArrow(context.Background(), db, filepath.Join("testdata", "arrow", "bad_row.arrows"), "bad_row.arrows", "")
	if err != nil {
		t.Fatal(err)
	}
	res.Path = "bad_row.arrows"
	checkBalanced(t, db, res)
	if res.Lines != 3 || res.Accepted != 2 || res.Rejected != 1 || res.Format != "arrow" {
		t.Errorf("result %+v, want 3 rows = 2 accepted + 1 rejected, format arrow", res)
	}
	got := rejections(t, db, "bad_row.arrows")
	if len(got) != 1 || got[0] != (rejection{2, "invalid value for stage"}) {
		t.Errorf("rejections %v, want [{2 invalid value for stage}]", got)
	}
}

func TestArrowTimestampColumnAndExtra(t *testing.T) {
	db := openDB(t)
	res, err := ingestArrow(context.Background(), db, filepath.Join("testdata", "arrow", "good.arrow"), "good.arrow", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 3 || res.Rejected != 0 {
		t.Fatalf("result %+v, want 3 accepted", res)
	}
	got := queryStrings(t, db, "SELECT strftime(ts, '%Y-%m-%dT%H:%M:%SZ') || ' ' || (extra IS NOT NULL) FROM events ORDER BY ts")
	want := []string{"2026-11-28T02:00:00Z true", "2026-11-28T02:00:04Z true", "2026-11-28T02:00:07Z true"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("ts = %v, want %v", got, want)
	}
	// The same content again is a duplicate, whatever its name.
	again, err := ingestArrow(context.Background(), db, filepath.Join("testdata", "arrow", "good.arrow"), "copy.arrow", "")
	if err != nil || again.Duplicate != "good.arrow" {
		t.Errorf("second ingest: %+v, %v; want duplicate of good.arrow", again, err)
	}
}

// TestArrowRoundTrip exports each sample as the canonical Arrow file and
// ingests it: the JSON report must be byte-identical to the original's.
func TestArrowRoundTrip(t *testing.T) {
	ctx := context.Background()
	samples, _ := filepath.Glob("../sample-traces/*.jsonl")
	if len(samples) == 0 {
		t.Fatal("no samples")
	}
	for _, sample := range samples {
		t.Run(filepath.Base(sample), func(t *testing.T) {
			orig := openDB(t)
			if _, err := File(ctx, orig, sample, Options{}); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			jsonl := filepath.Join(dir, "canonical.jsonl")
			events := strings.ReplaceAll(queries.Get("export.events"), "{{suite}}", "NULL")
			lines := strings.ReplaceAll(queries.Get("export.jsonl_lines"), "{{events}}", events)
			q := strings.ReplaceAll(queries.Get("export.jsonl"), "{{lines}}", lines)
			if _, err := orig.ExecContext(ctx, strings.ReplaceAll(q, "{{path}}", queries.Literal(jsonl))); err != nil {
				t.Fatal(err)
			}
			arrowPath := filepath.Join(dir, "canonical.arrow")
			writeArrowFromJSONL(t, jsonl, arrowPath)

			back := openDB(t)
			res, err := ingestArrow(ctx, back, arrowPath, "canonical.arrow", "")
			if err != nil {
				t.Fatal(err)
			}
			if res.Rejected != 0 || !res.Balanced() {
				t.Fatalf("round trip result %+v", res)
			}
			var withExtra int
			if err := back.QueryRow("SELECT count(*) FROM events WHERE extra IS NOT NULL").Scan(&withExtra); err != nil || withExtra != 0 {
				t.Errorf("%d events with extra after the round trip (%v), want 0", withExtra, err)
			}
			if a, b := reportJSON(t, orig), reportJSON(t, back); a != b {
				t.Errorf("report after the Arrow round trip differs (%d vs %d bytes)", len(a), len(b))
			}
		})
	}
}

func writeArrowFromJSONL(t testing.TB, jsonl, out string) {
	t.Helper()
	in, err := os.Open(jsonl)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(in)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteArrowFile(f, in); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func reportJSON(t testing.TB, db *sql.DB) string {
	t.Helper()
	ctx := context.Background()
	sess, err := metrics.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(sess)
	rep, err := sess.Report(ctx, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, rep, "json", report.Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// FuzzArrowReader: arbitrary bytes never panic; the result is an
// *InputError or a balanced accounting.
func FuzzArrowReader(f *testing.F) {
	for _, name := range []string{"good.arrow", "bad_row.arrows", "truncated.arrow", "wrong_type.arrow"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "arrow", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("ARROW1"))
	db := openDB(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.arrow")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := ingestArrow(context.Background(), db, p, "f.arrow", "")
		if err != nil {
			var in *InputError
			if !errors.As(err, &in) {
				t.Fatalf("err = %v (%T), want *InputError", err, err)
			}
			return
		}
		if !res.Balanced() {
			t.Fatalf("unbalanced: %+v", res)
		}
	})
}

// TestArrowMeasure times the Arrow path on big inputs for docs/arrow.md:
// FAULTLENS_ARROW_MEASURE=FILE.jsonl go test ./ingest/ -run ArrowMeasure -v
func TestArrowMeasure(t *testing.T) {
	src := os.Getenv("FAULTLENS_ARROW_MEASURE")
	if src == "" {
		t.Skip("set FAULTLENS_ARROW_MEASURE to a JSON Lines file")
	}
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t)
	start := time.Now()
	res, err := File(ctx, db, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("JSONL ingest: %d rows in %v (fast path %v)", res.Accepted, time.Since(start), res.FastPath)

	jsonl, arrowPath, pq := filepath.Join(dir, "c.jsonl"), filepath.Join(dir, "c.arrow"), filepath.Join(dir, "c.parquet")
	events := strings.ReplaceAll(queries.Get("export.events"), "{{suite}}", "NULL")
	lines := strings.ReplaceAll(queries.Get("export.jsonl_lines"), "{{events}}", events)
	start = time.Now()
	mustExec(t, db, strings.ReplaceAll(strings.ReplaceAll(queries.Get("export.jsonl"), "{{lines}}", lines), "{{path}}", queries.Literal(jsonl)))
	t.Logf("export jsonl: %v", time.Since(start))
	start = time.Now()
	writeArrowFromJSONL(t, jsonl, arrowPath)
	t.Logf("jsonl -> arrow file: %v", time.Since(start))
	start = time.Now()
	mustExec(t, db, strings.ReplaceAll(strings.ReplaceAll(queries.Get("export.parquet"), "{{events}}", events), "{{path}}", queries.Literal(pq)))
	t.Logf("export parquet: %v", time.Since(start))

	start = time.Now()
	tmp, rows, err := arrowToJSONLines(arrowPath, "")
	if err != nil {
		t.Fatal(err)
	}
	removeTemp(tmp)
	t.Logf("arrow -> JSON lines (Go): %d rows in %v", rows, time.Since(start))

	back := openDB(t)
	start = time.Now()
	res, err = ingestArrow(ctx, back, arrowPath, "c.arrow", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ingestArrow: %d rows in %v (fast path %v)", res.Accepted, time.Since(start), res.FastPath)

	// The DuckDB half of the Parquet design: validation over read_parquet.
	pdb := openDB(t)
	start = time.Now()
	src2 := "(SELECT row_number() OVER () AS line_no, to_json(t) AS raw, NULL::VARCHAR AS text FROM read_parquet(" + queries.Literal(pq) + ") t)"
	checked := jsonChecked(src2)
	mustExec(t, pdb, queries.Render("ingest.check", queries.Args{"checked": checked}))
	t.Logf("validation over read_parquet (no insert): %v", time.Since(start))
}

func mustExec(t testing.TB, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func TestArrowSchemaCheck(t *testing.T) {
	for _, tc := range []struct {
		sc   *arrow.Schema
		want string
	}{
		{replaceField(CanonicalArrowSchema, "ts", &arrow.TimestampType{Unit: arrow.Microsecond}),
			"column ts: Arrow type timestamp[us] has no time zone (want an RFC 3339 string or a timestamp with a time zone)"},
		{replaceField(CanonicalArrowSchema, "evidence_ids", arrow.ListOf(arrow.PrimitiveTypes.Int64)),
			"column evidence_ids: Arrow type list<item: int64, nullable> cannot hold a list of strings"},
		{replaceField(CanonicalArrowSchema, "seq", arrow.PrimitiveTypes.Uint8), ""},
		{replaceField(CanonicalArrowSchema, "tool", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}), ""},
		{replaceField(CanonicalArrowSchema, "run_id", arrow.Null), ""},
	} {
		err := checkArrowSchema(tc.sc)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
