package cli

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/report/accounting"
	sampletraces "github.com/faultlens/faultlens/sample-traces"
	"github.com/faultlens/faultlens/store"
)

// source says where a reading command's data comes from: a persistent
// database, trace files ingested into memory, or (neither given) the
// bundled samples.
type source struct {
	db    string
	more  []string // further --db values: shards read as one (shards.go)
	paths []string
}

// open returns a database holding the source's traces. Ingest accounting
// goes to log. The returned close function releases everything.
func (src source) open(ctx context.Context, g *global, log io.Writer) (*sql.DB, func(), error) {
	noop := func() {}
	if src.sharded() {
		return src.openShards(ctx, g, log)
	}
	if src.db != "" && len(src.paths) == 0 {
		if _, err := os.Stat(src.db); err != nil {
			return nil, noop, &ingest.InputError{Path: src.db, Err: fmt.Errorf("no such database (create it with faultlens ingest --db %s PATH...)", src.db)}
		}
	}
	paths, names := src.paths, map[string]string(nil)
	cleanup := noop
	if src.db == "" && len(paths) == 0 {
		dir, extracted, err := sampletraces.Extract("")
		if err != nil {
			return nil, noop, err
		}
		// A scratch copy of the embedded samples: one left in the temp dir
		// is harmless, and the command's own error is the one to report.
		cleanup = func() { _ = os.RemoveAll(dir) }
		names = map[string]string{}
		for _, p := range extracted {
			names[p] = filepath.Join("sample-traces", filepath.Base(p))
		}
		paths = extracted
	} else if len(paths) > 0 {
		var err error
		if paths, err = ingest.Expand(paths); err != nil {
			return nil, noop, err
		}
	}
	// Notices go to log (stderr): one that cannot be written has nowhere
	// else to go.
	note := func(msg string) { _, _ = fmt.Fprintf(log, "faultlens: %s\n", msg) }
	lim := g.limits
	lim.OnWait = note
	if src.db != "" && len(paths) == 0 {
		// Reading only: share the file with other readers; wait for a writer.
		db, err := store.OpenReadOnly(ctx, src.db, lim)
		if err != nil {
			return nil, noop, err
		}
		return db, func() { _ = db.Close() }, nil // read-only: nothing to lose
	}
	db, err := store.Open(ctx, src.db, lim)
	if err != nil {
		cleanup()
		return nil, noop, err
	}
	// A failed checkpoint at close leaves the WAL, which the next open
	// replays: nothing committed is lost, and the command's result stands.
	done := func() { _ = db.Close(); cleanup() }
	if len(paths) > 0 {
		rs, err := ingest.Files(ctx, db, paths, ingest.Options{Names: names, Wait: g.limits.LockWait, TempDir: g.limits.TempDir,
			Notify: note})
		_ = accounting.Write(log, rs, false) // to stderr, as note
		if err != nil {
			done()
			return nil, noop, err
		}
	}
	return db, done, nil
}
