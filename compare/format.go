package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// Formats lists the export formats Write accepts.
var Formats = []string{"text", "markdown", "json", "html", "junit", "csv"}

// Write renders res in format to w.
func Write(w io.Writer, res *Result, format string) error {
	switch format {
	case "text":
		return writeText(w, res)
	case "markdown":
		return writeMarkdown(w, res)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	case "html":
		return writeHTML(w, res)
	case "junit":
		return writeJUnit(w, res)
	case "csv":
		return writeCSV(w, res)
	}
	return fmt.Errorf("unknown format %q", format)
}

// summary is the one line under the banner: the two sides and the sizes
// of the two test families.
func summary(res *Result) string {
	gsig, esig := 0, 0
	for _, r := range res.Rows {
		switch {
		case r.Significant && r.Family == FamilyGated:
			gsig++
		case r.Significant:
			esig++
		}
	}
	mix := ""
	if res.Mix != "" {
		mix = ", scenarios: " + res.Mix
	}
	return fmt.Sprintf("%s (%d runs) vs %s (%d runs)%s; gated: %d significant of %d tests (one-sided, Holm, α=%g); exploratory: %d significant of %d tests (Holm within their own family, not gated)",
		res.Baseline.Name, res.Baseline.Runs, res.Candidate.Name, res.Candidate.Runs, mix, gsig, res.GatedTests, res.Alpha, esig, res.ExploratoryTests)
}

// family returns the rows of one family, in order.
func family(res *Result, fam string) []Row {
	var out []Row
	for _, r := range res.Rows {
		if r.Family == fam || (fam == FamilyExploratory && r.Family == "") {
			out = append(out, r)
		}
	}
	return out
}

// cell formats a value: rates as percentages, latency with its unit.
func cell(r Row, v *float64) string {
	if v == nil {
		return "-"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%.1f%%", *v*100)
	}
	return msText(*v)
}

// delta formats the change with its interval; a level other than the
// report's confidence (a gated row's Holm level) is printed after it.
func delta(r Row) string {
	if r.Diff == nil {
		return "-"
	}
	lvl := ""
	if r.Family == FamilyGated && r.Alternative != "" && r.Level > 0 {
		lvl = " @" + levelText(r.Level)
	}
	b := func(p *float64, inf float64, scale float64, f string) string {
		if p == nil {
			if inf < 0 {
				return "-inf"
			}
			return "+inf"
		}
		return fmt.Sprintf(f, *p*scale)
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("%+.1fpp [%s, %s]%s", *r.Diff*100, b(r.Lo, -1, 100, "%+.1f"), b(r.Hi, 1, 100, "%+.1f"), lvl)
	}
	d := func(p *float64, inf float64) string {
		if p == nil {
			return signedMs(math.Inf(int(inf)))
		}
		return signedMs(*p)
	}
	return fmt.Sprintf("%s [%s, %s]%s", signedMs(*r.Diff), d(r.Lo, -1), d(r.Hi, 1), lvl)
}

// noise formats the A/A band.
func noise(r Row) string {
	if r.Noise == nil {
		return "-"
	}
	if r.Kind == "rate" {
		return fmt.Sprintf("±%.1fpp", *r.Noise*100)
	}
	return "±" + msText(*r.Noise)
}

// gateLabel is the metric a gate judged, with its scenario when per scenario.
func gateLabel(g GateResult) string {
	if g.Scenario == "" {
		return g.Metric
	}
	return g.Scenario + " / " + g.Metric
}

// scenarioLabel names a row's scope.
func scenarioLabel(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

func gateMark(g GateResult) string {
	switch {
	case !g.Passed:
		return "FAIL"
	case g.Skipped:
		return "skip"
	}
	return "pass"
}

func gateRule(g Gate) string {
	s := ""
	if g.PerScenario {
		s = ", per scenario"
	}
	if g.MustBeZero {
		return "must be zero" + s
	}
	if g.MustNotIncrease {
		return "must not increase" + s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s ≤ %g", g.Direction, *g.MaxChange)
	if g.Relative {
		b.WriteString(" (relative)")
	}
	if g.RequireSignificant {
		b.WriteString(", if significant")
	}
	if g.PerScenario {
		b.WriteString(", per scenario")
	}
	return b.String()
}
