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
// the key/type scan found of the contract's JSON types takes the read, and
// then it can ask for the contract's types as they are: an integer field
// holds -?(0|[1-9][0-9]{0,17}), as a number or a string (which the reader casts, as
// the JSON way does), a boolean field true or false. Timestamps are read as
// text: ingest.checked judges their form, which DuckDB's cast does not.

// typedColumns is the columns argument of read_ndjson: every contract field
// with its contract type.
func typedColumns() string {
	var cols []string
	for _, f := range CanonicalArrowSchema.Fields() {
		cols = append(cols, queries.Ident(f.Name)+": "+queries.Literal(duckType(f.Type)))
	}
	return "{" + strings.Join(cols, ", ") + "}"
}

// typedEvent is the contract struct e built from the read columns.
func typedEvent() string {
	var fs []string
	for _, f := range CanonicalArrowSchema.Fields() {
		fs = append(fs, queries.Ident(f.Name)+" := "+queries.Ident(f.Name))
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
