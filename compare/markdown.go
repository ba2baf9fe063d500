package compare

import (
	"bytes"
	"fmt"
	"io"

	"github.com/faultlens/faultlens/textsafe"
)

// writeMarkdown renders a pull-request comment: the verdict first (the
// failed gates named, worst first), the gates with every failed one in
// bold and the skipped ones collapsed by reason, then the whole-run-set
// table; per-scenario rows that changed significantly follow in a
// collapsed section. It is built in memory and written once, so that a
// failing writer is one error returned.
func writeMarkdown(w io.Writer, res *Result) error {
	var b bytes.Buffer
	v := viewGates(res)
	mark := "✅"
	if len(v.Failed) > 0 {
		mark = "❌"
	}
	fmt.Fprintf(&b, "%s **%s**", mark, bannerTitle(v))
	if len(v.Failed) > 0 {
		fmt.Fprintf(&b, ", worst first: **%s**", textsafe.Markdown(worstText(v)))
	}
	fmt.Fprintf(&b, "\n\n**faultlens compare** %s\n\n", textsafe.Markdown(summary(res)))
	fmt.Fprintln(&b, "| gate | metric | rule | result |")
	fmt.Fprintln(&b, "| --- | --- | --- | --- |")
	for _, g := range v.Failed {
		fmt.Fprintf(&b, "| **FAIL** | **%s** | %s | **%s** |\n", textsafe.Markdown(gateLabel(g)), gateRule(g.Gate), textsafe.Markdown(GateText(g)))
	}
	for _, g := range v.Passed {
		fmt.Fprintf(&b, "| pass | %s | %s | %s |\n", textsafe.Markdown(gateLabel(g)), gateRule(g.Gate), textsafe.Markdown(GateText(g)))
	}
	for _, s := range v.Skipped {
		fmt.Fprintf(&b, "| skip ×%d | %s | | %s |\n", len(s.Gates), textsafe.Markdown(s.Labels()), textsafe.Markdown(s.Reason))
	}
	failed := failedRows(res)
	header := fmt.Sprintf("| metric | %s | %s | delta [interval] | p_adj | verdict | A/A noise |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |\n",
		textsafe.Markdown(res.Baseline.Name), textsafe.Markdown(res.Candidate.Name))
	if gated := family(res, FamilyGated); len(gated) > 0 {
		fmt.Fprintf(&b, "\n**Gated** (decide the exit code: one-sided in the gate's bad direction, Holm within %d gated tests, interval at the level shown; a failed gate's row in bold)\n\n", res.GatedTests)
		fmt.Fprint(&b, header)
		for _, r := range gated {
			mdRow(&b, r, failed[[2]string{r.Metric, r.Scenario}])
		}
	}
	fmt.Fprintf(&b, "\n**Exploratory** (two-sided, Holm within %d exploratory tests, %.0f%% intervals; never gated)\n\n", res.ExploratoryTests, res.Confidence*100)
	fmt.Fprint(&b, header)
	var scen []Row
	for _, r := range family(res, FamilyExploratory) {
		if r.Scenario != "" {
			if r.Significant {
				scen = append(scen, r)
			}
			continue
		}
		mdRow(&b, r, false)
	}
	if len(scen) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d significant exploratory per-scenario changes</summary>\n\n", len(scen))
		fmt.Fprint(&b, header)
		for _, r := range scen {
			mdRow(&b, r, false)
		}
		fmt.Fprintln(&b, "\n</details>")
	}
	_, err := w.Write(b.Bytes())
	return err
}

func rowLabel(r Row) string {
	if r.Scenario == "" {
		return textsafe.Markdown(r.Metric)
	}
	return textsafe.Markdown(r.Scenario) + " / " + textsafe.Markdown(r.Metric)
}

// mdRow writes one row; a row a failed gate judged is bold.
func mdRow(b *bytes.Buffer, r Row, failed bool) {
	cells := []string{rowLabel(r), cell(r, r.Base), cell(r, r.Cand), delta(r), pText(r.PAdj), VerdictText(r), noise(r)}
	if failed {
		for i, c := range cells {
			if c != "-" {
				cells[i] = "**" + c + "**"
			}
		}
	}
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" " + c + " |")
	}
	b.WriteString("\n")
}
