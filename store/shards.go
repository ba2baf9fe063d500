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

// OpenShards gives a reader one private in-memory database holding every
// run of several faultlens databases: the shards of a receiver fleet, each
// holding the runs whose traces were routed to it. Runs are independent,
// so a report of the copy is the report of one database that had received
// everything, as long as no run is split over two shards (routing by trace
// id keeps a run on one). Each shard is read under a reader's lock that is
// let go as soon as it is copied, as OpenScoped does for one file.
func OpenShards(ctx context.Context, paths []string, lim Limits) (*sql.DB, error) {
	for _, p := range paths {
		if err := checkFile(p); err != nil {
			return nil, err
		}
		if _, err := os.Stat(p); err != nil {
			return nil, &DBError{Path: p, Err: err}
		}
	}
	db, err := openOnce(ctx, "", "", lim)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db); err != nil {
		_ = db.Close() // in memory: nothing to lose
		return nil, err
	}
	for _, p := range paths {
		if err := copyShard(ctx, db, p, lim); err != nil {
			_ = db.Close() // in memory: nothing to lose
			var dbe *DBError
			if errors.As(err, &dbe) {
				return nil, err
			}
			return nil, &DBError{Path: p, Err: err}
		}
	}
	return db, nil
}

// copyShard attaches one shard, copies it after the shards copied before,
// and detaches it (letting go of its lock) whatever happens.
func copyShard(ctx context.Context, db *sql.DB, path string, lim Limits) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }() // back to the pool of an in-memory database
	if err := attach(ctx, conn, "store.attach_source", path, lim); err != nil {
		return err
	}
	// A failed DETACH of a read-only attachment loses nothing.
	defer func() { _ = detach(ctx, conn, "store.detach_source") }()
	if err := execNamed(ctx, conn, "store.use_source"); err != nil {
		return err
	}
	if err := checkVersion(ctx, conn, path); err != nil {
		return err
	}
	if err := execNamed(ctx, conn, "store.use_memory", "store.begin"); err != nil {
		return err
	}
	if err := copyShardRows(ctx, conn); err != nil {
		_ = execNamed(context.WithoutCancel(ctx), conn, "store.rollback") // the copy's error is the one to report
		return fmt.Errorf("copy: %w", err)
	}
	return execNamed(ctx, conn, "store.commit")
}

// copyShardRows copies the attached shard's files, events and rejected
// lines, its file ids moved past those already copied.
func copyShardRows(ctx context.Context, conn *sql.Conn) error {
	var offset int64
	if err := conn.QueryRowContext(ctx, queries.Get("shards.max_file")).Scan(&offset); err != nil {
		return err
	}
	args := queries.Args{"offset": strconv.FormatInt(offset, 10)}
	for _, name := range []string{"shards.copy_files", "shards.copy_events", "shards.copy_rejected"} {
		if _, err := conn.ExecContext(ctx, queries.Render(name, args)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
