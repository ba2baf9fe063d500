package cli

import (
	"context"
	"database/sql"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/ui"
)

type uiOptions struct {
	src                 source
	baseline, candidate string
	follow              bool
	followEvery         time.Duration
}

func newUICmd(s Streams, g *global) *cobra.Command {
	o := &uiOptions{}
	cmd := &cobra.Command{
		Use:   "ui [--db FILE] [--baseline B --candidate C] [PATH...]",
		Short: "Open the interactive dashboard",
		Long: `Open the interactive terminal dashboard over the traces: overview, latency,
errors and recovery, runs, run detail, compare and a read-only SQL console.
With neither --db nor PATHs it opens the bundled samples. With --db and
--follow it refreshes as the file grows (faultlens serve writing to it).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			// A long-lived reader works on a snapshot so a nightly ingest is never blocked.
			o.src.snapshot = true
			return runUI(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.src.db, "db", "", "read this database file")
	cmd.Flags().StringVar(&o.baseline, "baseline", "", "baseline suite (default: baseline, else the first)")
	cmd.Flags().StringVar(&o.candidate, "candidate", "", "candidate suite (default: candidate, else the second)")
	cmd.Flags().BoolVar(&o.follow, "follow", false, "refresh as --db grows (faultlens serve writing to it)")
	cmd.Flags().DurationVar(&o.followEvery, "follow-every", 2*time.Second, "with --follow, how often to look for new runs")
	return cmd
}

func runUI(ctx context.Context, s Streams, g *global, o *uiOptions) error {
	if o.follow && o.src.db == "" {
		return usagef("--follow needs --db")
	}
	db, done, err := o.src.open(ctx, g, io.Discard)
	if err != nil {
		return err
	}
	defer done()
	if o.baseline == "" && o.candidate == "" {
		// A nightly store holds many suites; building facts over all of them
		// would need the memory of all of them. Open on the last two nights.
		order, err := metrics.SuitesByDate(ctx, db)
		if err != nil {
			return err
		}
		if n := len(order); n > 2 {
			o.baseline, o.candidate = order[n-2].Suite, order[n-1].Suite
		}
	}
	var follow *ui.Follow
	if o.follow {
		follow = &ui.Follow{Every: o.followEvery, Path: o.src.db, Release: done,
			Reopen: func(ctx context.Context) (*sql.DB, func(), error) { return store.Snapshot(ctx, o.src.db, g.limits) }}
	}
	return ui.Run(ctx, ui.Options{
		DB: db, Baseline: o.baseline, Candidate: o.candidate, Follow: follow,
		NoColor: os.Getenv("NO_COLOR") != "", In: s.In, Out: s.Out,
	})
}
