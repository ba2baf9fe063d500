package cli

import (
	"context"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

type historyOptions struct {
	src     source
	metrics []string
}

func newHistoryCmd(s Streams, g *global) *cobra.Command {
	o := &historyOptions{}
	cmd := &cobra.Command{
		Use:   "history [--db FILE] [--metric M]...",
		Short: "Show each metric across the suites of a database, in date order",
		Long: `Print each rate metric across the suites of a persistent database, ordered
by each suite's earliest run, with a sparkline: the nightly trend.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runHistory(cmd.Context(), s, g, o)
		},
	}
	cmd.Flags().StringVar(&o.src.db, "db", "", "read this database file (default: the bundled samples)")
	cmd.Flags().StringArrayVar(&o.metrics, "metric", nil, "show only this metric (repeatable)")
	return cmd
}

func runHistory(ctx context.Context, s Streams, g *global, o *historyOptions) error {
	names := o.metrics
	if len(names) == 0 {
		names = metrics.RateNames()
	}
	known := map[string]bool{}
	for _, n := range metrics.RateNames() {
		known[n] = true
	}
	for _, n := range names {
		if !known[n] {
			return usagef("unknown --metric %q (want one of %s)", n, strings.Join(metrics.RateNames(), ", "))
		}
	}
	db, done, err := o.src.open(ctx, g, s.Err)
	if err != nil {
		return err
	}
	defer done()
	sess, err := metrics.Open(ctx, db)
	if err != nil {
		return err
	}
	defer sess.Close()
	order, err := sess.SuitesByDate(ctx)
	if err != nil {
		return err
	}
	rep, err := sess.Report(ctx, metrics.Options{})
	if err != nil {
		return err
	}
	bySuite := map[string]metrics.Metrics{}
	for _, st := range rep.Suites {
		bySuite[st.Suite] = st.Metrics
	}
	for _, st := range order {
		date := "-"
		if st.StartedAt != nil {
			date = st.StartedAt.UTC().Format(time.DateOnly)
		}
		fmt.Fprintf(s.Out, "%s  %s (%d runs)\n", date, textsafe.Terminal(st.Suite), st.Runs)
	}
	fmt.Fprintln(s.Out)
	tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\ttrend\tfirst\tlast\t")
	for _, n := range names {
		var vals []float64
		for _, st := range order {
			m := bySuite[st.Suite]
			v := math.NaN()
			for _, r := range m.Rates() {
				if r.Name == n && r.Rate.Rate != nil {
					v = *r.Rate.Rate
				}
			}
			vals = append(vals, v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", n, sparkline(vals), pct(vals[0]), pct(vals[len(vals)-1]))
	}
	return tw.Flush()
}

// sparkline draws values in [0, 1] as block characters; missing values are
// spaces. The scale is the values' own range, so small moves show.
func sparkline(vals []float64) string {
	const blocks = "▁▂▃▄▅▆▇█"
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var b strings.Builder
	runes := []rune(blocks)
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			b.WriteRune(' ')
		case hi == lo:
			b.WriteRune(runes[3])
		default:
			b.WriteRune(runes[int((v-lo)/(hi-lo)*float64(len(runes)-1)+0.5)])
		}
	}
	return b.String()
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", v*100)
}
