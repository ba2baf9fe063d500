package ingest

import (
	"context"
	"database/sql"
	"errors"
	"strings"
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
	return queries.Args{"columns": typedColumns(), "event": typedEvent(), "suspect": typedSuspect()}
})

// typedReadOff turns the typed read off, so that tests and benchmarks can
// compare it with the JSON way on the same file.
var typedReadOff bool

// typedRelation is ingest.ndjson_typed over the file at path.
func typedRelation(path string) string {
	return queries.Render("ingest.ndjson_typed", TypedReadArgs(path))
}

// commitTyped stores a clean file through DuckDB's typed NDJSON reader, the
// fastest route (issue 12.2), when the file is one that route judges exactly
// as the JSON way would: no key the contract does not name (kept in extra
// only by the JSON way) and no value the typed read may have coerced. It
// returns where the file goes otherwise; the transaction of a refused file
// is rolled back.
func commitTyped(ctx context.Context, conn *sql.Conn, path, name string, res *FileResult) route {
	if typedReadOff {
		return routeJSON
	}
	if _, err := conn.ExecContext(ctx, queries.Get("ingest.typed_macros")); err != nil {
		return routeJSON
	}
	var unknown bool
	if err := conn.QueryRowContext(ctx, queries.Render("ingest.unknown_keys", unknownKeyArgs(path))).Scan(&unknown); err != nil {
		return routePrecise // a line that is not JSON: only the line-precise path can say which
	}
	if unknown {
		return routeJSON
	}
	err := commitFastRows(ctx, conn, rules(typedRelation(path)), "NULL::JSON", name, res)
	switch {
	case err == nil:
		res.typedRead = true
		return routeStored
	case strings.Contains(err.Error(), "wrong type for field coerced"), errors.Is(err, errNotClean):
		// errNotClean: a duplicate event or a line DuckDB did not count;
		// the JSON way finds out which without the typed read's doubts.
		return routeJSON
	}
	return routePrecise
}
