package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/store"
	"github.com/faultlens/faultlens/textsafe"
	"github.com/faultlens/faultlens/ui"
)

type uiOptions struct {
	src                 source
	baseline, candidate string
	follow              bool
	followEvery         time.Duration

	// mu guards what the dashboard's commands read and write while it runs:
	// the pair (the suite picker changes it, following reads it) and the
	// catalog of the file's suites, read again at each copy.
	mu      sync.Mutex
	catalog []metrics.SuiteStart
}

func newUICmd(s Streams, g *global) *cobra.Command {
	o := &uiOptions{}
	cmd := &cobra.Command{
		Use:   "ui [--db FILE] [--baseline B --candidate C] [PATH...]",
		Short: "Open the interactive dashboard",
		Long: "Open the interactive terminal dashboard over the traces. Its views, in tab order:\n" +
			strings.Join(ui.ViewNames(), ", ") + ".\nSQL is a read-only console; ? lists the keys of the view on screen.\n" +
			`With neither --db nor PATHs it opens the bundled samples. With --db and
--follow it refreshes as the file grows (faultlens serve writing to it).

With --db the dashboard reads the two suites it shows (--baseline and
--candidate, else the last two nights) into memory under a short reader's
lock and lets go of the file, so that it opens as fast on thirty nights as
on one and never blocks a nightly ingest for longer than that read.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args
			return runUI(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().Var(dbFlag{&o.src}, "db", "read this database file; repeat it, or give a glob, to read shards as one")
	cmd.Flags().StringVar(&o.baseline, "baseline", "", "baseline suite (default: baseline, else the first)")
	cmd.Flags().StringVar(&o.candidate, "candidate", "", "candidate suite (default: candidate, else the second)")
	cmd.Flags().BoolVar(&o.follow, "follow", false, "refresh as --db grows (faultlens serve writing to it)")
	cmd.Flags().DurationVar(&o.followEvery, "follow-every", 2*time.Second, "with --follow, how often to look for new runs")
	return cmd
}

func runUI(ctx context.Context, s Streams, g *global, o *uiOptions) error {
	if o.follow && (o.src.db == "" || o.src.sharded()) {
		return usagef("--follow needs --db")
	}
	// The suites are checked first, so that a mistyped --candidate says so
	// (with the suites there are) wherever it is typed.
	db, done, err := openForUI(ctx, s, g, o)
	if err != nil {
		return err
	}
	defer done()
	if f, ok := s.In.(*os.File); ok && !term.IsTerminal(f.Fd()) {
		return usagef("the dashboard needs a terminal on standard input; for text use faultlens report")
	}
	var follow *ui.Follow
	reopen := func(ctx context.Context) (*sql.DB, func(), error) {
		db, _, err := store.OpenScoped(ctx, o.src.db, g.limits, o.chooseSuites)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { _ = db.Close() }, nil // in memory: nothing to lose
	}
	opts := ui.Options{DB: db, Baseline: o.baseline, Candidate: o.candidate,
		NoColor: os.Getenv("NO_COLOR") != "", In: s.In, Out: s.Out}
	if o.src.db != "" && len(o.src.paths) == 0 {
		// The copy holds two suites; the picker lists the file's and copies
		// the pair picked.
		opts.Catalog = func(context.Context) ([]metrics.SuiteStart, error) {
			o.mu.Lock()
			defer o.mu.Unlock()
			return append([]metrics.SuiteStart(nil), o.catalog...), nil
		}
		opts.Rescope = func(ctx context.Context, base, cand string) (*sql.DB, func(), error) {
			o.mu.Lock()
			o.baseline, o.candidate = base, cand
			o.mu.Unlock()
			return reopen(ctx)
		}
	}
	if o.follow {
		// Each refresh reads the same suites again into a new private
		// database under a short reader's lock, as the first open did.
		follow = &ui.Follow{Every: o.followEvery, Path: o.src.db, Release: done, Reopen: reopen}
	}
	opts.Follow = follow
	return ui.Run(ctx, opts)
}

// checkSuites fails with the suites there are when --baseline or
// --candidate names a suite the database does not hold: the dashboard
// would otherwise open on one suite and say that compare needs two.
func checkSuites(known []metrics.SuiteStart, names ...string) error {
	for _, n := range names {
		if n == "" {
			continue
		}
		found := false
		for _, k := range known {
			found = found || k.Suite == n
		}
		if !found {
			return usagef("unknown suite %q; the suites there are: %s", n, suiteList(known))
		}
	}
	return nil
}

// suiteList is the suites with their run counts, newest first.
func suiteList(known []metrics.SuiteStart) string {
	if len(known) == 0 {
		return "(none)"
	}
	parts := make([]string, 0, len(known))
	for i := len(known) - 1; i >= 0; i-- {
		parts = append(parts, fmt.Sprintf("%s (%d runs)", textsafe.Terminal(known[i].Suite), known[i].Runs))
	}
	return strings.Join(parts, ", ")
}

// openForUI opens what the dashboard reads and settles its two suites.
// Waiting for a writer is said on stderr (with the writer's PID) before the
// screen is taken, as the other commands do.
func openForUI(ctx context.Context, s Streams, g *global, o *uiOptions) (*sql.DB, func(), error) {
	if o.src.db != "" && len(o.src.paths) == 0 && !o.src.sharded() {
		// Dashboards of earlier releases copied the file to a snapshot and
		// could leave it behind; this one copies into memory only.
		if n := store.RemoveStaleSnapshots(g.limits.TempDir); n > 0 {
			s.notef("faultlens: removed %d snapshot(s) left by dashboards that were killed\n", n)
		}
		lim := g.limits
		lim.OnWait = s.waitNotice
		db, suites, err := store.OpenScoped(ctx, o.src.db, lim, o.chooseSuites)
		if u := (*usageError)(nil); errors.As(err, &u) {
			return nil, nil, u // an unknown suite is the command line's fault, not the file's
		}
		if err != nil {
			return nil, nil, err
		}
		if len(suites) == 2 {
			o.baseline, o.candidate = suites[0], suites[1]
		}
		return db, func() { _ = db.Close() }, nil // in memory: nothing to lose
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return nil, nil, err
	}
	order, err := metrics.SuitesByDate(ctx, db)
	if err != nil {
		done()
		return nil, nil, err
	}
	if err := checkSuites(order, o.baseline, o.candidate); err != nil {
		done()
		return nil, nil, err
	}
	if o.baseline == "" && o.candidate == "" {
		// A nightly store holds many suites; building facts over all of them
		// would need the memory of all of them. Open on the last two nights.
		if n := len(order); n > 2 {
			o.baseline, o.candidate = order[n-2].Suite, order[n-1].Suite
		}
	}
	return db, done, nil
}

// chooseSuites picks the suites the dashboard copies from --db: the two
// named, else the last two nights when there are more than two, else all.
// Each copy also reads the file's suites for the picker (following adds the
// suites that arrived) and checks that the named ones are among them.
func (o *uiOptions) chooseSuites(ctx context.Context, conn *sql.Conn) ([]string, error) {
	order, err := metrics.SuitesByDate(ctx, conn)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.catalog = order
	if err := checkSuites(order, o.baseline, o.candidate); err != nil {
		return nil, err
	}
	if o.baseline != "" && o.candidate != "" {
		return []string{o.baseline, o.candidate}, nil
	}
	if o.baseline != "" || o.candidate != "" {
		return nil, nil
	}
	if n := len(order); n > 2 {
		return []string{order[n-2].Suite, order[n-1].Suite}, nil
	}
	return nil, nil
}
