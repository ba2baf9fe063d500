package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// Markdown writes the report as a review document.
func Markdown(w io.Writer, rep *metrics.Report) error {
	var b strings.Builder
	b.WriteString("# faultlens report\n\n")
	fmt.Fprintf(&b, "%d suite(s); %d rejected input lines.\n", len(rep.Suites), rep.Rejected.Lines)
	if rep.Rejected.Lines > 0 {
		reasons := make([]string, 0, len(rep.Rejected.ByReason))
		for r := range rep.Rejected.ByReason {
			reasons = append(reasons, r)
		}
		sort.Strings(reasons)
		b.WriteString("\n| rejected because | lines |\n|---|---:|\n")
		for _, r := range reasons {
			fmt.Fprintf(&b, "| %s | %d |\n", textsafe.Markdown(r), rep.Rejected.ByReason[r])
		}
	}
	for _, s := range rep.Suites {
		suiteMarkdown(&b, s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdTable(b *strings.Builder, header []string, align string, rows [][]string) {
	b.WriteString("| " + strings.Join(header, " | ") + " |\n")
	b.WriteString(align + "\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	b.WriteString("\n")
}

func suiteMarkdown(b *strings.Builder, s metrics.Suite) {
	m := s.Metrics
	fmt.Fprintf(b, "\n## Suite `%s` (%d runs)\n\n", textsafe.Markdown(s.Suite), s.Runs)
	b.WriteString("### Funnel\n\n")
	funnel := [][]string{{"runs", fmt.Sprint(s.Runs), ""}}
	for _, nr := range m.RatesIn(metrics.GroupFunnel) {
		lbl := strings.TrimSuffix(nr.Def.Label, " (all four)")
		if nr.Name == "success" {
			lbl = "**" + lbl + "**"
		}
		funnel = append(funnel, []string{lbl, fmt.Sprint(nr.Rate.Num), mdRate(nr)})
	}
	mdTable(b, []string{"step", "runs", "rate"}, "|---|---:|---:|", funnel)
	b.WriteString("### Rates\n\n")
	var rows [][]string
	for _, nr := range m.Rates() {
		flag := ""
		if nr.Def.Defect && nr.Rate.Num > 0 {
			flag = " ⚠"
		}
		rows = append(rows, []string{nr.Name + flag, fmt.Sprint(nr.Rate.Num), fmt.Sprint(nr.Rate.Den), mdRate(nr)})
	}
	rows = append(rows, []string{"retry_amplification", "", "", num(s.RetryAmplification)})
	mdTable(b, []string{"metric", "num", "den", "rate"}, "|---|---:|---:|---:|", rows)
	if list := unknownArgsList(s.UnknownArgs, textsafe.Markdown); list != "" {
		b.WriteString(unknownArgsSentence(list) + "\n\n")
	}

	b.WriteString("### Recovery by error class\n\n")
	rows = nil
	for _, r := range s.Recovery {
		rows = append(rows, []string{textsafe.Markdown(r.Category), textsafe.Markdown(r.Tool), fmt.Sprint(r.Chains), fmt.Sprint(r.FirstTry),
			fmt.Sprint(r.AfterRetry), fmt.Sprint(r.AfterSwitch), fmt.Sprint(r.Degraded), fmt.Sprint(r.Failed)})
	}
	mdTable(b, []string{"category", "tool", "chains", "first_try", "after_retry", "after_switch", "degraded", "failed"},
		"|---|---|---:|---:|---:|---:|---:|---:|", rows)

	b.WriteString("### Evidence grade by path\n\n")
	rows = nil
	for _, r := range s.EvidenceGrade {
		rows = append(rows, []string{r.Path, fmt.Sprint(r.Count), num(r.MeanGrade)})
	}
	mdTable(b, []string{"path", "confirmed evidence", "mean grade"}, "|---|---:|---:|", rows)

	b.WriteString("### Latency (ms)\n\n")
	rows = nil
	for _, r := range s.Latency {
		rows = append(rows, []string{r.Scope, textsafe.Markdown(r.Name), fmt.Sprint(r.N),
			ms(r.QueueMs.P50), ms(r.QueueMs.P95), ms(r.ExecMs.P50), ms(r.ExecMs.P95),
			ms(r.WallMs.P50), ms(r.WallMs.P95), ms(r.WallMs.P99), ms(r.WallMs.Max), share(r.QueueShare)})
	}
	mdTable(b, []string{"scope", "name", "n", "queue p50", "queue p95", "exec p50", "exec p95",
		"wall p50", "wall p95", "wall p99", "wall max", "queue share"}, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|", rows)

	b.WriteString("### Scenarios\n\n")
	rows = nil
	for _, p := range s.Scenarios {
		pm := p.Metrics
		rows = append(rows, []string{textsafe.Markdown(p.Scenario), fmt.Sprint(p.Runs), ratePct(named(pm, "success")), fmt.Sprint(pm.MaskedSuccess.Num),
			fmt.Sprint(pm.UnverifiedCompletion.Num), pct(pm.ExpectationConformance.Rate), fmt.Sprintf("%d/%d", pm.InvalidRetry.Num, pm.InvalidRetry.Den)})
	}
	mdTable(b, []string{"scenario", "runs", "success", "masked", "unverified", "conformance", "invalid retry"}, "|---|---:|---:|---:|---:|---:|---:|", rows)
}

// mdRate is a rate's percentage, or "unknown (why)" when it has none.
func mdRate(nr metrics.NamedRate) string {
	if why := nr.UnknownBecause(); why != "" {
		return "unknown (" + why + ")"
	}
	return pct(nr.Rate.Rate)
}
