package ingest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// utf8Batch is one string column of the given values and, as a struct, one
// more holding the same values.
func utf8Batch(t *testing.T, vals []string) arrow.RecordBatch {
	t.Helper()
	st := arrow.StructOf(arrow.Field{Name: "class", Type: arrow.BinaryTypes.String, Nullable: true})
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "run_id", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "fault", Type: st, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	sb := b.Field(1).(*array.StructBuilder)
	for _, v := range vals {
		b.Field(0).(*array.StringBuilder).Append(v)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append("ok")
	}
	return b.NewRecordBatch()
}

func TestCheckUTF8(t *testing.T) {
	for _, tc := range []struct {
		vals []string
		want string
	}{
		{[]string{"a", "é", ""}, ""},
		{[]string{"a", "b\xff", "c"}, "column run_id, row 12: invalid UTF-8"},
		// Valid as a whole, but "é" is cut between two values.
		{[]string{"a\xc3", "\xa9b"}, "column run_id, row 11: invalid UTF-8"},
	} {
		rec := utf8Batch(t, tc.vals)
		err := checkUTF8(rec, 10)
		rec.Release()
		if got := errText(err); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.vals, got, tc.want)
		}
	}
	// A sliced batch is checked on its own rows.
	rec := utf8Batch(t, []string{"\xff", "a", "b"})
	defer rec.Release()
	sl := rec.NewSlice(1, 3)
	defer sl.Release()
	if err := checkUTF8(sl, 0); err != nil {
		t.Errorf("slice without the bad row: %v", err)
	}
}

func TestCheckUTF8Nested(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{{Name: "fault", Type: arrow.StructOf(
		arrow.Field{Name: "class", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.NewGoAllocator(), sc)
	defer b.Release()
	sb := b.Field(0).(*array.StructBuilder)
	sb.Append(true)
	sb.FieldBuilder(0).(*array.StringBuilder).Append("x\xfe")
	rec := b.NewRecordBatch()
	defer rec.Release()
	if got := errText(checkUTF8(rec, 0)); got != "column fault: invalid UTF-8" {
		t.Errorf("%q, want column fault: invalid UTF-8", got)
	}
	if got := errText(checkFieldNames([]arrow.Field{{Name: "fault", Type: arrow.StructOf(arrow.Field{Name: "cl\xe3ss", Type: arrow.BinaryTypes.String})}})); got != `column name "cl\xe3ss": invalid UTF-8` {
		t.Errorf("field names: %q", got)
	}
}

// TestArrowInvalidUTF8 is a file error naming column and row (DuckDB
// would refuse the bytes without either).
func TestArrowInvalidUTF8(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.arrow")
	lines := []string{runLine, `{"type":"terminal","run_id":"r\u00e9","ts":"2026-11-28T02:00:07Z","terminal":"completed"}`}
	b := encodeArrow(t, CanonicalArrowSchema, lines, false)
	// Cut "é" (c3 a9) to an invalid byte in place.
	i := bytes.Index(b, []byte("r\xc3\xa9"))
	if i < 0 {
		t.Fatal("no é in the file")
	}
	b[i+2] = 'x'
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ingestArrow(context.Background(), openDB(t), path, "bad.arrow", "")
	var in *InputError
	if !errors.As(err, &in) || errText(err) != "bad.arrow: corrupt Arrow IPC data: column run_id, row 2: invalid UTF-8" {
		t.Errorf("err = %v (%T)", err, err)
	}
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
