package cli

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/queries"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/textsafe"
)

func init() { register(newPruneCmd) }

type pruneOptions struct {
	db        string
	olderThan string
	dryRun    bool
	now       func() time.Time
}

func newPruneCmd(s Streams, g *global) *cobra.Command {
	o := &pruneOptions{now: time.Now}
	cmd := &cobra.Command{
		Use:   "prune --db FILE --older-than 30d [--dry-run]",
		Short: "Drop suites older than a cutoff from a database and reclaim space",
		Long: `Drop every suite whose earliest run started before now minus --older-than
(units: h, d, w), with all its events; files left without events are
forgotten (so they could be ingested again) and the database is checkpointed
to reclaim space.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPrune(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.db, "db", "", "database file (required)")
	cmd.Flags().StringVar(&o.olderThan, "older-than", "", "age cutoff, e.g. 30d, 12h, 2w (required)")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "only list what would be dropped")
	cmd.MarkFlagRequired("db")
	cmd.MarkFlagRequired("older-than")
	return cmd
}

// parseAge reads a duration with the units h, d and w.
func parseAge(s string) (time.Duration, error) {
	units := map[string]time.Duration{"h": time.Hour, "d": 24 * time.Hour, "w": 7 * 24 * time.Hour}
	for suffix, unit := range units {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.Atoi(n)
			if err == nil && v > 0 {
				return time.Duration(v) * unit, nil
			}
		}
	}
	return 0, usagef("--older-than %q: want a positive whole number with h, d or w, e.g. 30d", s)
}

func runPrune(ctx context.Context, s Streams, g *global, o *pruneOptions) error {
	age, err := parseAge(o.olderThan)
	if err != nil {
		return err
	}
	db, err := openExisting(ctx, s, g, o.db)
	if err != nil {
		return err
	}
	defer db.Close()
	cutoff := o.now().Add(-age)
	rows, err := db.QueryContext(ctx, queries.Get("prune.suites"), cutoff)
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	type victim struct {
		suite   string
		started time.Time
		runs    int64
	}
	var victims []victim
	for rows.Next() {
		var v victim
		if err := rows.Scan(&v.suite, &v.started, &v.runs); err != nil {
			rows.Close()
			return err
		}
		victims = append(victims, v)
	}
	rows.Close()
	if len(victims) == 0 {
		fmt.Fprintf(s.Out, "nothing older than %s (before %s)\n", o.olderThan, cutoff.UTC().Format(time.RFC3339))
		return nil
	}
	for _, v := range victims {
		verb := "dropping"
		if o.dryRun {
			verb = "would drop"
		}
		fmt.Fprintf(s.Out, "%s suite %s: %d runs, started %s\n", verb, sanitize(v.suite), v.runs, v.started.UTC().Format(time.RFC3339))
	}
	if o.dryRun {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, v := range victims {
		if _, err := tx.ExecContext(ctx, queries.Get("prune.delete_events"), v.suite); err != nil {
			return fmt.Errorf("prune suite %s: %w", v.suite, err)
		}
		if _, err := tx.ExecContext(ctx, queries.Get("cache.delete"), v.suite); err != nil {
			return fmt.Errorf("prune suite %s: %w", v.suite, err)
		}
	}
	for _, q := range []string{"prune.delete_rejected", "prune.delete_files", "cache.cap", "cache.cap_watermark"} {
		if _, err := tx.ExecContext(ctx, queries.Get(q)); err != nil {
			return fmt.Errorf("prune: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	// DuckDB reuses freed blocks but does not shrink the file; copying the
	// database into a fresh file does.
	before := fileSize(o.db)
	if err := compact(ctx, db, o.db); err != nil {
		return fmt.Errorf("prune: compact %s: %w", o.db, err)
	}
	fmt.Fprintf(s.Out, "database %s: %d → %d bytes\n", o.db, before, fileSize(o.db))
	return nil
}

// compact rewrites the database at path into a fresh file and swaps it in.
// The db handle is closed on return.
func compact(ctx context.Context, db *sql.DB, path string) error {
	tmp := path + ".compact"
	os.Remove(tmp)
	var name string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		return err
	}
	stmts := []string{
		"ATTACH " + store.Quote(tmp) + " AS faultlens_compact",
		"COPY FROM DATABASE " + store.QuoteIdent(name) + " TO faultlens_compact",
		"DETACH faultlens_compact",
	}
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	if err := db.Close(); err != nil {
		return err
	}
	os.Remove(path + ".wal")
	return os.Rename(tmp, path)
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// sanitize makes a trace string inert on a terminal.
func sanitize(s string) string { return textsafe.Terminal(s) }
