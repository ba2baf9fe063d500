package compare

import (
	"bytes"
	"fmt"
	"io"

	"github.com/faultlens/faultlens/textsafe"
)

// writeMarkdown renders a pull-request comment: one summary line, failed
// gates first, then the whole-run-set table; per-scenario rows that
// changed significantly follow in a collapsed section. It is built in
// memory and written once, so that a failing writer is one error returned.
func writeMarkdown(w io.Writer, res *Result) error {
	var b bytes.Buffer
	mark := "✅"
	if res.Failed > 0 {
		mark = "❌"
	}
	fmt.Fprintf(&b, "%s **faultlens compare** %s\n\n", mark, textsafe.Markdown(summary(res)))
	fmt.Fprintln(&b, "| gate | metric | rule | result |")
	fmt.Fprintln(&b, "| --- | --- | --- | --- |")
	for _, g := range res.Gates {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", gateMark(g), textsafe.Markdown(gateLabel(g)), gateRule(g.Gate), textsafe.Markdown(GateText(g)))
	}
	header := fmt.Sprintf("| metric | %s | %s | delta [interval] | p_adj | verdict | A/A noise |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |\n",
		textsafe.Markdown(res.Baseline.Name), textsafe.Markdown(res.Candidate.Name))
	if gated := family(res, FamilyGated); len(gated) > 0 {
		fmt.Fprintf(&b, "\n**Gated** (decide the exit code: one-sided in the gate's bad direction, Holm within %d gated tests, interval at the level shown)\n\n", res.GatedTests)
		fmt.Fprint(&b, header)
		for _, r := range gated {
			mdRow(&b, r, rowLabel(r))
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
		mdRow(&b, r, rowLabel(r))
	}
	if len(scen) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d significant exploratory per-scenario changes</summary>\n\n", len(scen))
		fmt.Fprint(&b, header)
		for _, r := range scen {
			mdRow(&b, r, rowLabel(r))
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

func mdRow(b *bytes.Buffer, r Row, label string) {
	fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", label, cell(r, r.Base), cell(r, r.Cand), delta(r),
		pText(r.PAdj), VerdictText(r), noise(r))
}
