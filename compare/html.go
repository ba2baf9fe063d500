package compare

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
)

// htmlPage is self-contained: inline CSS and SVG, no scripts, no external
// assets. html/template escapes every trace-derived string.
var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"cell": cell, "delta": delta, "noise": noise, "verdict": verdictText, "p": pText,
	"scenario": scenarioLabel, "gateMark": gateMark, "gateRule": gateRule, "chart": barChart,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>faultlens compare</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin:8px 0 24px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,td:nth-child(2),th{text-align:left}.FAIL{background:#fdd}.pass{background:#dfd}.skip{background:#eee}
.gates td{text-align:left}.sig{font-weight:bold}.charts{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}figcaption{font-weight:bold}
</style></head><body>
<h1>faultlens compare</h1>
<p class="summary">{{.Summary}}</p>
<h2>Gates</h2>
<table class="gates"><tr><th>gate</th><th>metric</th><th>rule</th><th>result</th></tr>
{{range .R.Gates}}<tr class="{{gateMark .}}"><td>{{gateMark .}}</td><td>{{.Metric}}</td><td>{{gateRule .Gate}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>
<h2>Charts</h2>
<div class="charts">
<figure><figcaption>Funnel (share of runs)</figcaption>{{chart .R.Charts.Funnel true}}</figure>
<figure><figcaption>Queue vs execution, p50 ms per stage</figcaption>{{chart .R.Charts.Latency false}}</figure>
<figure><figcaption>Recovered chains by error class</figcaption>{{chart .R.Charts.Recovery true}}</figure>
<figure><figcaption>Evidence at secondary grade or better, by path</figcaption>{{chart .R.Charts.Grade true}}</figure>
</div>
<h2>Metrics</h2>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [CI]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .R.Rows}}<tr{{if .Significant}} class="sig"{{end}}><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table>
</body></html>
`))

func writeHTML(w io.Writer, res *Result) error {
	return htmlPage.Execute(w, struct {
		R       *Result
		Summary string
	}{res, summary(res)})
}

// barChart draws paired horizontal bars (baseline grey, candidate blue)
// as inline SVG. Labels are escaped here since the SVG is built as text.
func barChart(bars []Bar, share bool) template.HTML {
	if len(bars) == 0 {
		return template.HTML(`<p>no data</p>`)
	}
	const labelW, barW, rowH = 200.0, 260.0, 34.0
	max := 0.0
	for _, b := range bars {
		max = math.Max(max, math.Max(finite(b.Base), finite(b.Cand)))
	}
	if share || max == 0 {
		max = math.Max(max, 1)
	}
	h := rowH*float64(len(bars)) + 24
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" role="img">`, labelW+barW+80, h)
	fmt.Fprintf(&s, `<rect x="%.0f" y="2" width="10" height="10" fill="#999"/><text x="%.0f" y="11" font-size="11">baseline</text>`, labelW, labelW+14)
	fmt.Fprintf(&s, `<rect x="%.0f" y="2" width="10" height="10" fill="#36c"/><text x="%.0f" y="11" font-size="11">candidate</text>`, labelW+80, labelW+94)
	for i, b := range bars {
		y := 20 + rowH*float64(i)
		fmt.Fprintf(&s, `<g><title>%s</title><text x="0" y="%.0f" font-size="12">%s</text>`,
			template.HTMLEscapeString(b.Label+" "+b.Note), y+18, template.HTMLEscapeString(truncate(b.Label, 28)))
		for j, v := range []float64{b.Base, b.Cand} {
			fill := []string{"#999", "#36c"}[j]
			wdt := barW * finite(v) / max
			yy := y + 4 + float64(j)*13
			fmt.Fprintf(&s, `<rect x="%.0f" y="%.0f" width="%.1f" height="12" fill="%s"/>`, labelW, yy, wdt, fill)
			fmt.Fprintf(&s, `<text x="%.1f" y="%.0f" font-size="10">%s</text>`, labelW+wdt+4, yy+10, barValue(v, share))
		}
		s.WriteString(`</g>`)
	}
	s.WriteString(`</svg>`)
	return template.HTML(s.String())
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

func barValue(v float64, share bool) string {
	switch {
	case math.IsNaN(v):
		return "n/a"
	case share:
		return fmt.Sprintf("%.0f%%", v*100)
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0fms", v)
	}
	return fmt.Sprintf("%.3gms", v)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
