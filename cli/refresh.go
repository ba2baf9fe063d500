package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
)

func init() { register(newRefreshCmd) }

type refreshOptions struct {
	db     string
	suites []string
}

func newRefreshCmd(s Streams, g *global) *cobra.Command {
	o := &refreshOptions{}
	cmd := &cobra.Command{
		Use:   "refresh --db FILE [--suite S]...",
		Short: "Recompute the per-suite metrics cache of a database",
		Long: `ingest keeps a cached report per suite for the suites each new file touches,
so that history and reports over many nights read one row per suite. refresh
recomputes it for the given suites, or all of them: after an upgrade of
faultlens (a cache written by other metric SQL is ignored, not wrong, but slow)
or for a database filled by an older version.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRefresh(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.db, "db", "", "database file (required)")
	cmd.Flags().StringArrayVar(&o.suites, "suite", nil, "refresh only this suite (repeatable)")
	requireFlags(cmd, "db")
	return cmd
}

func runRefresh(ctx context.Context, s Streams, g *global, o *refreshOptions) (err error) {
	db, err := openExisting(ctx, s, g, o.db)
	if err != nil {
		return err
	}
	// Closing checkpoints the refreshed cache: its failure (a full disk) is news.
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close %s: %w", o.db, cerr)
		}
	}()
	start := time.Now()
	suites := o.suites
	if len(suites) == 0 {
		if suites, err = metrics.RefreshAll(ctx, db); err != nil {
			return err
		}
	} else if err := metrics.RefreshCache(ctx, db, suites); err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "refreshed the metrics of %d suite(s) in %.1fs\n", len(suites), time.Since(start).Seconds())
	return err
}

// openExisting opens an existing database for writing, waiting for a lock
// with a message.
func openExisting(ctx context.Context, s Streams, g *global, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, usagef("%s: no such database", path)
	}
	lim := g.limits
	lim.OnWait = s.waitNotice
	return store.Open(ctx, path, lim)
}
