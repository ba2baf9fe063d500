package cli

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/ingest"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/queries"
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
		Long: `Load trace files (.jsonl, .jsonl.gz; files, directories or glob patterns) into
a DuckDB database file. Each file is one transaction and is read at most once:
a file whose content is already in the database is skipped. Rejected lines are
kept with file, line number and reason (see faultlens rejected).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return runIngest(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.db, "db", "", "database file to create or add to (required)")
	cmd.Flags().StringVar(&o.suite, "suite", "", "suite for OTLP runs (default: the service.name resource attribute)")
	cmd.MarkFlagRequired("db")
	return cmd
}

func runIngest(ctx context.Context, s Streams, g *global, o *ingestOptions) error {
	paths, err := ingest.Expand(o.paths)
	if err != nil {
		return err
	}
	lim := g.limits
	lim.OnWait = func(msg string) { fmt.Fprintf(s.Err, "faultlens: %s\n", msg) }
	db, err := store.Open(ctx, o.db, lim)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	opts := ingest.Options{Suite: o.suite}
	if s.ErrTTY {
		opts.Progress = progressLine(s, len(paths), start)
	}
	rs, err := ingest.Files(ctx, db, paths, opts)
	if s.ErrTTY {
		fmt.Fprint(s.Err, "\r\x1b[K")
	}
	printAccounting(s.Out, rs, true)
	if err != nil {
		return err
	}
	t, _, _ := ingest.Totals(rs)
	if secs := time.Since(start).Seconds(); secs > 1 {
		s.Err.Write([]byte(formatRate(t.Events, secs)))
	}
	return refreshSuites(ctx, s, db, rs)
}

// refreshSuites recomputes the cached report of every suite the new files
// touched, so that history and reports over many nights stay fast.
func refreshSuites(ctx context.Context, s Streams, db *sql.DB, rs []ingest.FileResult) error {
	var ids []string
	for _, r := range rs {
		if r.FileID > 0 {
			ids = append(ids, strconv.FormatInt(r.FileID, 10))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	start := time.Now()
	q := strings.ReplaceAll(queries.Get("suites.touched"), "{{files}}", strings.Join(ids, ", "))
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("refresh suite metrics: %w", err)
	}
	var suites []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		suites = append(suites, name)
	}
	rows.Close()
	if err := metrics.RefreshCache(ctx, db, suites); err != nil {
		return fmt.Errorf("refresh suite metrics: %w", err)
	}
	fmt.Fprintf(s.Err, "suite metrics refreshed for %d suite(s) in %.1fs\n", len(suites), time.Since(start).Seconds())
	return nil
}

// progressLine returns a callback that redraws one status line on stderr
// after each file: files done, events so far and the rate. Only used when
// stderr is a terminal.
func progressLine(s Streams, total int, start time.Time) func(ingest.FileResult) {
	done, events := 0, int64(0)
	return func(r ingest.FileResult) {
		done++
		events += r.Accepted
		secs := time.Since(start).Seconds()
		width := 24
		filled := done * width / total
		bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
		fmt.Fprintf(s.Err, "\r\x1b[K%s %d/%d files  %d events  %.0f events/s", bar, done, total, events, float64(events)/secs)
	}
}
