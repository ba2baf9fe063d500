package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/faultlens/faultlens/chart"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// HistoryFormats lists the formats WriteHistory accepts.
var HistoryFormats = []string{"text", "html"}

// WriteHistory renders a trend in format: text (one line per suite, then a
// sparkline per metric with its first and last value) or html (a
// self-contained page with a line chart per metric).
func WriteHistory(w io.Writer, h *metrics.Trend, format string) error {
	switch format {
	case "text":
		return historyText(w, h)
	case "html":
		return historyHTML(w, h)
	}
	return fmt.Errorf("report: unknown history format %q", format)
}

// suiteLabel is a suite's date and name, the x axis of the history.
func suiteLabel(st metrics.SuiteStart) string {
	date := "-"
	if st.StartedAt != nil {
		date = st.StartedAt.UTC().Format(time.DateOnly)
	}
	return date + "  " + textsafe.Terminal(st.Suite)
}

func historyText(w io.Writer, h *metrics.Trend) error {
	var out, tab bytes.Buffer
	for _, st := range h.Suites {
		fmt.Fprintf(&out, "%s (%d runs)\n", suiteLabel(st), st.Runs)
	}
	out.WriteString("\n")
	tab.WriteString("metric\ttrend\tfirst\tlast\t\n")
	for i, n := range h.Metrics {
		vals := h.Values[i]
		if len(vals) == 0 {
			continue
		}
		fmt.Fprintf(&tab, "%s\t%s\t%s\t%s\t\n", n, sparkline(vals), historyPct(vals[0]), historyPct(vals[len(vals)-1]))
	}
	if err := align(&out, tab.Bytes()); err != nil {
		return err
	}
	_, err := w.Write(out.Bytes())
	return err
}

// align appends tab-separated rows to out as columns two spaces apart.
func align(out *bytes.Buffer, rows []byte) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if _, err := tw.Write(rows); err != nil {
		return err
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

func historyHTML(w io.Writer, h *metrics.Trend) error {
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
	for _, st := range h.Suites {
		page.Suites = append(page.Suites, suite{suiteLabel(st), st.Runs})
	}
	for i, n := range h.Metrics {
		pts := make([]chart.Point, len(h.Suites))
		for j, st := range h.Suites {
			pts[j] = chart.Point{Label: suiteLabel(st), Value: h.Values[i][j]}
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

// historyPct is a rate as a percentage with one decimal, "-" when missing.
func historyPct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", v*100)
}
