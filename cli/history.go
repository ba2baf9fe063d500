package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/report"
)

type historyOptions struct {
	src     source
	metrics []string
	format  string
	out     string
}

func newHistoryCmd(s Streams, g *global) *cobra.Command {
	o := &historyOptions{}
	cmd := &cobra.Command{
		Use:   "history [--db FILE] [--metric M]... [--format text|html] [--out FILE]",
		Short: "Show each metric across the suites of a database, in date order",
		Long: `Print each rate metric across the suites of a persistent database, ordered
by each suite's earliest run, with a sparkline: the nightly trend. With
--format html, a self-contained page with a line chart per metric.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHistory(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().Var(dbFlag{&o.src}, "db", "read this database file; repeat it, or give a glob, to read shards as one")
	cmd.Flags().StringArrayVar(&o.metrics, "metric", nil, "show only this metric (repeatable)")
	cmd.Flags().StringVarP(&o.format, "format", "f", "text", "output format: text or html")
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "write to FILE instead of stdout")
	return cmd
}

func runHistory(ctx context.Context, s Streams, g *global, o *historyOptions) error {
	if !slices.Contains(report.HistoryFormats, o.format) {
		return usagef("unknown --format %q (want text or html)", o.format)
	}
	for _, n := range o.metrics {
		if !slices.Contains(metrics.RateNames(), n) {
			return usagef("unknown --metric %q (want one of %s)", n, strings.Join(metrics.RateNames(), ", "))
		}
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()
	trend, err := metrics.History(ctx, db, o.metrics)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := report.WriteHistory(&buf, trend, o.format); err != nil {
		return err
	}
	return writeOut(s.Out, o.out, buf.Bytes())
}
