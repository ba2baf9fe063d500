package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/compare/calibrate"
)

func init() { register(newCalibrateCmd) }

type calibrateOptions struct {
	sizes, pairs []int
	seed         int64
	workers      int
	only         []string
	markdown     bool
	quiet        bool
}

func newCalibrateCmd(s Streams, _ *global) *cobra.Command {
	o := &calibrateOptions{}
	cmd := &cobra.Command{
		Use:   "calibrate [--sizes 100,300,1000] [--pairs 50,50,50] [--seed 1] [--workers 2] [--case NAME]... [--markdown]",
		Short: "Measure the gates' false-alarm and detection rates on simulated suites",
		Long: `Generate, for every case and size, pairs of simulated suites (a baseline
and a candidate, A/A or with a regression of known size injected), ingest
them into an in-memory database, compare them with the shipped gates (or
the case's own) exactly as "faultlens compare" does, and print how often a
gate failed, with a 95% Wilson interval, the mean observed change and the
seeds used. The output depends on the flags only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCalibrate(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	f.IntSliceVar(&o.sizes, "sizes", []int{100, 300, 1000}, "runs per side")
	f.IntSliceVar(&o.pairs, "pairs", []int{50, 50, 50}, "seeds per size (A/A cases compare two candidates per seed)")
	f.Int64Var(&o.seed, "seed", 1, "first baseline seed")
	f.IntVar(&o.workers, "workers", 2, "seeds run at once")
	f.StringArrayVar(&o.only, "case", nil, "run only this case (repeatable)")
	f.BoolVar(&o.markdown, "markdown", false, "print a Markdown table")
	f.BoolVar(&o.quiet, "quiet", false, "no progress on stderr")
	return cmd
}

func runCalibrate(ctx context.Context, s Streams, o *calibrateOptions) error {
	if len(o.sizes) != len(o.pairs) {
		return usagef("--sizes has %d values but --pairs %d", len(o.sizes), len(o.pairs))
	}
	for i := range o.sizes {
		if o.sizes[i] <= 0 || o.pairs[i] <= 0 {
			return usagef("--sizes and --pairs must be positive")
		}
	}
	t0 := time.Now()
	cfg := calibrate.Config{Sizes: o.sizes, Pairs: o.pairs, FirstSeed: o.seed, Workers: o.workers, Only: o.only}
	if !o.quiet {
		cfg.Progress = func(n int, seed int64) {
			s.notef("calibrate: %d runs/side, seed %d done (%s)\n", n, seed, time.Since(t0).Round(time.Second))
		}
	}
	cells, err := calibrate.Run(ctx, calibrate.Cases(), cfg)
	if err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if len(cells) == 0 {
		return usagef("no case matches --case")
	}
	if err := calibrate.WriteTable(s.Out, cells, o.markdown); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(s.Out, "\nseeds: %s\n\nfailed gates per case:\n", calibrate.SeedText(o.seed, o.pairs, o.sizes)); err != nil {
		return err
	}
	if err := calibrate.WriteGates(s.Out, cells); err != nil {
		return err
	}
	if !o.quiet {
		s.notef("calibrate: %d cells in %s\n", len(cells), time.Since(t0).Round(time.Second))
	}
	return nil
}
