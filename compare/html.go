package compare

import (
	"html/template"
	"io"

	"github.com/faultlens/faultlens/chart"
)

// htmlPage is self-contained: inline CSS and SVG, no scripts, no external
// assets. html/template escapes every trace-derived string.
var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"cell": cell, "delta": delta, "noise": noise, "verdict": VerdictText, "gateText": GateText, "p": pText,
	"scenario": scenarioLabel, "gateMark": gateMark, "gateLabel": gateLabel, "gateRule": gateRule, "chart": barChart,
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
{{range .R.Gates}}<tr class="{{gateMark .}}"><td>{{gateMark .}}</td><td>{{gateLabel .}}</td><td>{{gateRule .Gate}}</td><td>{{gateText .}}</td></tr>
{{end}}</table>
<h2>Charts</h2>
<div class="charts">
<figure><figcaption>Funnel (share of runs)</figcaption>{{chart .R.Charts.Funnel true}}</figure>
<figure><figcaption>Queue vs execution, p50 ms per stage</figcaption>{{chart .R.Charts.Latency false}}</figure>
<figure><figcaption>Recovered chains by error class</figcaption>{{chart .R.Charts.Recovery true}}</figure>
<figure><figcaption>Evidence at secondary grade or better, by path</figcaption>{{chart .R.Charts.Grade true}}</figure>
</div>
<h2>Gated metrics</h2>
<p>Decide the exit code: one-sided in each gate's bad direction, Holm within {{.R.GatedTests}} gated tests; each interval is drawn at the level shown, which agrees with the verdict.</p>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [interval]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .Gated}}<tr{{if .Significant}} class="sig"{{end}}><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table>
<h2>Exploratory metrics</h2>
<p>Never gated: two-sided, Holm within {{.R.ExploratoryTests}} exploratory tests, {{printf "%.0f" .Conf}}% intervals.</p>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [CI]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .Exploratory}}<tr{{if .Significant}} class="sig"{{end}}><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table>
</body></html>
`))

func writeHTML(w io.Writer, res *Result) error {
	return htmlPage.Execute(w, struct {
		R                  *Result
		Summary            string
		Gated, Exploratory []Row
		Conf               float64
	}{res, summary(res), family(res, FamilyGated), family(res, FamilyExploratory), res.Confidence * 100})
}

// barChart draws the paired bars of one chart, baseline against candidate.
func barChart(bars []Bar, share bool) template.HTML {
	pairs := make([]chart.Pair, len(bars))
	for i, b := range bars {
		pairs[i] = chart.Pair{Label: b.Label, A: b.Base, B: b.Cand, Note: b.Note}
	}
	unit := chart.Ms
	if share {
		unit = chart.Share
	}
	return chart.Pairs(pairs, [2]string{"baseline", "candidate"}, unit)
}
