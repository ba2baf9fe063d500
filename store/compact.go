package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
)

// Change runs in Compact's writing session before the rewrite, with the
// database file as conn's current database. It says whether the file is to
// be rewritten at all.
type Change func(ctx context.Context, conn *sql.Conn) (rewrite bool, err error)

// Compaction says whether the file was rewritten and its size before and
// after, in bytes.
type Compaction struct {
	Rewritten     bool
	Before, After int64
}

// compactHook, when set (by tests), is called at each step of the rewrite
// with the step's name: "copied", "renamed", "old_detached".
var compactHook func(step string)

// Compact opens the existing database at path for writing, runs change (nil
// means rewrite unconditionally) and, if it asks, rewrites the file into a
// fresh one holding only live blocks: DuckDB reuses freed blocks but never
// shrinks a file.
//
// The fresh file replaces the old one without a moment in which the path is
// unlocked: the file is attached (not opened) to a private in-memory
// DuckDB, so the fresh copy can be renamed over it while this process holds
// the writer's lock on both, and the old one let go of before the new one.
// A writer waiting for the lock (serve reopening after --idle-close, an
// ingest) therefore opens the new file, never the old one that is about to
// disappear with whatever it would have written.
func Compact(ctx context.Context, path string, lim Limits, change Change) (Compaction, error) {
	var res Compaction
	if err := checkFile(path); err != nil {
		return res, err
	}
	if _, err := os.Stat(path); err != nil {
		return res, &DBError{Path: path, Err: err}
	}
	db, err := openOnce(ctx, "", "", lim)
	if err != nil {
		return res, err
	}
	// In memory, and the file is detached before: closing loses nothing.
	defer func() { _ = db.Close() }()
	conn, err := db.Conn(ctx)
	if err != nil {
		return res, &DBError{Path: path, Err: err}
	}
	defer func() { _ = conn.Close() }() // see db above
	if err := attach(ctx, conn, "store.attach_db", path, lim); err != nil {
		return res, asDBError(path, err)
	}
	attached := true
	defer func() {
		if attached {
			_ = detach(ctx, conn, "store.detach_db") // the error that got us here is the one to report
		}
	}()
	if err := execNamed(ctx, conn, "store.use_db"); err != nil {
		return res, &DBError{Path: path, Err: err}
	}
	if err := migrate(ctx, conn); err != nil {
		return res, &DBError{Path: path, Err: err}
	}
	if change != nil {
		rewrite, err := change(ctx, conn)
		if err != nil || !rewrite {
			return res, err
		}
	}
	res.Before = fileSize(path)
	attached = false // rewrite detaches it at the right moment
	if err := rewrite(ctx, conn, path, lim); err != nil {
		return res, fmt.Errorf("compact %s: %w", path, err)
	}
	res.Rewritten, res.After = true, fileSize(path)
	return res, nil
}

// rewrite copies the attached faultlens_db into path+".compact", renames
// that over path and detaches both, old first. On an error before the
// rename the old file is left as it was, and the copy removed.
func rewrite(ctx context.Context, conn *sql.Conn, path string, lim Limits) (err error) {
	tmp := path + ".compact"
	// A killed earlier compaction may have left its copy.
	if err := removeIfExists(tmp, tmp+".wal"); err != nil {
		return err
	}
	if err := execNamed(ctx, conn, "store.checkpoint_db"); err != nil {
		return err
	}
	renamed := false
	defer func() {
		if !renamed {
			_ = detach(ctx, conn, "store.detach_db") // reporting err, the first failure
		}
	}()
	if err := attach(ctx, conn, "store.attach_compact", tmp, lim); err != nil {
		return err
	}
	defer func() {
		if derr := detach(ctx, conn, "store.detach_compact"); err == nil {
			err = derr
		}
		if !renamed {
			_ = removeIfExists(tmp, tmp+".wal") // a half copy is worthless; err says why
		}
	}()
	if err := execNamed(ctx, conn, "store.copy_to_compact", "store.checkpoint_compact"); err != nil {
		return err
	}
	step("copied")
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	renamed = true
	step("renamed")
	// The new file is still locked: nothing but the old database can have
	// written path+".wal", and that WAL must not be replayed onto the new.
	if err := detach(ctx, conn, "store.detach_db"); err != nil {
		return err
	}
	if err := removeIfExists(path + ".wal"); err != nil {
		return err
	}
	step("old_detached")
	return nil
}

func step(name string) {
	if compactHook != nil {
		compactHook(name)
	}
}

// removeIfExists removes each file, a missing one being no error.
func removeIfExists(paths ...string) error {
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// fileSize is the size of the file at path, 0 when it cannot be read.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// asDBError names the database in err unless it already does.
func asDBError(path string, err error) error {
	var dbe *DBError
	if errors.As(err, &dbe) {
		return err
	}
	return &DBError{Path: path, Err: err}
}
