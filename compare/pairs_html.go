package compare

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/faultlens/faultlens/metrics"
)

// pairsSection shows failing candidate runs beside their baseline twins:
// the gates (those that differ marked), then the timelines step by step
// with the first step where they part marked. html/template escapes every
// trace-derived string.
var pairsSection = template.Must(template.New("pairs").Funcs(template.FuncMap{
	"stepAt": stepAt, "steps": stepIndexes, "gateRows": gateRows, "inc": func(i int) int { return i + 1 },
}).Parse(`<h2>Paired runs</h2>
<p>Candidate runs that did not succeed, masked ones first, beside the baseline run of the same request.</p>
<style>.pair td{text-align:left;font-family:monospace}.pair .differs,.pair .diverge{background:#fdd;font-weight:bold}</style>
{{range .}}<h3>{{.Cand.Scenario}}: {{.Cand.RunID}} beside {{.Base.RunID}} <small>(matched by {{.MatchedBy}})</small></h3>
<table class="pair"><tr><th></th><th>{{.Base.Suite}} {{.Base.RunID}}</th><th>{{.Cand.Suite}} {{.Cand.RunID}}</th></tr>
{{$p := .}}{{range $g := gateRows .}}<tr{{if $g.Differs}} class="differs"{{end}}><td>{{$g.Name}}</td><td>{{$g.Base}}</td><td>{{$g.Cand}}</td></tr>
{{end}}{{range $i := steps .}}<tr{{if eq $i $p.Diverge}} class="diverge"{{end}}><td>{{if eq $i $p.Diverge}}▶ {{end}}step {{inc $i}}</td><td>{{stepAt $p.Base $i}}</td><td>{{stepAt $p.Cand $i}}</td></tr>
{{end}}</table>
{{end}}`))

// gateRow is one gate of both runs.
type gateRow struct {
	Name, Base, Cand string
	Differs          bool
}

func gateRows(p metrics.RunPair) []gateRow {
	differs := map[string]bool{}
	for _, g := range p.Gates {
		differs[g] = true
	}
	b := func(v bool) *bool { return &v }
	rows := []gateRow{
		{Name: "plan", Base: triText(p.Base.PlanValid), Cand: triText(p.Cand.PlanValid)},
		{Name: "evidence", Base: triText(p.Base.EvidenceSatisfied), Cand: triText(p.Cand.EvidenceSatisfied)},
		{Name: "deliverable", Base: triText(b(p.Base.AnswerDeliverable)), Cand: triText(b(p.Cand.AnswerDeliverable))},
		{Name: "committed", Base: triText(b(p.Base.TerminalCommitted)), Cand: triText(b(p.Cand.TerminalCommitted))},
		{Name: "success", Base: triText(p.Base.Success), Cand: triText(p.Cand.Success)},
	}
	for i := range rows {
		rows[i].Differs = differs[rows[i].Name]
	}
	if p.Cand.Masked {
		rows[4].Cand += " (masked: claimed completed)"
	}
	return rows
}

func triText(v *bool) string {
	switch {
	case v == nil:
		return "unknown"
	case *v:
		return "pass"
	}
	return "FAIL"
}

// stepText is one timeline step: kind, name, attempt, status, error and
// recovery, without timings.
func stepText(s metrics.Span) string {
	t := fmt.Sprintf("%s %s", s.Kind, s.Name)
	if s.Attempt > 1 {
		t += fmt.Sprintf("#%d", s.Attempt)
	}
	t += " " + s.Status
	if s.Category != "" {
		t += " " + s.Category
	}
	if s.Recovery != "" {
		t += " ↳" + s.Recovery
	}
	return t
}

func stepAt(d *metrics.RunDetail, i int) string {
	if i < len(d.Timeline) {
		return stepText(d.Timeline[i])
	}
	return ""
}

func stepIndexes(p metrics.RunPair) []int {
	n := max(len(p.Base.Timeline), len(p.Cand.Timeline))
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// InsertPairsHTML returns the HTML page with a section of paired runs
// before its closing body tag (the page unchanged without pairs).
func InsertPairsHTML(page []byte, pairs []metrics.RunPair) ([]byte, error) {
	if len(pairs) == 0 {
		return page, nil
	}
	var sec bytes.Buffer
	if err := pairsSection.Execute(&sec, pairs); err != nil {
		return nil, fmt.Errorf("compare: paired runs: %w", err)
	}
	i := bytes.LastIndex(page, []byte("</body>"))
	if i < 0 {
		return nil, fmt.Errorf("compare: paired runs: the page has no </body>")
	}
	out := append([]byte{}, page[:i]...)
	out = append(out, sec.Bytes()...)
	return append(out, page[i:]...), nil
}
