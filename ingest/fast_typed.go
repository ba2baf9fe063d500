package ingest

import (
	"context"
	"database/sql"
	"sync"

	"github.com/faultlens/faultlens/queries"
)

// typedFragments are the generated parts of ingest.ndjson_typed, built once.
var typedFragments = sync.OnceValue(func() queries.Args {
	return queries.Args{"columns": typedColumns(), "event": typedEvent()}
})

// typedRelation is ingest.ndjson_typed over the file at path.
func typedRelation(path string) string {
	return queries.Render("ingest.ndjson_typed", TypedReadArgs(path))
}

// commitTyped stores a clean file through DuckDB's typed NDJSON reader, the
// fastest route, chosen (firstRoute) when the prescan's key/type scan (sc)
// found every line one that route judges exactly as the JSON way would: a
// JSON object of the contract's keys and JSON types. A file it does not
// store (a duplicate event, a line DuckDB did not count, a rejected row)
// is rolled back with errNotClean.
func commitTyped(ctx context.Context, conn *sql.Conn, path, name string, res *FileResult, sc *scan, rt Routes) error {
	err := commitFastRows(ctx, conn, rulesScanned(typedRelation(path), sc, rt), "NULL::JSON", name, res)
	if err == nil {
		res.typedRead = true
	}
	return err
}
