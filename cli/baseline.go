package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/baselines"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/report"
	"github.com/faultlens/faultlens/textsafe"
)

type baselineOptions struct {
	src   source
	suite string
	dir   string
	force bool
}

func newBaselineCmd(s Streams, g *global) *cobra.Command {
	o := &baselineOptions{}
	cmd := &cobra.Command{
		Use:   "baseline save|list|show",
		Short: "Save, list and show frozen baselines",
		Long: `A baseline is frozen evidence of one suite: per-run facts and latency
samples as Parquet files, plus manifest.json, in DIR/NAME. Compare against it
with faultlens compare --baseline NAME.`,
	}
	cmd.PersistentFlags().StringVar(&o.dir, "dir", "baselines", "directory of saved baselines")
	save := &cobra.Command{
		Use:   "save NAME --suite S [--db FILE | PATH...] [--force]",
		Short: "Freeze the evidence of a suite as baseline NAME",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.src.paths = args[1:]
			return runBaselineSave(cmd.Context(), s, g, o, args[0])
		},
	}
	save.Flags().StringVar(&o.suite, "suite", "", "suite to save")
	save.Flags().StringVar(&o.src.db, "db", "", "read this database file")
	save.Flags().BoolVar(&o.force, "force", false, "overwrite an existing baseline")
	requireFlags(save, "suite")
	list := &cobra.Command{
		Use:   "list",
		Short: "List saved baselines",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			ms, err := baselines.List(o.dir)
			if err != nil {
				return err
			}
			return report.WriteBaselines(s.Out, ms)
		},
	}
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a baseline's manifest",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := baselines.CheckName(args[0]); err != nil {
				return usagef("%v", err)
			}
			if !baselines.Exists(o.dir, args[0]) {
				return usagef("no baseline %q in %s", args[0], o.dir)
			}
			m, err := baselines.ReadManifest(o.dir, args[0])
			if err != nil {
				return err
			}
			return report.WriteManifest(s.Out, m)
		},
	}
	cmd.AddCommand(save, list, show)
	return cmd
}

func runBaselineSave(ctx context.Context, s Streams, g *global, o *baselineOptions, name string) error {
	if err := baselines.CheckName(name); err != nil {
		return usagef("%v", err)
	}
	if baselines.Exists(o.dir, name) && !o.force {
		return usagef("baseline %q already exists in %s (use --force to overwrite)", name, o.dir)
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()
	sess, err := metrics.OpenSuites(ctx, db, []string{o.suite})
	if err != nil {
		return err
	}
	defer func() { _ = sess.Close() }() // drops the session's TEMP tables only
	m, err := baselines.Save(ctx, sess, o.dir, name, o.suite, o.force, time.Now())
	if errors.Is(err, baselines.ErrNoRuns) {
		return usagef("no suite %q in the input", o.suite)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.Out, "saved baseline %s: %d runs of suite %s in %s\n", textsafe.Terminal(m.Name), m.Runs,
		textsafe.Terminal(m.Suite), textsafe.Terminal(o.dir))
	return err
}
