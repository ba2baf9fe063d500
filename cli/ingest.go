package cli

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/report/accounting"
	"github.com/faultlens/faultlens/store"
)

type ingestOptions struct {
	db    string
	suite string
	paths []string
}

func newIngestCmd(s Streams, g *global) *cobra.Command {
	o := &ingestOptions{}
	cmd := &cobra.Command{
		Use:   "ingest --db FILE PATH...",
		Short: "Load trace files into a persistent database",
		Long: `Load trace files into a DuckDB database file: JSON Lines (.jsonl, .ndjson,
and either gzipped), OTLP/JSON (one export request per line) and Arrow IPC;
files, directories or glob patterns. Each file is one transaction and is read at most once:
a file whose content is already in the database is skipped. Rejected lines are
kept with file, line number and reason (see faultlens rejected).

"-" reads standard input; /dev/stdin, <(...) and FIFOs are read as streams
too (copied once to --temp-dir, then ingested like a file). After the files,
the per-suite metrics cache is brought up to date, including any refresh an
interrupted ingest left undone.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runIngest(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.db, "db", "", "database file to create or add to (required)")
	cmd.Flags().StringVar(&o.suite, "suite", "", "suite for OTLP runs (default: the service.name resource attribute)")
	requireFlags(cmd, "db")
	return cmd
}

func runIngest(ctx context.Context, s Streams, g *global, o *ingestOptions) (err error) {
	paths, err := ingest.Expand(o.paths)
	if err != nil {
		return err
	}
	lim := g.limits
	lim.OnWait = s.waitNotice
	db, err := store.Open(ctx, o.db, lim)
	if err != nil {
		return err
	}
	// Closing checkpoints what was written: its failure (a full disk) is news.
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close %s: %w", o.db, cerr)
		}
	}()
	start := time.Now()
	opts := ingest.Options{Suite: o.suite, Wait: g.limits.LockWait, TempDir: g.limits.TempDir,
		Notify: s.waitNotice}
	if s.ErrTTY {
		opts.Progress = progressLine(s, len(paths), start)
	}
	rs, err := ingest.Files(ctx, db, paths, opts)
	if s.ErrTTY {
		s.notef("\r\x1b[K")
	}
	werr := accounting.Write(s.Out, rs, true)
	if err != nil {
		// The files before the failing one are committed: refresh their
		// suites' cache now. The failure stays the one message and the exit
		// status; if the refresh fails too (a full disk), readers detect the
		// stale rows and the next ingest finishes it.
		_ = refreshSuites(ctx, s, db)
		return err
	}
	if werr != nil {
		return werr
	}
	t, _, _ := ingest.Totals(rs)
	if secs := time.Since(start).Seconds(); secs > 1 {
		s.notef("%s", accounting.Rate(t.Events, secs))
	}
	return refreshSuites(ctx, s, db)
}

// refreshSuites brings the cached report of every suite the committed
// files touch up to date, so that history and reports over many nights stay
// fast. It also finishes the work of an earlier command that crashed or
// failed after committing files, which is why it runs even when every file
// of this command was a duplicate or a later file failed.
func refreshSuites(ctx context.Context, s Streams, db *sql.DB) error {
	start := time.Now()
	suites, err := metrics.Freshen(ctx, db)
	if err != nil {
		return fmt.Errorf("refresh suite metrics: %w", err)
	}
	if len(suites) > 0 {
		s.notef("suite metrics refreshed for %d suite(s) in %.1fs\n", len(suites), time.Since(start).Seconds())
	}
	return nil
}

// progressLine returns a callback that redraws one status line on stderr
// after each file. Only used when stderr is a terminal.
func progressLine(s Streams, total int, start time.Time) func(ingest.FileResult) {
	done, events := 0, int64(0)
	return func(r ingest.FileResult) {
		done++
		events += r.Accepted
		s.notef("%s", accounting.Progress(done, total, events, time.Since(start).Seconds()))
	}
}
