package compare

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/faultlens/faultlens/textsafe"
)

// writeText prints a benchstat-like table: gates, then every row.
func writeText(w io.Writer, res *Result) error {
	fmt.Fprintln(w, textsafe.Terminal(summary(res)))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "gate\tmetric\trule\tresult\t")
	for _, g := range res.Gates {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", gateMark(g), textsafe.Terminal(gateLabel(g)), gateRule(g.Gate), textsafe.Terminal(g.Reason))
	}
	tw.Flush()
	for _, fam := range []struct{ name, title string }{
		{FamilyGated, "gated rows (decide the exit code; one-sided in the gate's bad direction, Holm within the gated family, interval at the level shown)"},
		{FamilyExploratory, "exploratory rows (two-sided, Holm within their own family; they never decide the exit code)"},
	} {
		rows := family(res, fam.name)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w, fam.title)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "scenario\tmetric\t%s\t%s\tdelta [%.0f%% CI]\tp_adj\tverdict\tA/A noise\t\n",
			textsafe.Terminal(res.Baseline.Name), textsafe.Terminal(res.Candidate.Name), res.Confidence*100)
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", textsafe.Terminal(scenarioLabel(r.Scenario)),
				textsafe.Terminal(r.Metric), cell(r, r.Base), cell(r, r.Cand), delta(r), pText(r.PAdj), verdictText(r), noise(r))
		}
		tw.Flush()
	}
	if len(res.Paired) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "paired success (McNemar)\tpairs\tonly baseline\tonly candidate\tp\t")
		for _, p := range res.Paired {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.3g\t\n", textsafe.Terminal(scenarioLabel(p.Scenario)), p.Pairs, p.OnlyBase, p.OnlyCand, p.P)
		}
		tw.Flush()
	}
	return nil
}
