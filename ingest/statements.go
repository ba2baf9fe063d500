package ingest

import "github.com/faultlens/faultlens/queries"

// The placeholders of ingest's statements that are generated from the
// contract's field list, filled as ingest fills them. Ingest uses them
// itself; they are exported for the statement tests of package queries,
// which render and prepare every statement with its callers' values.

// JSONTypedArgs fills ingest.json_typed over the relation source.
func JSONTypedArgs(source string) queries.Args {
	args := queries.Args{"source": source}
	for k, v := range jsonTypedFragments() {
		args[k] = v
	}
	return args
}

// ExtraJSON is ingest.extra_json, the JSON way's extra expression, filled.
func ExtraJSON() string { return extraJSON() }

// TypedReadArgs fills ingest.ndjson_typed (and ingest.bench_read, which
// takes its path and columns) for the JSON Lines file at path.
func TypedReadArgs(path string) queries.Args {
	args := queries.Args{"path": queries.Literal(path)}
	for k, v := range typedFragments() {
		args[k] = v
	}
	return args
}

// ArrowTypedArgs fills ingest.arrow_typed for a Parquet file at path with
// the canonical columns (as export writes them).
func ArrowTypedArgs(path string) queries.Args {
	return arrowTypedArgs(CanonicalArrowSchema, []string{path})
}
