package ingest

import (
	"context"
	"database/sql"
	"errors"
	"sync"

	"github.com/faultlens/faultlens/queries"
)

// route is where the typed fast path sends a file it did not store.
type route int

const (
	routeStored  route = iota // stored by the typed read
	routeJSON                 // judged the JSON way (ingest.json_typed), fast path first
	routePrecise              // a rejected row or a malformed line: line by line
)

// typedFragments are the generated parts of ingest.ndjson_typed, built once.
var typedFragments = sync.OnceValue(func() queries.Args {
	return queries.Args{"columns": typedColumns(), "event": typedEvent()}
})

// typedReadOff turns the typed read off, so that tests and benchmarks can
// compare it with the JSON way on the same file.
var typedReadOff bool

// typedRelation is ingest.ndjson_typed over the file at path.
func typedRelation(path string) string {
	return queries.Render("ingest.ndjson_typed", TypedReadArgs(path))
}

// commitTyped stores a clean file through DuckDB's typed NDJSON reader, the
// fastest route (issue 12.2), when the prescan's key/type scan (sc) found
// every line one that route judges exactly as the JSON way would: a JSON
// object of the contract's keys and JSON types. A file with a malformed
// line goes line by line, one with any other line the JSON way. It returns
// where the file goes otherwise; the transaction of a refused file is
// rolled back.
func commitTyped(ctx context.Context, conn *sql.Conn, path, name string, res *FileResult, sc *scan) route {
	switch {
	case typedReadOff:
		return routeJSON
	case sc.malformed > 0:
		return routePrecise // only the line-precise path can say which
	case !sc.typedClean():
		return routeJSON
	}
	err := commitFastRows(ctx, conn, rulesScanned(typedRelation(path), sc), "NULL::JSON", name, res)
	switch {
	case err == nil:
		res.typedRead = true
		return routeStored
	case errors.Is(err, errNotClean):
		// A duplicate event or a line DuckDB did not count: the JSON way
		// finds out which.
		return routeJSON
	}
	return routePrecise
}
