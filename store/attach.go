package store

import (
	"context"
	"database/sql"

	"github.com/faultlens/faultlens/queries"
)

// execer runs a statement: a *sql.DB, *sql.Conn or *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// execNamed runs the named statements in order, stopping at the first error.
func execNamed(ctx context.Context, e execer, names ...string) error {
	for _, name := range names {
		if _, err := e.ExecContext(ctx, queries.Get(name)); err != nil {
			return err
		}
	}
	return nil
}

// attach runs the ATTACH statement name for the file at path on conn,
// retrying while another process holds the file (ATTACH takes the same file
// lock as opening it: shared for READ_ONLY, exclusive otherwise).
func attach(ctx context.Context, conn *sql.Conn, name, path string, lim Limits) error {
	q := queries.Render(name, queries.Args{"path": queries.Literal(path)})
	_, err := waitForLock(ctx, path, lim, func() (*sql.DB, error) {
		_, err := conn.ExecContext(ctx, q)
		return nil, err
	})
	return err
}

// detach lets go of an attached database (and its lock) even when ctx is
// done: a lock must not outlive the command that took it.
func detach(ctx context.Context, conn *sql.Conn, name string) error {
	ctx = context.WithoutCancel(ctx)
	if err := execNamed(ctx, conn, "store.use_memory"); err != nil {
		return err
	}
	return execNamed(ctx, conn, name)
}
