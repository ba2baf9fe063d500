package ingest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/faultlens/faultlens/queries"
)

// The typed Arrow path: the record batches are written unchanged to a
// Parquet file (arrow_parquet.go) and DuckDB reads that file's typed columns
// with read_parquet. The schema was checked once in Go (checkArrowSchema),
// so no per-row type check is left: arrowTyped only builds, from the file's
// schema, the relation that ingest.checked expects (the contract struct e,
// the timestamps as instants, bad_field), and the contract's rules in
// queries/ingest.sql judge it exactly as they judge a JSON line.

// arrowTyped returns the typed relation over the Parquet chunk files at
// paths (arrow_chunks.go) whose columns are those of sc: line_no (the
// 1-based row number), text and raw
// (NULL; see arrowChecked), e, jt (NULL), ts_v, enq_v, start_v, end_v,
// bad_field, and src_row, the whole row as a struct (for the text of a
// rejected row and for extra).
func arrowTyped(sc *arrow.Schema, paths []string) string {
	return arrowTypedFrom(sc, paths, 0)
}

// arrowTypedFrom is arrowTyped over the chunk files from chunk first on
// (paths), numbering their rows after the first*chunkRows of the chunks
// before.
func arrowTypedFrom(sc *arrow.Schema, paths []string, first int) string {
	args := arrowTypedArgs(sc, paths)
	args["base"] = strconv.FormatInt(int64(first)*chunkRows, 10)
	return queries.Render("ingest.arrow_typed", args)
}

// arrowTypedArgs fills ingest.arrow_typed for the Parquet chunk files at
// paths whose columns are those of sc, the first of them chunk 0.
func arrowTypedArgs(sc *arrow.Schema, paths []string) queries.Args {
	var fields []string
	var bad []string
	for _, want := range CanonicalArrowSchema.Fields() {
		got, ref := arrowColumn(sc, want.Name)
		var v string
		if timestampFields[want.Name] {
			v = tsText(got, ref)
		} else {
			v = typedExpr(want.Name, want.Type, got, ref, &bad)
		}
		fields = append(fields, queries.Ident(want.Name)+" := "+v)
	}
	args := queries.Args{
		"paths":      "[" + queries.Literals(paths) + "]",
		"base":       "0",
		"chunk_rows": strconv.FormatInt(chunkRows, 10),
		"event":      "struct_pack(" + strings.Join(fields, ",\n    ") + ")",
		"bad_field":  "NULL::VARCHAR",
	}
	for i, name := range []string{"ts", "enqueued_at", "started_at", "ended_at"} {
		got, ref := arrowColumn(sc, name)
		args[[]string{"ts_v", "enq_v", "start_v", "end_v"}[i]] = tsValue(got, ref)
	}
	if len(bad) > 0 {
		args["bad_field"] = "CASE " + strings.Join(bad, " ") + " END"
	}
	var row []string
	for _, f := range sc.Fields() {
		row = append(row, queries.Ident(f.Name)+" := p."+queries.Ident(f.Name))
	}
	args["src_row"] = "struct_pack(" + strings.Join(row, ", ") + ")"
	return args
}

// arrowExtra is the SQL for extra of the typed Arrow path: the whole row as
// JSON when the schema holds a field the contract does not name (as a JSON
// line with an unknown field keeps the line), else NULL.
func arrowExtra(sc *arrow.Schema) string {
	if hasUnknownFields(sc) {
		return "to_json(src_row)"
	}
	return "NULL::JSON"
}

// arrowChecked is the line-precise table of the typed Arrow path: the rules
// over arrowTyped with extra, its SQL. text stays NULL until arrowTexts.
func arrowChecked(checked, extra string) string {
	return queries.Render("ingest.arrow_check", queries.Args{"checked": checked, "extra": extra})
}

// arrowTexts fills the text of the rows that will be rejected (a broken
// rule or a duplicate) with the row as JSON, cut as a rejected line is. It
// reads the rows again, so a clean file (checked by the caller) skips it.
func arrowTexts(typed string) string {
	return queries.Render("ingest.arrow_texts", queries.Args{"typed": typed})
}

// arrowColumn returns the Arrow type of the contract column name in sc (nil
// when it is absent or of type null) and its reference in arrowTyped.
func arrowColumn(sc *arrow.Schema, name string) (arrow.DataType, string) {
	idx := sc.FieldIndices(name)
	if len(idx) != 1 || sc.Field(idx[0]).Type.ID() == arrow.NULL {
		return nil, ""
	}
	return sc.Field(idx[0]).Type, "p." + queries.Ident(name)
}

// typedExpr is the SQL expression of the contract field path (dotted) of
// contract type want, read from ref whose Arrow type is got (nil: absent).
// A uint64 that does not fit the contract's signed integer adds a WHEN to
// bad, naming the field as the JSON path does.
func typedExpr(path string, want, got arrow.DataType, ref string, bad *[]string) string {
	if got == nil || got.ID() == arrow.NULL {
		return "NULL::" + duckType(want)
	}
	if d, ok := got.(*arrow.DictionaryType); ok {
		got = d.ValueType
	}
	switch want.ID() {
	case arrow.INT64:
		if got.ID() == arrow.UINT64 {
			*bad = append(*bad, "WHEN "+ref+" > 9223372036854775807 THEN '"+path+": expected integer'")
			return "try_cast(" + ref + " AS BIGINT)"
		}
		return "CAST(" + ref + " AS BIGINT)"
	case arrow.STRUCT:
		gs := got.(*arrow.StructType)
		if arrow.TypeEqual(got, want) {
			return ref
		}
		var fs []string
		for _, wf := range want.(*arrow.StructType).Fields() {
			var mt arrow.DataType
			mref := ref + "." + queries.Ident(wf.Name)
			if idx := gs.FieldIndices(wf.Name); len(idx) == 1 {
				mt = gs.Field(idx[0]).Type
			}
			fs = append(fs, queries.Ident(wf.Name)+" := "+typedExpr(path+"."+wf.Name, wf.Type, mt, mref, bad))
		}
		return "CASE WHEN " + ref + " IS NULL THEN NULL ELSE struct_pack(" + strings.Join(fs, ", ") + ") END"
	}
	return "CAST(" + ref + " AS " + duckType(want) + ")"
}

// tsText is a contract timestamp as the text the rules check: the string
// as written, or an Arrow timestamp (with a zone, checked) as RFC 3339 UTC.
func tsText(got arrow.DataType, ref string) string {
	switch {
	case got == nil:
		return "NULL::VARCHAR"
	case got.ID() == arrow.TIMESTAMP:
		return "strftime(timezone('UTC', " + ref + "::TIMESTAMPTZ), '%Y-%m-%dT%H:%M:%S.%fZ')"
	}
	return "CAST(" + ref + " AS VARCHAR)"
}

// tsValue is a contract timestamp as an instant: the cast the JSON path
// makes of a string, or the Arrow timestamp itself.
func tsValue(got arrow.DataType, ref string) string {
	switch {
	case got == nil:
		return "NULL::TIMESTAMPTZ"
	case got.ID() == arrow.TIMESTAMP:
		return ref + "::TIMESTAMPTZ"
	}
	s := "CAST(" + ref + " AS VARCHAR)"
	return "coalesce(try_cast(" + s + " AS TIMESTAMPTZ), try_cast(upper(" + s + ") AS TIMESTAMPTZ))"
}

// duckType is the DuckDB type of a contract type, as json_transform gives
// it in ingest.json_typed.
func duckType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.STRING:
		return "VARCHAR"
	case arrow.INT64:
		return "BIGINT"
	case arrow.BOOL:
		return "BOOLEAN"
	case arrow.LIST:
		return "VARCHAR[]"
	case arrow.STRUCT:
		var fs []string
		for _, f := range t.(*arrow.StructType).Fields() {
			fs = append(fs, queries.Ident(f.Name)+" "+duckType(f.Type))
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	panic(fmt.Sprintf("no DuckDB type for contract type %s", t))
}

// hasUnknownFields reports whether sc holds a column, or a member of a
// contract struct, that the contract does not name.
func hasUnknownFields(sc *arrow.Schema) bool {
	for _, f := range sc.Fields() {
		idx := CanonicalArrowSchema.FieldIndices(f.Name)
		if len(idx) == 0 {
			return true
		}
		if unknownMembers(CanonicalArrowSchema.Field(idx[0]).Type, f.Type) {
			return true
		}
	}
	return false
}

func unknownMembers(want, got arrow.DataType) bool {
	ws, ok := want.(*arrow.StructType)
	gs, ok2 := got.(*arrow.StructType)
	if !ok || !ok2 {
		return false
	}
	for _, g := range gs.Fields() {
		idx := ws.FieldIndices(g.Name)
		if len(idx) == 0 || unknownMembers(ws.Field(idx[0]).Type, g.Type) {
			return true
		}
	}
	return false
}

// quoteIdent quotes a column name for SQL.
