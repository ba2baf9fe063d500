package cli

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/chart"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
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
	cmd.Flags().StringVar(&o.src.db, "db", "", "read this database file (default: the bundled samples)")
	cmd.Flags().StringArrayVar(&o.metrics, "metric", nil, "show only this metric (repeatable)")
	cmd.Flags().StringVarP(&o.format, "format", "f", "text", "output format: text or html")
	cmd.Flags().StringVarP(&o.out, "out", "o", "", "write to FILE instead of stdout")
	return cmd
}

func runHistory(ctx context.Context, s Streams, g *global, o *historyOptions) error {
	if o.format != "text" && o.format != "html" {
		return usagef("unknown --format %q (want text or html)", o.format)
	}
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
	order, err := metrics.SuitesByDate(ctx, db)
	if err != nil {
		return err
	}
	// One suite at a time, from the per-suite cache where ingest wrote it.
	rep, err := metrics.ReportBySuite(ctx, db, metrics.Options{})
	if err != nil {
		return err
	}
	bySuite := map[string]metrics.Metrics{}
	for _, st := range rep.Suites {
		bySuite[st.Suite] = st.Metrics
	}
	series := make([][]float64, len(names))
	for i, n := range names {
		for _, st := range order {
			v := math.NaN()
			m := bySuite[st.Suite]
			for _, r := range m.Rates() {
				if r.Name == n && r.Rate.Rate != nil {
					v = *r.Rate.Rate
				}
			}
			series[i] = append(series[i], v)
		}
	}
	var buf bytes.Buffer
	if o.format == "html" {
		err = historyHTML(&buf, order, names, series)
	} else {
		err = historyText(&buf, order, names, series)
	}
	if err != nil {
		return err
	}
	return writeOut(s.Out, o.out, buf.Bytes())
}

// suiteLabel is a suite's date and name, the x axis of the history.
func suiteLabel(st metrics.SuiteStart) string {
	date := "-"
	if st.StartedAt != nil {
		date = st.StartedAt.UTC().Format(time.DateOnly)
	}
	return date + "  " + textsafe.Terminal(st.Suite)
}

func historyText(w io.Writer, order []metrics.SuiteStart, names []string, series [][]float64) error {
	for _, st := range order {
		fmt.Fprintf(w, "%s (%d runs)\n", suiteLabel(st), st.Runs)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\ttrend\tfirst\tlast\t")
	for i, n := range names {
		vals := series[i]
		if len(vals) == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", n, sparkline(vals), pct(vals[0]), pct(vals[len(vals)-1]))
	}
	return tw.Flush()
}

// historyPage is self-contained: inline CSS and SVG, no scripts.
var historyPage = template.Must(template.New("history").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>faultlens history</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
.charts{display:flex;flex-wrap:wrap;gap:16px 32px}figure{margin:0}figcaption{font-weight:bold}.nodata{color:#777}
</style></head><body>
<h1>faultlens history</h1>
<p>Each metric across {{len .Suites}} suite(s), in order of each suite's earliest run.</p>
<ol>{{range .Suites}}<li>{{.Label}} ({{.Runs}} runs)</li>{{end}}</ol>
<div class="charts">
{{range .Charts}}<figure><figcaption>{{.Name}}</figcaption>{{.Chart}}</figure>
{{end}}</div>
</body></html>
`))

func historyHTML(w io.Writer, order []metrics.SuiteStart, names []string, series [][]float64) error {
	type suite struct {
		Label string
		Runs  int64
	}
	type metricChart struct {
		Name  string
		Chart template.HTML
	}
	var page struct {
		Suites []suite
		Charts []metricChart
	}
	for _, st := range order {
		page.Suites = append(page.Suites, suite{suiteLabel(st), st.Runs})
	}
	for i, n := range names {
		pts := make([]chart.Point, len(order))
		for j, st := range order {
			pts[j] = chart.Point{Label: suiteLabel(st), Value: series[i][j]}
		}
		page.Charts = append(page.Charts, metricChart{n, chart.Line(pts, chart.Share)})
	}
	return historyPage.Execute(w, page)
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
