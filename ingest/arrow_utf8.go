package ingest

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Arrow's string types must hold UTF-8, but nothing in the IPC format
// checks it, and DuckDB's Parquet reader refuses invalid bytes with an
// error that names no row. So every string column of a batch is checked
// here, at a few GB/s: the bytes of the whole column at once (ASCII
// only, the rule, ends the check), then that no value starts inside a
// character. A file that fails is corrupt: an error
// naming the column and, for a top-level column, the row.

// checkUTF8 checks the string columns of rec, whose first row is row
// first+1 of the file.
func checkUTF8(rec arrow.RecordBatch, first int64) error {
	for i, c := range rec.Columns() {
		if bad, ok := invalidUTF8(c); !ok {
			name := rec.Schema().Field(i).Name
			if bad >= 0 {
				return fmt.Errorf("column %s, row %d: invalid UTF-8", name, first+int64(bad)+1)
			}
			return fmt.Errorf("column %s: invalid UTF-8", name)
		}
	}
	return nil
}

// invalidUTF8 reports whether every string value in a (nested ones
// included) is UTF-8; when not, and the bad value is one of a's own, its
// index (else -1).
func invalidUTF8(a arrow.Array) (int, bool) {
	switch a := a.(type) {
	case *array.String:
		return checkStrings(a, a.ValueOffsets(), valueBuffer(a))
	case *array.LargeString:
		return checkStrings(a, a.ValueOffsets(), valueBuffer(a))
	case *array.Struct:
		for i := 0; i < a.NumField(); i++ {
			if _, ok := invalidUTF8(a.Field(i)); !ok {
				return -1, false
			}
		}
	case array.ListLike:
		if _, ok := invalidUTF8(a.ListValues()); !ok {
			return -1, false
		}
	case *array.Dictionary:
		if _, ok := invalidUTF8(a.Dictionary()); !ok {
			return -1, false
		}
	}
	return -1, true
}

// valueBuffer is the whole buffer of a string array's bytes, which its
// offsets index.
func valueBuffer(a arrow.Array) []byte {
	if bs := a.Data().Buffers(); len(bs) == 3 && bs[2] != nil {
		return bs[2].Bytes()
	}
	return nil
}

// checkStrings checks the values of a string array with offsets (len+1 of
// them, the array's own) into data: all at once when they are valid, which
// is the rule, one by one to find the first bad non-null value when not.
func checkStrings[T int32 | int64](a arrow.Array, offsets []T, data []byte) (int, bool) {
	if len(offsets) == 0 {
		return -1, true
	}
	lo, hi := offsets[0], offsets[len(offsets)-1]
	if lo < 0 || hi < lo || int64(hi) > int64(len(data)) {
		return -1, false
	}
	if asciiOnly(data[lo:hi]) || utf8.Valid(data[lo:hi]) && startsOnRunes(offsets, data, hi) {
		return -1, true
	}
	for i := 0; i+1 < len(offsets); i++ {
		s, e := offsets[i], offsets[i+1]
		if a.IsNull(i) {
			continue
		}
		if s < lo || e < s || e > hi || !utf8.Valid(data[s:e]) {
			return i, false
		}
	}
	return -1, true
}

// asciiOnly reports whether b holds no byte above 0x7F, 8 bytes at a time:
// then no value can start inside a character, and the offsets need no look.
func asciiOnly(b []byte) bool {
	for ; len(b) >= 8; b = b[8:] {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// startsOnRunes reports whether no offset below hi falls inside a
// character (on a UTF-8 continuation byte).
func startsOnRunes[T int32 | int64](offsets []T, data []byte, hi T) bool {
	for _, o := range offsets {
		if o < hi && (o < 0 || data[o]&0xC0 == 0x80) {
			return false
		}
	}
	return true
}

// checkFieldNames reports a column or member name, at any depth, that is
// not UTF-8: DuckDB cannot name it.
func checkFieldNames(fields []arrow.Field) error {
	for _, f := range fields {
		if !utf8.ValidString(f.Name) {
			return fmt.Errorf("column name %q: invalid UTF-8", f.Name)
		}
		if nested, ok := f.Type.(arrow.NestedType); ok {
			if err := checkFieldNames(nested.Fields()); err != nil {
				return err
			}
		}
	}
	return nil
}
