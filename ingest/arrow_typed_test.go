package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestArrowTypedColumns checks the typed path on a schema far from the
// canonical one: strings as large_utf8, seq as uint64, started_at as a
// nanosecond timestamp, a struct with a member the contract does not name
// and one it names missing, a column of type null, and an int32 inside a
// struct. Row 2's seq does not fit a signed integer and row 3 breaks a
// rule; both are rejected with their row numbers, the row's JSON as text.
func TestArrowTypedColumns(t *testing.T) {
	ls := arrow.BinaryTypes.LargeString
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "type", Type: ls, Nullable: true},
		{Name: "run_id", Type: ls, Nullable: true},
		{Name: "ts", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
		{Name: "suite", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "started_at", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "fault", Type: arrow.StructOf(
			arrow.Field{Name: "class", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
		{Name: "task", Type: arrow.StructOf(
			arrow.Field{Name: "evidence_required", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		{Name: "agent", Type: arrow.Null, Nullable: true},
	}, nil)
	rows := []string{
		`{"type":"run","run_id":"r1","ts":"2026-11-28T02:00:00Z","seq":1,"suite":"s","started_at":"2026-11-28T02:00:00.123456789Z","fault":{"class":"network","note":"x"},"task":{"evidence_required":2}}`,
		`{"type":"run","run_id":"r2","ts":"2026-11-28T02:00:00Z","seq":9223372036854775808,"suite":"s","started_at":"2026-11-28T02:00:00Z"}`,
		`{"type":"stage","run_id":"r1","ts":"2026-11-28T02:00:01Z"}`,
	}
	path := filepath.Join(t.TempDir(), "typed.arrow")
	if err := os.WriteFile(path, encodeArrow(t, sc, rows, false), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	res, err := ingestArrow(context.Background(), db, path, "typed.arrow", "")
	if err != nil {
		t.Fatal(err)
	}
	res.Path = "typed.arrow"
	checkBalanced(t, db, res)
	if res.Lines != 3 || res.Accepted != 1 || res.Rejected != 2 {
		t.Fatalf("result %+v, want 3 rows = 1 accepted + 2 rejected", res)
	}
	got := rejections(t, db, "typed.arrow")
	want := []rejection{{2, "wrong type for field seq: expected integer"}, {3, "missing field stage_id"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("rejections %v, want %v", got, want)
	}
	texts := queryStrings(t, db, "SELECT text FROM rejected_lines ORDER BY line_no")
	if len(texts) != 2 || !strings.Contains(texts[0], `"run_id":"r2"`) || !strings.Contains(texts[1], `"type":"stage"`) {
		t.Errorf("rejected texts %q, want the rows as JSON", texts)
	}
	ev := queryStrings(t, db, `SELECT concat_ws(' ', run_id, seq, strftime(started_at, '%Y-%m-%dT%H:%M:%S.%fZ'),
		fault.class, fault.kind IS NULL, task.evidence_required, agent IS NULL, extra IS NOT NULL) FROM events`)
	if len(ev) != 1 || ev[0] != "r1 1 2026-11-28T02:00:00.123456Z network true 2 true true" {
		t.Errorf("event %q, want r1 with its typed fields and extra", ev)
	}
}

// TestArrowStringViewFallsBack: a string_view column, which the Parquet
// writer cannot take, still ingests (by way of JSON lines).
func TestArrowStringViewFallsBack(t *testing.T) {
	fs := CanonicalArrowSchema.Fields()
	for i := range fs {
		if fs[i].Name == "run_id" {
			fs[i].Type = arrow.BinaryTypes.StringView
		}
	}
	if s, err := newParquetChunks(arrow.NewSchema(fs, nil), ""); !errors.Is(err, errors.ErrUnsupported) {
		if s != nil {
			closeQuietly(s)
		}
		t.Fatalf("newParquetChunks(string_view) = %v, want errors.ErrUnsupported", err)
	}
	path := filepath.Join(t.TempDir(), "view.arrow")
	if err := os.WriteFile(path, encodeArrow(t, arrow.NewSchema(fs, nil), []string{runLine, terminalLine}, false), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	res, err := ingestArrow(context.Background(), db, path, "view.arrow", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 2 || res.Accepted != 2 {
		t.Errorf("result %+v, want 2 rows accepted", res)
	}
}

// TestArrowDictionaryStrings: dictionary-encoded string columns (as
// pandas and polars write categoricals) are read as their values.
func TestArrowDictionaryStrings(t *testing.T) {
	mem := memory.NewGoAllocator()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "type", Type: dt, Nullable: true},
		{Name: "run_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "suite", Type: dt, Nullable: true},
		{Name: "started_at", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	// The typed route takes them (no fallback to JSON lines).
	s, err := newParquetChunks(sc, "")
	if err != nil {
		t.Fatalf("newParquetChunks(dictionary strings): %v", err)
	}
	closeQuietly(s)
	b := array.NewRecordBuilder(mem, sc)
	defer b.Release()
	for i, v := range []string{"run", "run"} {
		if err := b.Field(0).(*array.BinaryDictionaryBuilder).AppendString(v); err != nil {
			t.Fatal(err)
		}
		b.Field(1).(*array.StringBuilder).Append([]string{"r1", "r2"}[i])
		b.Field(2).(*array.StringBuilder).Append("2026-11-28T02:00:00Z")
		if err := b.Field(3).(*array.BinaryDictionaryBuilder).AppendString("nightly"); err != nil {
			t.Fatal(err)
		}
		b.Field(4).(*array.StringBuilder).Append("2026-11-28T02:00:00Z")
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(sc))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dict.arrow")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	res, err := ingestArrow(context.Background(), db, path, "dict.arrow", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != 2 || res.Rejected != 0 {
		t.Fatalf("result %+v, want 2 accepted", res)
	}
	got := queryStrings(t, db, "SELECT type || ' ' || run_id || ' ' || suite FROM events ORDER BY run_id")
	if strings.Join(got, ",") != "run r1 nightly,run r2 nightly" {
		t.Errorf("events %q", got)
	}
}
