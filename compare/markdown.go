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
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", gateMark(g), textsafe.Markdown(g.Metric), gateRule(g.Gate), textsafe.Markdown(g.Reason))
	}
	fmt.Fprintln(w)
	header := fmt.Sprintf("| metric | %s | %s | delta [%.0f%% CI] | p_adj | verdict | A/A noise |\n| --- | ---: | ---: | ---: | ---: | --- | ---: |\n",
		textsafe.Markdown(res.Baseline.Name), textsafe.Markdown(res.Candidate.Name), res.Confidence*100)
	fmt.Fprint(w, header)
	var scen []Row
	for _, r := range res.Rows {
		if r.Scenario != "" {
			if r.Significant {
				scen = append(scen, r)
			}
			continue
		}
		mdRow(w, r, textsafe.Markdown(r.Metric))
	}
	if len(scen) > 0 {
		fmt.Fprintf(w, "\n<details><summary>%d significant per-scenario changes</summary>\n\n", len(scen))
		fmt.Fprint(w, header)
		for _, r := range scen {
			mdRow(w, r, textsafe.Markdown(r.Scenario)+" / "+textsafe.Markdown(r.Metric))
		}
		fmt.Fprintln(w, "\n</details>")
	}
	return nil
}

func mdRow(w io.Writer, r Row, label string) {
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", label, cell(r, r.Base), cell(r, r.Cand), delta(r),
		pText(r.PAdj), verdictText(r), noise(r))
}
