package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"

	"github.com/faultlens/faultlens/chart"
	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// htmlPage is a self-contained review document: inline CSS and SVG, no
// scripts, no external assets. html/template escapes every string it is
// given; trace strings are made Terminal-clean first (textsafe), and the
// charts escape their own labels.
var htmlPage = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>faultlens report</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222;max-width:1220px}
h2{border-bottom:2px solid #36c;padding-bottom:2px;margin-top:36px}h3{margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 18px}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}
th{background:#f2f2f2}td.l,th.l{text-align:left}tr.bad td{background:#fdd;font-weight:bold}
.charts{display:flex;flex-wrap:wrap;gap:12px 32px}figure{margin:0}figcaption{font-weight:bold;margin-bottom:4px}
.callout{border-left:6px solid #2a8a3e;background:#eef7ee;padding:8px 12px;margin:8px 0;font-size:16px}
.callout.bad{border-color:#c62828;background:#fdecec}.callout.unknown{border-color:#888;background:#f3f3f3}.callout b{font-size:20px}.nodata{color:#777}
</style></head><body>
<h1>faultlens report</h1>
<p>{{len .Suites}} suite(s), {{.Runs}} runs, <span{{if .Rejected.Rows}} style="color:#c62828;font-weight:bold"{{end}}>{{.RejectedLines}} rejected input lines</span>.</p>
{{if .Rejected.Rows}}{{template "table" .Rejected}}{{end}}
{{range .Suites}}
<h2>Suite {{.Name}} <small>({{.Runs}} runs)</small></h2>
<div class="callout{{if .MaskedBad}} bad{{end}}">Masked success: <b>{{.Masked}}</b> of claimed-completed runs did not actually succeed (the trace refutes the claim).
Claimed completed {{.ClaimedN}} runs; actually successful {{.SuccessN}} runs.</div>
{{if .Unverified}}<div class="callout unknown">Unverified completion: <b>{{.Unverified}}</b> of claimed-completed runs cannot be checked from the trace: {{.UnverifiedWhy}}.</div>
{{end -}}
<div class="charts">
<figure><figcaption>Funnel (runs passing each gate)</figcaption>{{.Funnel}}</figure>
<figure><figcaption>Claimed completed vs actually successful</figcaption>{{.Claimed}}</figure>
</div>
<p>Success unknown (a gate could not be judged): {{.Unknown}} runs. Evidence satisfied given a valid plan: {{.GivenPlan}}.
{{- if .MissingTerminal}} No terminal event in {{.MissingTerminal}} runs: not deliverable, not committed.{{end}}</p>
<h3>Violations and budgets</h3>
{{template "table" .Violations}}
{{if .UnknownArgs}}<p>{{.UnknownArgs}}</p>
{{end -}}
<div class="charts">
<figure><figcaption>Invalid retries by reason (a re-send may have several)</figcaption>{{.Retries}}</figure>
<figure><figcaption>Recovery outcome by error class (chains that met an error)</figcaption>{{.Recovery}}</figure>
<figure><figcaption>Mean evidence grade by path (primary 3, secondary 2, reprint 1, cache 0)</figcaption>{{.Grade}}</figure>
</div>
<h3>Recovery by error class and tool</h3>
{{template "table" .RecoveryTable}}
<h3>Latency: queue vs execution</h3>
<div class="charts">
<figure><figcaption>p50 per stage and tool</figcaption>{{.LatP50}}</figure>
<figure><figcaption>p95 per stage and tool (clipped when one bar dwarfs the rest)</figcaption>{{.LatP95}}</figure>
</div>
{{template "table" .LatencyTable}}
<h3>Scenarios</h3>
{{template "table" .Scenarios}}
{{end}}
</body></html>
{{define "table"}}<table><tr>{{range $i, $h := .Head}}<th{{if lt $i $.Left}} class="l"{{end}}>{{$h}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Bad}} class="bad"{{end}}>{{range $i, $c := .Cells}}<td{{if lt $i $.Left}} class="l"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table>{{end}}
`))

// htmlTable is a table whose first Left columns are text, the rest numbers.
type htmlTable struct {
	Head []string
	Left int
	Rows []htmlRow
}

// htmlRow is one table row; Bad rows are highlighted.
type htmlRow struct {
	Cells []string
	Bad   bool
}

func (t *htmlTable) add(bad bool, cells ...string) { t.Rows = append(t.Rows, htmlRow{cells, bad}) }

// htmlSuite is what the page shows of one suite.
type htmlSuite struct {
	Name, Masked, GivenPlan, Unverified, UnverifiedWhy        string
	UnknownArgs                                               string
	Runs, ClaimedN, SuccessN, Unknown, MissingTerminal        int64
	MaskedBad                                                 bool
	Funnel, Claimed, Retries, Recovery, Grade, LatP50, LatP95 template.HTML
	Violations, RecoveryTable, LatencyTable, Scenarios        htmlTable
}

// HTML writes the report as a self-contained HTML review document.
func HTML(w io.Writer, rep *metrics.Report) error {
	page := struct {
		Suites        []htmlSuite
		Runs          int64
		RejectedLines int64
		Rejected      htmlTable
	}{RejectedLines: rep.Rejected.Lines, Rejected: htmlTable{Head: []string{"rejected because", "lines"}, Left: 1}}
	reasons := make([]string, 0, len(rep.Rejected.ByReason))
	for r := range rep.Rejected.ByReason {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		page.Rejected.add(false, textsafe.Terminal(r), fmt.Sprint(rep.Rejected.ByReason[r]))
	}
	for _, s := range rep.Suites {
		page.Runs += s.Runs
		page.Suites = append(page.Suites, suiteHTML(s))
	}
	return htmlPage.Execute(w, page)
}

func suiteHTML(s metrics.Suite) htmlSuite {
	m := s.Metrics
	h := htmlSuite{Name: textsafe.Terminal(s.Suite), Runs: s.Runs, Masked: frac(m.MaskedSuccess), MaskedBad: m.MaskedSuccess.Num > 0,
		GivenPlan: rateFrac(named(m, "evidence_satisfaction_given_plan")), ClaimedN: m.ClaimedCompleted.Num, SuccessN: m.Success.Num,
		MissingTerminal: m.MissingTerminal.Num}
	if u := named(m, "unverified_completion"); u.Rate.Num > 0 {
		h.Unverified, h.UnverifiedWhy = frac(u.Rate), u.ReasonsText()
	}
	if list := unknownArgsList(s.UnknownArgs, textsafe.Terminal); list != "" {
		h.UnknownArgs = unknownArgsSentence(list)
	}
	if m.Success.Unknown != nil {
		h.Unknown = *m.Success.Unknown
	}
	one := []chart.Series{{Name: "runs", Color: chart.Blue}}
	funnel := []chart.Stack{{Label: "runs", Values: []float64{float64(s.Runs)}, Text: fmt.Sprintf("%d (%s)", s.Runs, pct(ratio(s.Runs, s.Runs)))}}
	for _, nr := range m.RatesIn(metrics.GroupFunnel) {
		n := nr.Rate.Num
		text := fmt.Sprintf("%d (%s)", n, pct(ratio(n, s.Runs)))
		if why := nr.UnknownBecause(); why != "" {
			text = fmt.Sprintf("%d (unknown: %s)", n, why)
		}
		funnel = append(funnel, chart.Stack{Label: nr.Def.Label, Values: []float64{float64(n)}, Text: text})
	}
	h.Funnel = chart.Stacked(one, funnel, chart.Count, 0)
	h.Claimed = chart.Stacked([]chart.Series{{Name: "claimed completed", Color: chart.Grey}, {Name: "actually successful", Color: chart.Green},
		{Name: "masked success", Color: chart.Red}, {Name: "unverified completion", Color: chart.Amber}}, []chart.Stack{
		{Label: "claimed completed", Values: []float64{float64(m.ClaimedCompleted.Num), 0, 0, 0}},
		{Label: "actually successful", Values: []float64{0, float64(m.Success.Num), 0, 0}},
		{Label: "masked success", Values: []float64{0, 0, float64(m.MaskedSuccess.Num), 0}, Text: frac(m.MaskedSuccess)},
		{Label: "unverified completion", Values: []float64{0, 0, 0, float64(m.UnverifiedCompletion.Num)}, Text: frac(m.UnverifiedCompletion)},
	}, chart.Count, 0)
	h.Violations = violationsTable(s)
	h.Retries = retriesChart(m.InvalidRetry)
	h.Recovery, h.RecoveryTable = recoveryHTML(s.Recovery)
	h.Grade = gradeChart(s.EvidenceGrade)
	h.LatP50, h.LatP95, h.LatencyTable = latencyHTML(s.Latency)
	h.Scenarios = scenarioTable(s.Scenarios)
	return h
}

func ratio(n, d int64) *float64 {
	if d == 0 {
		return nil
	}
	r := float64(n) / float64(d)
	return &r
}

// violationsTable lists the claims, violations and budgets sections of the
// registry, a row per rate, highlighted when a defect occurred.
func violationsTable(s metrics.Suite) htmlTable {
	m := s.Metrics
	t := htmlTable{Head: []string{"counter", "of", "count", "denominator", "rate"}, Left: 2}
	for _, g := range []metrics.Group{metrics.GroupClaims, metrics.GroupViolations, metrics.GroupBudgets} {
		for _, nr := range m.RatesIn(g) {
			of := nr.Def.Of
			if of == "" {
				of = "runs" // the budget overruns: over the runs that set that budget
			}
			r := nr.Rate
			t.add(nr.Def.Defect && r.Num > 0, nr.Def.Label, of, fmt.Sprint(r.Num), fmt.Sprint(r.Den), ratePct(nr))
		}
	}
	t.add(false, "retry amplification", "tool calls per logical action", num(s.RetryAmplification), "", "")
	return t
}

func retriesChart(r metrics.Rate) template.HTML {
	reasons := append([]string(nil), metrics.InvalidRetryReasons...)
	var extra []string
	for k := range r.ByReason {
		if !contains(reasons, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	var stacks []chart.Stack
	for _, k := range append(reasons, extra...) {
		stacks = append(stacks, chart.Stack{Label: k, Values: []float64{float64(r.ByReason[k])}})
	}
	return chart.Stacked([]chart.Series{{Name: "re-sends", Color: chart.Red}}, stacks, chart.Count, 0)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// recoveryHTML stacks the chain outcomes per error class (all root tools
// together; chains without an error left out) and tables them per class and
// tool.
func recoveryHTML(rows []metrics.RecoveryRow) (template.HTML, htmlTable) {
	t := htmlTable{Head: []string{"category", "tool", "chains", "first_try", "after_retry", "after_switch", "degraded", "failed"}, Left: 2}
	by := map[string][]float64{}
	var cats []string
	for _, r := range rows {
		t.add(false, textsafe.Terminal(r.Category), textsafe.Terminal(r.Tool), fmt.Sprint(r.Chains), fmt.Sprint(r.FirstTry),
			fmt.Sprint(r.AfterRetry), fmt.Sprint(r.AfterSwitch), fmt.Sprint(r.Degraded), fmt.Sprint(r.Failed))
		v := by[r.Category]
		if v == nil {
			v = make([]float64, 5)
			cats = append(cats, r.Category)
		}
		for i, n := range []int64{r.FirstTry, r.AfterRetry, r.AfterSwitch, r.Degraded, r.Failed} {
			v[i] += float64(n)
		}
		by[r.Category] = v
	}
	sort.Strings(cats)
	var stacks []chart.Stack
	for _, c := range cats {
		if c == "none" {
			continue // chains that met no error have nothing to recover from
		}
		stacks = append(stacks, chart.Stack{Label: c, Values: by[c]})
	}
	series := []chart.Series{{Name: "first try", Color: chart.Green}, {Name: "after retry", Color: chart.Teal},
		{Name: "after switch", Color: chart.Blue}, {Name: "degraded", Color: chart.Amber}, {Name: "failed", Color: chart.Red}}
	return chart.Stacked(series, stacks, chart.Count, 0), t
}

func gradeChart(rows []metrics.GradeRow) template.HTML {
	var stacks []chart.Stack
	for _, r := range rows {
		v := math.NaN()
		if r.MeanGrade != nil {
			v = *r.MeanGrade
		}
		stacks = append(stacks, chart.Stack{Label: r.Path, Values: []float64{v}, Text: fmt.Sprintf("%s (%d confirmed)", num(r.MeanGrade), r.Count)})
	}
	return chart.Stacked([]chart.Series{{Name: "mean grade", Color: chart.Purple}}, stacks, chart.Number, 3)
}

// latencyHTML draws queue and execution time stacked per stage and tool at
// p50 and p95, and tables every percentile.
func latencyHTML(rows []metrics.LatencyRow) (p50, p95 template.HTML, t htmlTable) {
	t = htmlTable{Head: []string{"scope", "name", "clock", "n", "p50", "p90", "p95", "p99", "max", "queue share"}, Left: 3}
	var s50, s95 []chart.Stack
	for _, r := range rows {
		name := textsafe.Terminal(r.Name)
		if r.Scope == "run" {
			t.add(false, r.Scope, name, "wall", fmt.Sprint(r.N), ms(r.WallMs.P50), ms(r.WallMs.P90), ms(r.WallMs.P95), ms(r.WallMs.P99), ms(r.WallMs.Max), "")
			continue
		}
		for _, c := range []struct {
			label string
			q     metrics.Quantiles
		}{{"queue", r.QueueMs}, {"exec", r.ExecMs}, {"wall", r.WallMs}} {
			t.add(false, r.Scope, name, c.label, fmt.Sprint(r.N), ms(c.q.P50), ms(c.q.P90), ms(c.q.P95), ms(c.q.P99), ms(c.q.Max), share(r.QueueShare))
		}
		label := r.Scope + " " + r.Name
		s50 = append(s50, chart.Stack{Label: label, Values: []float64{val(r.QueueMs.P50), val(r.ExecMs.P50)}})
		s95 = append(s95, chart.Stack{Label: label, Values: []float64{val(r.QueueMs.P95), val(r.ExecMs.P95)}})
	}
	series := []chart.Series{{Name: "queue", Color: chart.Orange}, {Name: "execution", Color: chart.Blue}}
	return chart.Stacked(series, s50, chart.Ms, 0), chart.Stacked(series, s95, chart.Ms, 0), t
}

func val(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

func scenarioTable(parts []metrics.ScenarioPart) htmlTable {
	t := htmlTable{Head: []string{"scenario", "runs", "success", "masked", "unverified", "conformance", "invalid retry", "seal viol.",
		"zero-call viol."}, Left: 1}
	for _, p := range parts {
		m := p.Metrics
		t.add(m.MaskedSuccess.Num+m.SealViolation.Num+m.ZeroCallViolation.Num > 0, textsafe.Terminal(p.Scenario), fmt.Sprint(p.Runs),
			ratePct(named(m, "success")), fmt.Sprint(m.MaskedSuccess.Num), fmt.Sprint(m.UnverifiedCompletion.Num), pct(m.ExpectationConformance.Rate),
			fmt.Sprintf("%d/%d", m.InvalidRetry.Num, m.InvalidRetry.Den), fmt.Sprint(m.SealViolation.Num), fmt.Sprint(m.ZeroCallViolation.Num))
	}
	return t
}
