package ingest

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// The SQL fragments of the typed NDJSON read (queries/ingest_typed.sql),
// generated from the one list of contract fields and types,
// CanonicalArrowSchema, so that a field added to the contract reaches the
// read, the event struct, the coercion check and the unknown-key probe at
// once.
//
// DuckDB's typed reader coerces silently where the contract does not (see
// TestTypedReadCoercions): true or an object read as VARCHAR becomes its
// text, 1.5 or true read as BIGINT becomes 2 or 1, "yes" or 1 read as
// BOOLEAN becomes true. So the read asks for integers as VARCHAR (the
// number's text, or the string's) and booleans as JSON (true and "true"
// stay apart), and typedSuspect flags every value that a coercion may have
// produced. A flagged file goes the exact JSON way, which names the field.

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
// field cast to its contract type (try_cast: a value that does not cast is
// flagged by typedSuspect and never stored from this path).
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

// typedSuspect is true for a row holding a value the read may have coerced
// from another JSON type: a string field holding true, false or text that
// starts like an object or array; an integer field holding anything but an
// optionally signed run of at most 18 digits; a boolean field holding
// anything but true or false; an array element that is null or such a text.
// type and the timestamps are left out, as in ingest.json_typed: their own
// rules judge their text. The fields of one kind are joined into one text
// per row, each marked (the concat_ws skips absent ones), and judged by one
// macro: one flag per field, an OR of 66 terms for every row, cost half the
// raw read (docs/benchmarks.md).
func typedSuspect() string {
	var texts, ints, bools, flags []string
	var walk func(ref string, t arrow.DataType)
	walk = func(ref string, t arrow.DataType) {
		switch t.ID() {
		case arrow.STRING:
			texts = append(texts, "chr(1) || "+ref+" || chr(2)")
		case arrow.INT64:
			ints = append(ints, "',' || "+ref)
		case arrow.BOOL:
			bools = append(bools, "',' || "+ref+"::VARCHAR")
		case arrow.LIST:
			flags = append(flags, "list_bool_or(list_transform("+ref+", x -> x IS NULL OR suspect_text(x)))")
		case arrow.STRUCT:
			for _, f := range t.(*arrow.StructType).Fields() {
				walk(ref+"."+queries.Ident(f.Name), f.Type)
			}
		}
	}
	for _, f := range CanonicalArrowSchema.Fields() {
		if f.Name == "type" || timestampFields[f.Name] {
			continue
		}
		walk(queries.Ident(f.Name), f.Type)
	}
	joined := func(macro string, parts []string) string {
		return macro + "(concat_ws('', " + strings.Join(parts, ",\n    ") + "))"
	}
	flags = append([]string{joined("suspect_texts", texts), joined("suspect_integers", ints),
		joined("suspect_booleans", bools)}, flags...)
	return "coalesce(" + strings.Join(flags, "\n  OR ") + ", false)"
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

// unknownKeyArgs fills ingest.unknown_keys: the object paths and, for the
// list k of their keys, the condition that some key is not the contract's.
func unknownKeyArgs(path string) queries.Args {
	paths, keys := objectPaths()
	var conds []string
	for i, ks := range keys {
		conds = append(conds, "NOT coalesce(list_has_all(["+queries.Literals(ks)+"], k["+strconv.Itoa(i+1)+"]), true)")
	}
	return queries.Args{
		"path":    queries.Literal(path),
		"paths":   "[" + queries.Literals(paths) + "]",
		"unknown": strings.Join(conds, "\n   OR "),
	}
}
