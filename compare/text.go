package compare

import (
	"bytes"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/faultlens/faultlens/textsafe"
)

// writeText prints a benchstat-like table: gates, then every row. The text
// is built in memory and written once, so that a failing writer is one
// error returned, not a half-written table that reports success.
func writeText(w io.Writer, res *Result) error {
	var out, tab bytes.Buffer
	fmt.Fprintln(&out, textsafe.Terminal(summary(res)))
	fmt.Fprintln(&out)
	fmt.Fprintln(&tab, "gate\tmetric\trule\tresult\t")
	for _, g := range res.Gates {
		fmt.Fprintf(&tab, "%s\t%s\t%s\t%s\t\n", gateMark(g), textsafe.Terminal(gateLabel(g)), gateRule(g.Gate), textsafe.Terminal(GateText(g)))
	}
	if err := aligned(&out, &tab); err != nil {
		return err
	}
	for _, fam := range []struct{ name, title string }{
		{FamilyGated, "gated rows (decide the exit code; one-sided in the gate's bad direction, Holm within the gated family, interval at the level shown)"},
		{FamilyExploratory, "exploratory rows (two-sided, Holm within their own family; they never decide the exit code)"},
	} {
		rows := family(res, fam.name)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintln(&out)
		fmt.Fprintln(&out, fam.title)
		fmt.Fprintf(&tab, "scenario\tmetric\t%s\t%s\tdelta [%.0f%% CI]\tp_adj\tverdict\tA/A noise\t\n",
			textsafe.Terminal(res.Baseline.Name), textsafe.Terminal(res.Candidate.Name), res.Confidence*100)
		for _, r := range rows {
			fmt.Fprintf(&tab, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", textsafe.Terminal(scenarioLabel(r.Scenario)),
				textsafe.Terminal(r.Metric), cell(r, r.Base), cell(r, r.Cand), delta(r), pText(r.PAdj), VerdictText(r), noise(r))
		}
		if err := aligned(&out, &tab); err != nil {
			return err
		}
	}
	if len(res.Paired) > 0 {
		fmt.Fprintln(&out)
		fmt.Fprintln(&tab, "paired success (McNemar)\tpairs\tonly baseline\tonly candidate\tp\t")
		for _, p := range res.Paired {
			fmt.Fprintf(&tab, "%s\t%d\t%d\t%d\t%.3g\t\n", textsafe.Terminal(scenarioLabel(p.Scenario)), p.Pairs, p.OnlyBase, p.OnlyCand, p.P)
		}
		if err := aligned(&out, &tab); err != nil {
			return err
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// aligned writes the tab-terminated cells in tab to out as aligned
// columns, and empties tab for the next table.
func aligned(out io.Writer, tab *bytes.Buffer) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if _, err := tw.Write(tab.Bytes()); err != nil {
		return err
	}
	tab.Reset()
	return tw.Flush()
}
