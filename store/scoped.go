package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/faultlens/faultlens/queries"
)

// ChooseSuites picks, from the database being read (conn has it as its
// default database), the suites to copy; nil means all of them.
type ChooseSuites func(ctx context.Context, conn *sql.Conn) ([]string, error)

// OpenScoped gives a long-lived reader (the dashboard) a private in-memory
// database holding the events of the suites choose picks, read from the
// database at path under a reader's lock that is let go as soon as they
// are copied. Unlike a copy of the file, this costs the chosen suites, not
// the database (one night's read from a database of thirty nights), leaves
// no file behind on any exit path, and blocks a nightly ingest only for the
// copy. The returned suites are the ones copied (nil: all). While a writer
// holds the file it waits up to lim.LockWait, telling lim.OnWait.
func OpenScoped(ctx context.Context, path string, lim Limits, choose ChooseSuites) (*sql.DB, []string, error) {
	if err := checkFile(path); err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil, &DBError{Path: path, Err: err}
	}
	db, err := openOnce(ctx, "", "", lim)
	if err != nil {
		return nil, nil, err
	}
	if err := migrate(ctx, db); err != nil {
		_ = db.Close() // in memory: nothing to lose
		return nil, nil, &DBError{Path: path, Err: err}
	}
	suites, err := copyScoped(ctx, db, path, lim, choose)
	if err != nil {
		_ = db.Close() // in memory: nothing to lose
		var dbe *DBError
		if errors.As(err, &dbe) {
			return nil, nil, err
		}
		return nil, nil, &DBError{Path: path, Err: err}
	}
	return db, suites, nil
}

// copyScoped attaches the file, copies, and detaches (letting go of the
// reader's lock) whatever happens.
func copyScoped(ctx context.Context, db *sql.DB, path string, lim Limits, choose ChooseSuites) ([]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = conn.Close() }() // back to the pool of an in-memory database
	if err := attach(ctx, conn, "store.attach_source", path, lim); err != nil {
		return nil, err
	}
	// A failed DETACH of a read-only attachment loses nothing.
	defer func() { _ = detach(ctx, conn, "store.detach_source") }()
	if err := execNamed(ctx, conn, "store.use_source"); err != nil {
		return nil, err
	}
	if err := checkVersion(ctx, conn, path); err != nil {
		return nil, err
	}
	var suites []string
	if choose != nil {
		if suites, err = choose(ctx, conn); err != nil {
			return nil, err
		}
	}
	// One transaction on the source: the copy is of one committed state.
	if err := execNamed(ctx, conn, "store.use_memory", "store.begin"); err != nil {
		return nil, err
	}
	if err := copySteps(ctx, conn, suites); err != nil {
		_ = execNamed(context.WithoutCancel(ctx), conn, "store.rollback") // the copy's error is the one to report
		return nil, fmt.Errorf("copy: %w", err)
	}
	if err := execNamed(ctx, conn, "store.commit"); err != nil {
		return nil, err
	}
	return suites, nil
}

// copySteps copies the chosen suites' events (all with none chosen), the
// files table and the rejected lines of the copied events' files.
func copySteps(ctx context.Context, conn *sql.Conn, suites []string) error {
	run := func(q string) error { _, err := conn.ExecContext(ctx, q); return err }
	if len(suites) == 0 {
		if err := execNamed(ctx, conn, "scope.copy_all_events"); err != nil {
			return err
		}
	} else {
		if err := run(queries.Render("scope.copy_runs", queries.Args{"suites": queries.Literals(suites)})); err != nil {
			return err
		}
		if slices.Contains(suites, "unknown") {
			if err := execNamed(ctx, conn, "scope.copy_unknown_runs"); err != nil {
				return err
			}
		}
		files, err := fileIDs(ctx, conn)
		if err != nil {
			return err
		}
		if len(files) > 0 {
			if err := run(queries.Render("scope.copy_events", queries.Args{"files": queries.List(files)})); err != nil {
				return err
			}
		}
	}
	return execNamed(ctx, conn, "scope.copy_files", "scope.copy_rejected")
}

// fileIDs lists the files holding the chosen runs' events, as SQL literals.
func fileIDs(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, queries.Get("scope.copy_files_of_runs"))
	if err != nil {
		return nil, err
	}
	// A failed read shows in rows.Err; closing after it has nothing to add.
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, strconv.FormatInt(id, 10))
	}
	return out, rows.Err()
}
