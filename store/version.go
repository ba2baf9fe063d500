package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/faultlens/faultlens/queries"
)

// upgrades[v] names the statement that takes a database from storage
// version v to v+1 (index 0 unused: version 0 is an empty file).
var upgrades = []string{"", "schema.upgrade_1_to_2"}

// NewerError says the database was written by a newer faultlens whose
// layout this binary does not know; reading it could show wrong numbers and
// writing it could destroy it, so every command refuses.
type NewerError struct{ Version int }

func (e *NewerError) Error() string {
	return fmt.Sprintf("database written by a newer faultlens (schema %d, this binary reads up to %d)", e.Version, StorageVersion)
}

// DBError is a problem with the database file itself (not a database, not
// a faultlens database, unreadable, read-only, newer), as opposed to one of
// the input files. It names the database.
type DBError struct {
	Path string
	Err  error
}

func (e *DBError) Error() string { return fmt.Sprintf("database %s: %v", e.Path, e.Err) }

func (e *DBError) Unwrap() error { return e.Err }

// ErrNotFaultlens says the file is a DuckDB database of something else.
var ErrNotFaultlens = errors.New("not a faultlens database (a DuckDB file without faultlens tables)")

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// storedVersion reads the storage version of an open database: 0 for an
// empty one. A database holding tables but no faultlens_meta is someone
// else's and is refused.
func storedVersion(ctx context.Context, q querier) (int, error) {
	var meta, tables int
	if err := q.QueryRowContext(ctx, queries.Get("store.version_tables")).Scan(&meta, &tables); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if meta == 0 {
		if tables > 0 {
			return 0, ErrNotFaultlens
		}
		return 0, nil
	}
	var text string
	err := q.QueryRowContext(ctx, queries.Get("store.version_value")).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil // the first releases wrote the table before the key
	}
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	v, err := strconv.Atoi(text)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("schema version %q is not a number", text)
	}
	return v, nil
}

// checkVersion refuses a database a reader cannot trust: someone else's, or
// one written by a newer faultlens. An older one is read as it is (its
// cache, if any, is ignored).
func checkVersion(ctx context.Context, q querier, path string) error {
	v, err := storedVersion(ctx, q)
	if err == nil && v > StorageVersion {
		err = &NewerError{Version: v}
	}
	if err == nil && v == 0 {
		err = ErrNotFaultlens
	}
	if err != nil {
		return &DBError{Path: path, Err: err}
	}
	return nil
}

// checkFile refuses, before DuckDB sees it, a database path that is a
// directory or a special file (DuckDB would report these as internal
// errors or block on a FIFO).
func checkFile(path string) error {
	if path == "" {
		return nil
	}
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &DBError{Path: path, Err: err}
	}
	switch {
	case st.IsDir():
		return &DBError{Path: path, Err: errors.New("is a directory, not a database file")}
	case !st.Mode().IsRegular():
		return &DBError{Path: path, Err: errors.New("is not a regular file")}
	}
	return nil
}
