package compare

import (
	"html/template"
	"io"

	"github.com/faultlens/faultlens/chart"
)

// htmlPage is self-contained: inline CSS and SVG, no scripts, no external
// assets. html/template escapes every trace-derived string. The verdict
// comes first; every failed gate and every row a failed gate judged is
// bold and red; skipped gates are one collapsed line per reason.
var htmlPage = template.Must(template.New("page").Funcs(template.FuncMap{
	"cell": cell, "delta": delta, "noise": noise, "verdict": VerdictText, "p": pText, "gateText": GateText,
	"scenario": scenarioLabel, "gateMark": gateMark, "gateLabel": gateLabel, "gateRule": gateRule, "chart": barChart,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>faultlens compare</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;margin:8px 0 24px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,td:nth-child(2),th{text-align:left}.FAIL{background:#fdd;color:#a00;font-weight:bold}.pass{background:#dfd}.skip{background:#eee;color:#555}
.gates td{text-align:left}.sig{font-weight:bold}.charts{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}figcaption{font-weight:bold}
.banner{padding:12px 16px;border-radius:6px;margin:0 0 16px;font-size:18px}.banner.failed{background:#c62828;color:#fff}.banner.passed{background:#2a8a3e;color:#fff}
.banner b{font-size:22px}.banner p{margin:6px 0 0;font-size:15px}summary{cursor:pointer}.nowrap{white-space:nowrap}
</style></head><body>
<div class="banner {{if .V.Failed}}failed{{else}}passed{{end}}" id="verdict"><b>{{.Title}}</b>
{{if .V.Failed}}<p>Failed, worst first: {{.Worst}}</p>{{end}}</div>
<h1>faultlens compare</h1>
<p class="summary">{{.Summary}}</p>
<h2>Gates</h2>
<table class="gates"><tr><th>gate</th><th>metric</th><th>rule</th><th>result</th></tr>
{{range .V.Failed}}<tr class="FAIL"><td>FAIL</td><td>{{gateLabel .}}</td><td>{{gateRule .Gate}}</td><td>{{gateText .}}</td></tr>
{{end}}{{range .V.Passed}}<tr class="pass"><td>pass</td><td>{{gateLabel .}}</td><td>{{gateRule .Gate}}</td><td>{{gateText .}}</td></tr>
{{end}}{{range .V.Skipped}}<tr class="skip"><td class="nowrap">skip ×{{len .Gates}}</td><td colspan="2"><details><summary>{{len .Gates}} {{if eq (len .Gates) 1}}gate{{else}}gates{{end}}</summary>{{.Labels}}</details></td><td>{{.Reason}}</td></tr>
{{end}}</table>
<h2>Charts</h2>
<div class="charts">
<figure><figcaption>Funnel (share of runs)</figcaption>{{chart .R.Charts.Funnel true}}</figure>
<figure><figcaption>Queue vs execution, p50 per stage</figcaption>{{chart .R.Charts.Latency false}}</figure>
<figure><figcaption>Recovered chains by error class</figcaption>{{chart .R.Charts.Recovery true}}</figure>
<figure><figcaption>Evidence at secondary grade or better, by path</figcaption>{{chart .R.Charts.Grade true}}</figure>
</div>
<h2>Gated metrics</h2>
<p>Decide the exit code: one-sided in each gate's bad direction, Holm within {{.R.GatedTests}} gated tests; each interval is drawn at the level shown, which agrees with the verdict. A row whose gate failed is red.</p>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [interval]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .Gated}}<tr{{if index $.Failed .Metric .Scenario}} class="FAIL"{{else if .Significant}} class="sig"{{end}}><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table>
<h2>Exploratory metrics</h2>
<p>Never gated: two-sided, Holm within {{.R.ExploratoryTests}} exploratory tests, {{printf "%.0f" .Conf}}% intervals. The whole run set's rows and the per-scenario rows that changed significantly{{if .Hidden}}; the {{len .Hidden}} other per-scenario rows are collapsed below{{end}}.</p>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [CI]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .Exploratory}}<tr{{if .Significant}} class="sig"{{end}}><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table>
{{if .Hidden}}<details><summary>{{len .Hidden}} per-scenario rows without a significant change</summary>
<table><tr><th>scenario</th><th>metric</th><th>{{.R.Baseline.Name}}</th><th>{{.R.Candidate.Name}}</th><th>delta [CI]</th><th>p_adj</th><th>verdict</th><th>A/A noise</th></tr>
{{range .Hidden}}<tr><td>{{scenario .Scenario}}</td><td>{{.Metric}}</td><td>{{cell . .Base}}</td><td>{{cell . .Cand}}</td><td>{{delta .}}</td><td>{{p .PAdj}}</td><td>{{verdict .}}</td><td>{{noise .}}</td></tr>
{{end}}</table></details>{{end}}
</body></html>
`))

func writeHTML(w io.Writer, res *Result) error {
	v := viewGates(res)
	var shown, hidden []Row
	for _, r := range family(res, FamilyExploratory) {
		if r.Scenario == "" || r.Significant {
			shown = append(shown, r)
		} else {
			hidden = append(hidden, r)
		}
	}
	failed := map[string]map[string]bool{}
	for k := range failedRows(res) {
		if failed[k[0]] == nil {
			failed[k[0]] = map[string]bool{}
		}
		failed[k[0]][k[1]] = true
	}
	return htmlPage.Execute(w, struct {
		R                          *Result
		V                          gateView
		Title, Worst, Summary      string
		Gated, Exploratory, Hidden []Row
		Failed                     map[string]map[string]bool
		Conf                       float64
	}{res, v, bannerTitle(v), worstText(v), summary(res), family(res, FamilyGated), shown, hidden, failed, res.Confidence * 100})
}

// barChart draws the paired bars of one chart, baseline against
// candidate; a duration chart is clipped when one bar dwarfs the rest.
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
