package ingest

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// The SQL fragments of the typed NDJSON read (queries/ingest_typed.sql),
// generated from the one list of contract fields and types,
// CanonicalArrowSchema, so that a field added to the contract reaches the
// read, the event struct and the key/type scan (keyscan.go) at once.
//
// DuckDB's typed reader coerces silently where the contract does not (see
// TestTypedReadNeverAcceptsAWrongType): a number, true or an object read as
// VARCHAR becomes its text, 1.5 or true read as BIGINT becomes 2 or 1,
// "yes" or 1 read as BOOLEAN becomes true. So only a file whose every line
// the key/type scan found of the contract's JSON types takes the read; it
// asks for integers as VARCHAR (an integer's text, or a string's: both
// plain -?[0-9]{1,18} by the scan) and booleans as JSON, and casts them.

// readType is the type the typed read asks for a contract field of type t.
func readType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.INT64:
		return "VARCHAR"
	case arrow.BOOL:
		return "JSON"
	case arrow.STRUCT:
		var fs []string
		for _, f := range t.(*arrow.StructType).Fields() {
			fs = append(fs, queries.Ident(f.Name)+" "+readType(f.Type))
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	return duckType(t)
}

// typedColumns is the columns argument of read_ndjson: every contract field
// with its read type.
func typedColumns() string {
	var cols []string
	for _, f := range CanonicalArrowSchema.Fields() {
		cols = append(cols, queries.Ident(f.Name)+": "+queries.Literal(readType(f.Type)))
	}
	return "{" + strings.Join(cols, ", ") + "}"
}

// typedEvent is the contract struct e built from the read columns: each
// field cast to its contract type (try_cast: the scan lets through only
// values that cast).
func typedEvent() string {
	var fs []string
	for _, f := range CanonicalArrowSchema.Fields() {
		v := queries.Ident(f.Name)
		if readType(f.Type) != duckType(f.Type) {
			v = "try_cast(" + v + " AS " + duckType(f.Type) + ")"
		}
		fs = append(fs, queries.Ident(f.Name)+" := "+v)
	}
	return "struct_pack(" + strings.Join(fs, ",\n  ") + ")"
}

// objectPaths are the JSON paths of the contract's objects, the top level
// first, and the keys the contract names in each.
func objectPaths() (paths []string, keys [][]string) {
	var walk func(path string, fs []arrow.Field)
	walk = func(path string, fs []arrow.Field) {
		var names []string
		for _, f := range fs {
			names = append(names, f.Name)
		}
		paths, keys = append(paths, path), append(keys, names)
		for _, f := range fs {
			if st, ok := f.Type.(*arrow.StructType); ok {
				walk(path+"."+f.Name, st.Fields())
			}
		}
	}
	walk("$", CanonicalArrowSchema.Fields())
	return paths, keys
}
