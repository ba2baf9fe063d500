package cli

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/report"
	"github.com/faultlens/faultlens/store"
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
	requireFlags(cmd, "db", "older-than")
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
	if _, err := os.Stat(o.db); err != nil {
		return usagef("%s: no such database", o.db)
	}
	lim := g.limits
	lim.OnWait = s.waitNotice
	cutoff := o.now().Add(-age)
	res, err := store.Prune(ctx, o.db, lim, cutoff, o.dryRun)
	if err != nil {
		return err
	}
	return report.WritePrune(s.Out, res, o.dryRun, o.db, o.olderThan, cutoff)
}
