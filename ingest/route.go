package ingest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/faultlens/faultlens/store"
)

// The JSON Lines routes, in one place. The prescan (prescan.go, with its
// key/type scan) decides once which route a file takes first; each route
// stores the file whole or returns an error, and only errNotClean (the
// file holds something that route cannot account for) passes the file on
// to the next, slower route. Any other error (a full disk, a read-only
// database, an interrupt) is returned at once: another route would fail
// the same way, only later. Small files take a fourth route, the batch
// (batch.go), chosen in Files; a batch that is not clean goes file by file
// through these.

// jsonlRoute is one way of storing a JSON Lines file.
type jsonlRoute int

const (
	routeSplit   jsonlRoute = iota // the typed read, with a few lines line by line (fast_split.go)
	routeTyped                     // DuckDB's typed NDJSON reader (fast_typed.go)
	routeJSON                      // DuckDB's NDJSON object reader and the JSON validation (fast.go)
	routePrecise                   // Go numbers every line (precise.go): it accounts for anything
)

// Routes switch routes off, so that tests and benchmarks can compare the
// routes on the same file. The zero value, every route on, is what the
// commands use.
type Routes struct {
	NoTyped   bool // never the typed read (nor the split route, which uses it)
	NoSplit   bool // never the split route
	NoTSProof bool // judge timestamps by the regexes even when the scan proved their form
}

// firstRoute is the route the prescan sc chooses for a file.
func firstRoute(sc *scan, rt Routes) jsonlRoute {
	switch {
	case sc.splittable() && !rt.NoSplit && !rt.NoTyped:
		return routeSplit
	case sc.suspect, sc.malformed > 0:
		return routePrecise // only the line-precise path can say which lines
	case sc.typedClean() && !rt.NoTyped:
		return routeTyped
	}
	return routeJSON
}

// next is the route a file that was not clean on r goes to: a file the
// typed read refused is judged the JSON way (a duplicate event, a line
// DuckDB did not count), anything else line by line. The split route goes
// straight there: its failure is a rejected row or a duplicate, which the
// JSON way would meet too.
func (r jsonlRoute) next() jsonlRoute {
	if r == routeTyped {
		return routeJSON
	}
	return routePrecise
}

// storeScanned stores the JSON lines of plain (named name, prescanned as sc)
// on the route the prescan chooses, passing it on only while a route finds
// it not clean; tmpDir takes the split route's temporary file.
func storeScanned(ctx context.Context, conn *sql.Conn, plain, name, tmpDir string, res *FileResult, sc *scan, rt Routes) error {
	for r := firstRoute(sc, rt); ; r = r.next() {
		var err error
		res.routes++
		switch r {
		case routeSplit:
			err = commitSplit(ctx, conn, plain, name, tmpDir, res, sc, rt)
		case routeTyped:
			err = commitTyped(ctx, conn, plain, name, res, sc, rt)
		case routeJSON:
			err = commitJSON(ctx, conn, plain, name, res)
		default:
			return storePrecise(ctx, conn, plain, name, res)
		}
		if !errors.Is(err, errNotClean) {
			return err
		}
	}
}

// refused is the error of a route's statement over the file, made
// errNotClean when the file is at fault: DuckDB's reader refused a line, a
// row broke a rule (ingest.valid_or_fail), a cast failed. Exhausted memory
// counts too, since the line-precise path validates in chunks sized by the
// memory limit. The machine's other failures (a full disk, a read-only
// database, store.IsEnvironment) and an interrupt are returned as they
// are, typed.
func refused(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, errNotClean) {
		return err
	}
	if ctx.Err() != nil {
		return err
	}
	t := store.Typed(err)
	if store.IsEnvironment(t) && !errors.Is(t, store.ErrOutOfMemory) && !errors.Is(t, store.ErrTempFull) {
		return t
	}
	return fmt.Errorf("%w: %w", errNotClean, err)
}

// ignoreNotClean is nil for errNotClean, else err.
func ignoreNotClean(err error) error {
	if errors.Is(err, errNotClean) {
		return nil
	}
	return err
}
