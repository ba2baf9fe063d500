package compare

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/faultlens/faultlens/textsafe"
)

// textWidth is the widest line the text report prints.
const textWidth = 100

// writeText prints the verdict first, then the gates (failed ones worst
// first, skipped ones collapsed by reason), then the rows as
// benchstat-like tables, within textWidth columns. The text is built in
// memory and written once, so that a failing writer is one error
// returned, not a half-written table that reports success.
func writeText(w io.Writer, res *Result) error {
	var out bytes.Buffer
	v := viewGates(res)
	fmt.Fprintln(&out, bannerTitle(v))
	if len(v.Failed) > 0 {
		wrap(&out, "worst first: "+textsafe.Terminal(worstText(v)), "", "  ")
	}
	wrap(&out, textsafe.Terminal(summary(res)), "", "  ")
	section := func(title string) { fmt.Fprintf(&out, "\n%s\n", title) }
	gate := func(g GateResult) {
		fmt.Fprintf(&out, "%-4s  %s  (%s)\n", gateMark(g), textsafe.Terminal(gateLabel(g)), gateRule(g.Gate))
		wrap(&out, textsafe.Terminal(GateText(g)), "      ", "      ")
	}
	if len(v.Failed) > 0 {
		section("failed gates")
		for _, g := range v.Failed {
			gate(g)
		}
	}
	if len(v.Passed) > 0 {
		section("passed gates")
		for _, g := range v.Passed {
			gate(g)
		}
	}
	if len(v.Skipped) > 0 {
		section("skipped gates (they do not fail the comparison)")
		for _, s := range v.Skipped {
			wrap(&out, fmt.Sprintf("%d × %s", len(s.Gates), textsafe.Terminal(s.Reason)), "skip  ", "      ")
			wrapItems(&out, s.labels(), "      ")
		}
	}
	failed := failedRows(res)
	shown, hidden := shownExploratory(res)
	for _, fam := range []struct {
		title string
		rows  []Row
	}{
		{"gated rows (decide the exit code; one-sided in the gate's bad direction, Holm within the gated family; " +
			"each interval at its gate's level, above; ! marks a failed gate)", family(res, FamilyGated)},
		{fmt.Sprintf("exploratory rows (two-sided, Holm within their own family, %.0f%% intervals; they never decide the exit code)",
			res.Confidence*100), shown},
	} {
		if len(fam.rows) == 0 {
			continue
		}
		fmt.Fprintln(&out)
		wrap(&out, fam.title, "", "")
		cells := [][]string{{"  metric", clip(textsafe.Terminal(res.Baseline.Name), 12), clip(textsafe.Terminal(res.Candidate.Name), 12),
			"delta [interval]", "p_adj", "verdict", "noise"}}
		group := ""
		for _, r := range fam.rows {
			if g, _ := rowGroup(r); g != group && g != "" {
				cells = append(cells, []string{"  " + textsafe.Terminal(g) + ":"})
			}
			g, label := rowGroup(r)
			group = g
			mark := "  "
			if failed[[2]string{r.Metric, r.Scenario}] {
				mark = "! "
			}
			if g != "" {
				mark += "  "
			}
			d := r
			d.Level = 0 // the gate's line carries the level
			cells = append(cells, []string{mark + textsafe.Terminal(label), cell(r, r.Base), cell(r, r.Cand), delta(d), pText(r.PAdj),
				ShortVerdict(r), noise(r)})
		}
		fitTable(&out, cells)
	}
	if hidden > 0 {
		wrap(&out, fmt.Sprintf("(%d per-scenario rows without a significant change are left out; --format csv or json lists every row)", hidden), "", "")
	}
	if len(res.Paired) > 0 {
		fmt.Fprintln(&out)
		cells := [][]string{{"paired success (McNemar)", "pairs", "only baseline", "only candidate", "p"}}
		for _, p := range res.Paired {
			cells = append(cells, []string{"  " + textsafe.Terminal(scenarioLabel(p.Scenario)), fmt.Sprint(p.Pairs), fmt.Sprint(p.OnlyBase),
				fmt.Sprint(p.OnlyCand), pText(&p.P)})
		}
		fitTable(&out, cells)
	}
	_, err := w.Write(out.Bytes())
	return err
}

// wrap writes s in lines of at most textWidth columns, the first one
// after first, the next ones after indent; a word longer than a line is
// written on its own.
func wrap(out *bytes.Buffer, s, first, indent string) {
	line, n := first, utf8.RuneCountInString(first)
	for _, word := range strings.Fields(s) {
		wl := utf8.RuneCountInString(word)
		if line != first && n+1+wl > textWidth {
			fmt.Fprintln(out, line)
			line, n = indent+word, utf8.RuneCountInString(indent)+wl
			continue
		}
		if line != first {
			line, n = line+" ", n+1
		}
		line, n = line+word, n+wl
	}
	fmt.Fprintln(out, line)
}

// fitTable writes cells as aligned columns within textWidth: the first
// row is the header, a row of one cell a group heading. When a row is too
// wide the metric column (the first) is cut with an ellipsis.
func fitTable(out *bytes.Buffer, cells [][]string) {
	widths := make([]int, len(cells[0]))
	for _, r := range cells {
		if len(r) == 1 {
			continue
		}
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	if over := total - 2 - textWidth; over > 0 {
		widths[0] = max(8, widths[0]-over)
	}
	for _, r := range cells {
		var b strings.Builder
		for i, c := range r {
			if len(r) == 1 {
				c = clip(c, textWidth)
			} else if i == 0 {
				c = clip(c, widths[0])
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		out.WriteString(strings.TrimRight(b.String(), " ") + "\n")
	}
}

// clip cuts s to n runes, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// rowGroup splits a row's name into the group heading it is listed under
// (its scenario, and for latency the scope and name) and its own label.
func rowGroup(r Row) (group, label string) {
	label = r.Metric
	if p := strings.Split(r.Metric, "."); len(p) == 5 && p[0] == "latency" {
		group, label = strings.Join(p[:3], "."), p[3]+"."+p[4]
	}
	if r.Scenario != "" {
		group = strings.TrimSuffix(r.Scenario+" / "+group, " / ")
	}
	return group, label
}

// ShortVerdict is VerdictText without the detectable difference or the
// share of the baseline, which the wide exports carry.
func ShortVerdict(r Row) string {
	switch r.Verdict {
	case VerdictTooSmall:
		return "too small"
	case VerdictSignificant:
		return strings.SplitN(VerdictText(r), " (", 2)[0]
	}
	return VerdictText(r)
}

// wrapItems writes items separated by commas in lines of at most
// textWidth columns after indent, never breaking inside an item.
func wrapItems(out *bytes.Buffer, items []string, indent string) {
	line := indent
	for i, it := range items {
		it = textsafe.Terminal(it)
		if i < len(items)-1 {
			it += ","
		}
		if line != indent && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(it) > textWidth {
			fmt.Fprintln(out, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += it
	}
	fmt.Fprintln(out, line)
}
