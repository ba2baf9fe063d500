// Package store opens the DuckDB database that holds ingested traces and
// applies the schema. Every other package receives an open *sql.DB from here.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/faultlens/faultlens/queries"

	"github.com/duckdb/duckdb-go/v2"
)

// SchemaVersion is the version of the trace contract this build stores.
const SchemaVersion = "1"

// StorageVersion is the version of the database layout (queries/schema.sql)
// this build writes and reads, kept in faultlens_meta under schema_version.
// Version 1 (no files_upto in suite_metrics) is migrated on a writing open;
// a database of a higher version is refused by every command.
const StorageVersion = 2

// Limits bounds DuckDB's resource use. Zero values take the defaults.
type Limits struct {
	// MemoryLimit is DuckDB's memory_limit, e.g. "2GB". Default "1536MB".
	MemoryLimit string
	// Threads is DuckDB's worker thread count. Default: the number of CPUs.
	Threads int
	// TempDir is where DuckDB spills when memory runs short. Default: a
	// directory of this process under faultlens-spill-<uid> in the system temp
	// dir, see defaultSpillDir (DuckDB's own
	// default is next to the database file, which a read-only or in-memory
	// database cannot always use).
	TempDir string
	// LockWait is how long opening waits while another process holds the
	// database (DuckDB allows one writer, or any number of readers, per
	// file). Default 60s.
	LockWait time.Duration
	// OnWait, when not nil, is told once that opening is waiting for a lock.
	OnWait func(msg string)
}

// schemaStatements lists the schema in the order it is applied.
var schemaStatements = []string{"schema.meta", "schema.files", "schema.rejected", "schema.events", "schema.suite_metrics"}

// Open opens (creating if needed) the database at path for writing; ""
// means in memory. It applies the schema and session settings before
// returning, waiting up to lim.LockWait while another process holds the file.
func Open(ctx context.Context, path string, lim Limits) (*sql.DB, error) {
	if err := checkFile(path); err != nil {
		return nil, err
	}
	db, err := waitForLock(ctx, path, lim, func() (*sql.DB, error) { return openCurrent(ctx, path, lim) })
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db); err != nil {
		_ = db.Close() // migrate rolled back: the file is as it was
		return nil, &DBError{Path: displayPath(path), Err: Typed(err)}
	}
	return db, nil
}

// openCurrent opens path for writing, again if the file at path was
// replaced while it was being opened: Compact renames its copy over the
// file while holding the lock on both, and a writer that opened the old
// file just before and got its lock just after would write into a file no
// path names any more.
func openCurrent(ctx context.Context, path string, lim Limits) (*sql.DB, error) {
	for {
		before, err := os.Stat(path)
		db, oerr := openOnce(ctx, path, "", lim)
		if oerr != nil || err != nil {
			return db, oerr // err: a new file, which nothing replaces
		}
		if openHook != nil {
			openHook()
		}
		after, err := os.Stat(path)
		if err == nil && os.SameFile(before, after) {
			return db, nil
		}
		_ = db.Close() // the replaced file: nothing was written to it
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}

// openHook, when set (by tests), runs between opening a file and checking
// that the path still names it.
var openHook func()

func openOnce(ctx context.Context, path, params string, lim Limits) (*sql.DB, error) {
	connector, err := duckdb.NewConnector(path+params, nil)
	if err != nil {
		return nil, &DBError{Path: displayPath(path), Err: Typed(err)}
	}
	db := sql.OpenDB(connector)
	if err := configure(ctx, db, lim); err != nil {
		_ = db.Close() // nothing written yet
		return nil, &DBError{Path: displayPath(path), Err: Typed(err)}
	}
	return db, nil
}

func displayPath(path string) string {
	if path == "" {
		return "(in memory)"
	}
	return path
}

func configure(ctx context.Context, db *sql.DB, lim Limits) error {
	if lim.MemoryLimit == "" {
		lim.MemoryLimit = "1536MB"
	}
	if lim.Threads <= 0 {
		lim.Threads = runtime.NumCPU()
	}
	if lim.TempDir == "" {
		lim.TempDir = defaultSpillDir()
	}
	stmts := []string{
		queries.Get("store.set_timezone"),
		queries.Render("store.set_threads", queries.Args{"threads": strconv.Itoa(lim.Threads)}),
		queries.Render("store.set_memory_limit", queries.Args{"limit": queries.Literal(lim.MemoryLimit)}),
	}
	if lim.TempDir != "" {
		stmts = append(stmts, queries.Render("store.set_temp_directory", queries.Args{"dir": queries.Literal(lim.TempDir)}))
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// migrate brings the database to StorageVersion in one transaction: a crash
// or a failure leaves it as it was.
func migrate(ctx context.Context, db interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	// A no-op after Commit; on an earlier error, that error is the one to report.
	defer func() { _ = tx.Rollback() }()
	v, err := storedVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > StorageVersion {
		return &NewerError{Version: v}
	}
	if v > 0 {
		for _, name := range upgrades[v:] {
			if _, err := tx.ExecContext(ctx, queries.Get(name)); err != nil {
				return fmt.Errorf("migrate from schema %d: %s: %w", v, name, err)
			}
		}
	}
	for _, name := range schemaStatements {
		if _, err := tx.ExecContext(ctx, queries.Get(name)); err != nil {
			return fmt.Errorf("schema %s: %w", name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, queries.Get("store.set_version"),
		sql.Named("version", strconv.Itoa(StorageVersion))); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	return tx.Commit()
}
