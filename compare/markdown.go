package compare

import (
	"fmt"
	"io"

	"github.com/faultlens/faultlens/textsafe"
)

// writeMarkdown renders a pull-request comment: one summary line, failed
// gates first, then the whole-run-set table; per-scenario rows that
// changed significantly follow in a collapsed section.
func writeMarkdown(w io.Writer, res *Result) error {
	mark := "✅"
	if res.Failed > 0 {
		mark = "❌"
	}
	fmt.Fprintf(w, "%s **faultlens compare** %s\n\n", mark, textsafe.Markdown(summary(res)))
	fmt.Fprintln(w, "| gate | metric | rule | result |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	for _, g := range res.Gates {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", gateMark(g), textsafe.Markdown(gateLabel(g)), gateRule(g.Gate), textsafe.Markdown(g.Reason))
	}
	header := fmt.Sprintf("| metric | %s | %s | delta [interval] | p_adj | verdict | A/A noise |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |\n",
		textsafe.Markdown(res.Baseline.Name), textsafe.Markdown(res.Candidate.Name))
	if gated := family(res, FamilyGated); len(gated) > 0 {
		fmt.Fprintf(w, "\n**Gated** (decide the exit code: one-sided in the gate's bad direction, Holm within %d gated tests, interval at the level shown)\n\n", res.GatedTests)
		fmt.Fprint(w, header)
		for _, r := range gated {
			mdRow(w, r, rowLabel(r))
		}
	}
	fmt.Fprintf(w, "\n**Exploratory** (two-sided, Holm within %d exploratory tests, %.0f%% intervals; never gated)\n\n", res.ExploratoryTests, res.Confidence*100)
	fmt.Fprint(w, header)
	var scen []Row
	for _, r := range family(res, FamilyExploratory) {
		if r.Scenario != "" {
			if r.Significant {
				scen = append(scen, r)
			}
			continue
		}
		mdRow(w, r, rowLabel(r))
	}
	if len(scen) > 0 {
		fmt.Fprintf(w, "\n<details><summary>%d significant exploratory per-scenario changes</summary>\n\n", len(scen))
		fmt.Fprint(w, header)
		for _, r := range scen {
			mdRow(w, r, rowLabel(r))
		}
		fmt.Fprintln(w, "\n</details>")
	}
	return nil
}

func rowLabel(r Row) string {
	if r.Scenario == "" {
		return textsafe.Markdown(r.Metric)
	}
	return textsafe.Markdown(r.Scenario) + " / " + textsafe.Markdown(r.Metric)
}

func mdRow(w io.Writer, r Row, label string) {
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", label, cell(r, r.Base), cell(r, r.Cand), delta(r),
		pText(r.PAdj), verdictText(r), noise(r))
}
