package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/faultlens/faultlens/queries"
)

// ErrLocked says another process holds the database and did not let go in
// time. DuckDB allows one writing process, or any number of reading
// processes, per database file.
var ErrLocked = errors.New("database is in use by another process")

// isLockError recognises DuckDB's file-lock conflict.
func isLockError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Could not set lock on file")
}

// waitForLock calls open until it succeeds, fails for another reason, or
// lim.LockWait runs out while the file is locked. While it waits it queues
// (queue.go), and it lets processes that queued before it go first.
func waitForLock(ctx context.Context, path string, lim Limits, open func() (*sql.DB, error)) (*sql.DB, error) {
	wait := lim.LockWait
	if wait == 0 {
		wait = 60 * time.Second
	}
	deadline := time.Now().Add(wait)
	told := false
	var me *waiter
	defer func() { me.leave() }()
	for {
		var err error
		if pid := ahead(path, me); pid != 0 {
			err = queuedError(pid)
		} else {
			var db *sql.DB
			db, err = open()
			if !isLockError(err) {
				return db, err
			}
		}
		if me == nil {
			me = queue(path)
		}
		if time.Now().After(deadline) {
			return nil, &DBError{Path: path, Err: fmt.Errorf("%w (waited %s; %s)", ErrLocked, wait, lockHolder(err))}
		}
		if !told && lim.OnWait != nil {
			lim.OnWait(fmt.Sprintf("database %s is in use by another process (%s); waiting up to %s", path, lockHolder(err), wait))
			told = true
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pollEvery):
		}
		me.refresh()
	}
}

// lockHolder extracts "PID n" from DuckDB's lock message when present.
func lockHolder(err error) string {
	msg := err.Error()
	queued := errors.Is(err, errQueued)
	if i := strings.Index(msg, "PID "); i >= 0 {
		end := i + 4
		for end < len(msg) && msg[end] >= '0' && msg[end] <= '9' {
			end++
		}
		if queued {
			return msg[i:end] + " waits for it first"
		}
		return "held by " + msg[i:end]
	}
	return "locked"
}

// OpenReadOnly opens an existing faultlens database for reading. Readers
// share the file with each other but not with a writer: while an ingest
// writes, this waits up to lim.LockWait.
func OpenReadOnly(ctx context.Context, path string, lim Limits) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, &DBError{Path: path, Err: err}
	}
	if err := checkFile(path); err != nil {
		return nil, err
	}
	db, err := waitForLock(ctx, path, lim, func() (*sql.DB, error) {
		return openOnce(ctx, path, "?access_mode=READ_ONLY", lim)
	})
	if err != nil {
		return nil, err
	}
	if err := checkVersion(ctx, db, path); err != nil {
		_ = db.Close() // read-only, and the version error is the one to report
		return nil, err
	}
	var n int
	if err := db.QueryRowContext(ctx, queries.Get("store.faultlens_tables")).Scan(&n); err != nil || n != 3 {
		_ = db.Close() // read-only: nothing to lose
		return nil, &DBError{Path: path, Err: ErrNotFaultlens}
	}
	return db, nil
}
